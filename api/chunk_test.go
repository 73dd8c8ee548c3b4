package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkSamples are chunks as real gateways send them, plus oddities the fast
// path must hand to encoding/json.
var chunkSamples = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","system_fingerprint":"fp","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hé\"llo\n\u00e9\ud83c\udf89"},"finish_reason":null}]}`,
	`{"id":"x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}`,
	`{"id":"x","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":12,"total_tokens":21,"prompt_tokens_details":{"cached_tokens":0}}}`,
	`{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}`,
	`{"choices":[{"index":0,"finish_reason":""}]}`,
	`{"choices":[{"index":0,"delta":null,"finish_reason":"length"}]}`,
	`{"choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"a","tool_calls":[{"id":"t"}]}}]}`,
	`{"choices":null}`,
	` {"choices" : [ { "index" : 0 , "delta" : { "content" : "sp" } } ] } `,
	`{"id":"x","object":"chat.completion.chunk","error":{"code":502,"message":"Provider error"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`,
	`{"object":"error","message":"boom","type":"BadRequestError","param":null,"code":400}`,
	`{"error":{"message":"x","type":"server_error"}}`,
	`{"Choices":[{"index":0,"delta":{"content":"case"}}]}`,
	`{"choices":[{"INDEX":2,"delta":{"CONTENT":"case"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[{"index":0}]}`,
	`{"choices":[{"index":1.0}]}`,
	`{"choices":[{"index":"0"}]}`,
	`{"choices":[null]}`,
	`{"id":"bad` + "\xff" + `utf8"}`,
	`{"id":"ctl` + "\x01" + `"}`,
	`{"choices":[{"index":0,"delta":{"content":"x"}}]}trailing`,
	`{"a":[1,2,{"b":-0.5e+3}],"c":true,"d":false,"e":null}`,
	`{"a":01}`,
	`{"a":"\x"}`,
	`null`,
	`[]`,
	`{"usage":{"total_tokens":99999999999999999999}}`,
	`{"\u0069d":"escaped key"}`,
}

func decodeFast(data []byte) (ChatChunk, bool) {
	var f fastChunk
	var c ChatChunk
	ok := f.decode(data, &c)
	return c, ok
}

// TestChunkFastMatchesJSON: whatever the fast path accepts, it decodes
// exactly as encoding/json does; error shapes always go to the slow path.
func TestChunkFastMatchesJSON(t *testing.T) {
	fastCount := 0
	for _, s := range chunkSamples {
		checkChunkEquivalence(t, []byte(s))
		if _, ok := decodeFast([]byte(s)); ok {
			fastCount++
		}
	}
	if fastCount < 10 {
		t.Fatalf("the fast path took only %d of the samples", fastCount)
	}
	for _, s := range chunkSamples[10:13] {
		if _, ok := decodeFast([]byte(s)); ok {
			t.Fatalf("error shape went through the fast path: %s", s)
		}
		var d chunkDecoder
		if _, isErr, err := d.decode([]byte(s)); err != nil || !isErr {
			t.Fatalf("error shape not recognised: %s (%v)", s, err)
		}
	}
}

// TestChunkDecoderReuse: decoding into reused storage does not leak values
// from one chunk into the next.
func TestChunkDecoderReuse(t *testing.T) {
	var d chunkDecoder
	for _, s := range append(append([]string{}, chunkSamples...), chunkSamples...) {
		c, isErr, err := d.decode([]byte(s))
		var want ChatChunk
		jerr := json.Unmarshal([]byte(s), &want)
		if err != nil || isErr {
			if err != nil && jerr == nil {
				t.Fatalf("%s: decoder error %v but encoding/json took it", s, err)
			}
			continue
		}
		if !reflect.DeepEqual(*c, want) {
			t.Fatalf("%s:\n got %#v\nwant %#v", s, *c, want)
		}
	}
}

func checkChunkEquivalence(t *testing.T, data []byte) {
	t.Helper()
	got, ok := decodeFast(data)
	if !ok {
		return
	}
	var want ChatChunk
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("fast path accepted %q, encoding/json refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nfast %#v\njson %#v", data, got, want)
	}
	var w wireChunk
	if json.Unmarshal(data, &w) == nil && (len(w.Error) > 0 && string(w.Error) != "null" || w.Object == "error") {
		t.Fatalf("fast path took an error event: %q", data)
	}
}

// FuzzChunkDecode holds the fast path to encoding/json's result on any input.
func FuzzChunkDecode(f *testing.F) {
	for _, s := range chunkSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkChunkEquivalence(t, data)
	})
}
