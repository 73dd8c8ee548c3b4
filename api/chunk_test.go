package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkSamples are chunks as real gateways send them, plus oddities (case
// folded keys, duplicates, escapes, broken JSON). Samples 10 to 12 are the
// error shapes.
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

// TestChunkDecode: every sample decodes as encoding/json reads it into a
// ChatChunk, and the three error shapes are recognised as errors, not as
// empty chunks.
func TestChunkDecode(t *testing.T) {
	errorShapes := map[string]bool{}
	for _, s := range chunkSamples[10:13] {
		errorShapes[s] = true
	}
	var d chunkDecoder
	decoded := 0
	for _, s := range chunkSamples {
		c, isErr, err := d.decode([]byte(s))
		if errorShapes[s] {
			if err != nil || !isErr {
				t.Fatalf("error shape not recognised: %s (%v)", s, err)
			}
			continue
		}
		if isErr {
			t.Fatalf("a chunk taken for an error: %s", s)
		}
		var want ChatChunk
		jerr := json.Unmarshal([]byte(s), &want)
		if (err != nil) != (jerr != nil) {
			t.Fatalf("%s: decoder error %v, encoding/json error %v", s, err, jerr)
		}
		if err != nil {
			continue
		}
		decoded++
		if !reflect.DeepEqual(*c, want) {
			t.Fatalf("%s:\n got %#v\nwant %#v", s, *c, want)
		}
	}
	if decoded < 15 {
		t.Fatalf("only %d samples decoded", decoded)
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
