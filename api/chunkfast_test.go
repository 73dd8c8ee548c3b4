package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// fastShapes are chunks of the shapes real gateways send for text, which
// the fast path must take (not leave to encoding/json).
var fastShapes = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","system_fingerprint":"fp","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hé\"llo\n\u00e9 \t\\ \/ \b\f\r"},"finish_reason":null}]}`,
	`{"id":"x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	`{"choices":[{"index":0,"delta":{"reasoning_content":"think","content":null},"finish_reason":null}],"obfuscation":"a1B2"}`,
	`{"choices":[{"index":0,"delta":{"reasoning":"think \u2028"}}],"provider":"x","native_finish_reason":null}`,
	`{"choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"a"}}]}`,
	`{"choices":[]}`,
	`{"choices":null,"id":null}`,
	`{"choices":[{"index":0,"delta":null,"finish_reason":"length"}]}`,
	` {"choices" : [ { "index" : -0 , "delta" : { "content" : "sp" } } ] } `,
	`{"a":-1.5e+3,"b":0,"c":true,"d":false,"e":"x","f":1E9,"choices":[{"index":null,"x":0.25}]}`,
}

// chunkOddities are inputs the fast path must leave to encoding/json or
// decode as it does: case-folded and escaped keys, repeats, numbers,
// nesting, surrogates, bad UTF-8, broken JSON.
var chunkOddities = []string{
	`{"Choices":[{"index":0,"delta":{"content":"case"}}]}`,
	`{"choices":[{"INDEX":2,"delta":{"CONTENT":"case"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[{"index":0}]}`,
	`{"choices":[{"index":0,"index":1}]}`,
	`{"id":"a","id":"b"}`,
	`{"choices":[{"index":1.0}]}`,
	`{"choices":[{"index":1e0}]}`,
	`{"choices":[{"index":01}]}`,
	`{"choices":[{"index":9999999999}]}`,
	`{"choices":[{"index":"0"}]}`,
	`{"choices":[null]}`,
	`{"choices":{}}`,
	`{"id":"bad` + "\xff" + `utf8"}`,
	`{"id":"bad\n` + "\xff" + `utf8"}`,
	`{"id":"ctl` + "\x01" + `"}`,
	`{"id":"\ud83c\udf89"}`,
	`{"id":"\ud83c"}`,
	`{"id":"\x"}`,
	`{"id":"\u12"}`,
	`{"id":5}`,
	`{"choices":[{"index":0,"delta":{"content":"x"}}]}trailing`,
	`{"a":[1,2,{"b":-0.5e+3}]}`,
	`{"a":{"b":1}}`,
	`{"a":01}`,
	`{"a":-}`,
	`{"a":1.}`,
	`{"a":1e}`,
	`{"a":tru}`,
	`{"a":nul}`,
	`{"ſ":1}`,
	`{"\u0069d":"escaped key"}`,
	`{"id":"x",}`,
	`{"id":"x"`,
	`{"id" "x"}`,
	`null`,
	`[]`,
	`"x"`,
	``,
	`{"usage":{"prompt_tokens":1}}`,
	`{"usage":null}`,
	`{"error":null}`,
	`{"object":"error","message":"boom"}`,
	`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}`,
	`{"choices":[{"index":0,"delta":{"images":[]}}]}`,
	`{"choices":[{"index":0,"delta":{"Role":"assistant"}}]}`,
	`{"choices":[{"index":0,"Finish_Reason":"stop"}]}`,
}

// TestChunkFastMatchesEncodingJSON: whatever the fast path decodes,
// encoding/json decodes to the same chunk; the shapes gateways send are
// decoded by the fast path itself.
func TestChunkFastMatchesEncodingJSON(t *testing.T) {
	var f chunkFast
	for _, s := range fastShapes {
		if _, ok := f.decode([]byte(s)); !ok {
			t.Errorf("the fast path left a common shape to encoding/json: %s", s)
		}
	}
	all := append(append(append([]string{}, fastShapes...), chunkOddities...), chunkSamples...)
	for _, s := range all {
		checkChunkFast(t, &f, []byte(s))
	}
}

// checkChunkFast fails when the fast path decodes data otherwise than
// json.Unmarshal into a fresh wire chunk, or takes an error event.
func checkChunkFast(t *testing.T, f *chunkFast, data []byte) {
	t.Helper()
	got, ok := f.decode(data)
	if !ok {
		return
	}
	var want wireChunk
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("the fast path took %q, which encoding/json rejects: %v", data, err)
	}
	if want.Error != nil || want.Object == "error" {
		t.Fatalf("the fast path took the error event %q", data)
	}
	if !reflect.DeepEqual(got, want.ChatChunk) {
		t.Fatalf("%q:\n fast %#v\n json %#v", data, got, want.ChatChunk)
	}
}

// TestChunkFastAllocations: a chunk of text costs its slice of choices,
// its delta and its text, nothing more (encoding/json: about ten).
func TestChunkFastAllocations(t *testing.T) {
	var d chunkDecoder
	chunk := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"word\n"},"logprobs":null,"finish_reason":null}]}`)
	if _, _, err := d.decode(chunk); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, _, err := d.decode(chunk); err != nil {
			t.Fatal(err)
		}
	}); n > 3 {
		t.Errorf("decoding a chunk of text allocates %v times; 3 expected", n)
	}
}

// FuzzChunkFast holds the fast path to encoding/json on any input.
func FuzzChunkFast(f *testing.F) {
	for _, s := range append(append(append([]string{}, fastShapes...), chunkOddities...), chunkSamples...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast chunkFast
		checkChunkFast(t, &fast, data)
		// A second decode with what the first one kept (id, object,
		// model, scratch) gives the same.
		checkChunkFast(t, &fast, data)
	})
}

// TestChunkFastKeepsNoLargeScratch: a chunk with a long escaped string
// decodes whole, and the decoder does not keep the scratch it needed for
// the rest of the stream; a small one is kept for the next chunk.
func TestChunkFastKeepsNoLargeScratch(t *testing.T) {
	var fast chunkFast
	long := strings.Repeat(`a\n`, 200<<10)
	c, ok := fast.decode([]byte(`{"choices":[{"index":0,"delta":{"content":"` + long + `"}}]}`))
	if !ok || len(c.Choices) != 1 || len(c.Choices[0].Delta.Content) != 400<<10 {
		t.Fatalf("the long chunk decoded to %d choices, ok %v", len(c.Choices), ok)
	}
	if cap(fast.scratch) > maxKeptScratch {
		t.Fatalf("the decoder keeps %d bytes of scratch after a long string, at most %d", cap(fast.scratch), maxKeptScratch)
	}
	if _, ok := fast.decode([]byte(`{"choices":[{"index":0,"delta":{"content":"b\n"}}]}`)); !ok || cap(fast.scratch) == 0 {
		t.Fatalf("a short escaped string: ok %v, scratch kept %d", ok, cap(fast.scratch))
	}
}

// TestChunkFastKeepsNoLongStrings: a chunk with a huge model name decodes
// whole, and the decoder does not keep that name for the chunks after it
// (which carry none), as it keeps the short ones they repeat.
func TestChunkFastKeepsNoLongStrings(t *testing.T) {
	var fast chunkFast
	big := strings.Repeat("m", 8<<20)
	c, ok := fast.decode([]byte(`{"id":"chatcmpl-1","model":"` + big + `","choices":[]}`))
	if !ok || c.Model != big || c.ID != "chatcmpl-1" {
		t.Fatalf("the chunk decoded to a model of %d bytes, ok %v", len(c.Model), ok)
	}
	for range 3 {
		if _, ok := fast.decode([]byte(`{"choices":[{"index":0,"delta":{"content":"x"}}]}`)); !ok {
			t.Fatal("a chunk of text was declined")
		}
	}
	if len(fast.model) > maxKeptString || fast.id != "chatcmpl-1" {
		t.Fatalf("the decoder keeps a model of %d bytes (at most %d) and the id %q", len(fast.model), maxKeptString, fast.id)
	}
}
