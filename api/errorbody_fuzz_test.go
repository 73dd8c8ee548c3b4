package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseJSONError feeds arbitrary bytes, and the gateways' error shapes
// built around arbitrary texts, to the JSON error reader. It must not
// panic; what it finds must be valid UTF-8 and must say something (ok
// means a message, a code or a type); parseErrorBody must agree with it on
// JSON; it unwraps one array, not more (see below); and the texts put into OpenAI's, vLLM's, Google's and the plain
// {"error":"..."} shape must come back as they went in.
func FuzzParseJSONError(f *testing.F) {
	for _, s := range []string{
		`{"error":{"message":"Invalid model","type":"invalid_request_error","param":"model","code":"model_not_found"}}`,
		`{"error":{"message":"Rate limited","code":429}}`,
		`{"error":"model is loading"}`,
		`{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}`,
		`{"error":{"code":502,"message":"Provider returned error","metadata":{"raw":"upstream timed out"}}}`,
		`[{"error":{"code":400,"message":"API key not valid","status":"INVALID_ARGUMENT"}}]`,
		`{"detail":[{"loc":["body","model"],"msg":"field required"},{"msg":"x"}]}`,
		`{"detail":"Not Found","status":503}`,
		`[[[{"error":"deep"}]]]`,
		`{"foo":1}`,
		`[]`,
	} {
		f.Add([]byte(s), "a message", "a_code", "a_type")
	}
	f.Add([]byte(`{"error":{"message":"\ud800x","metadata":{"raw":{"nested":true}}}}`), "", "", "")
	f.Add([]byte(`{"message":"\u00e9\u0000","code":-1.5e3,"type":true}`), "\x00\xff", "0", "é")
	f.Fuzz(func(t *testing.T, body []byte, msg, code, typ string) {
		body = bytes.TrimSpace(body)
		eb, ok := parseJSONError(body)
		checkErrorBody(t, body, eb, ok)
		if ok && len(body) > 0 && (body[0] == '{' || body[0] == '[') {
			if got, _ := parseErrorBody(body, "application/json"); got != eb {
				t.Fatalf("parseErrorBody(%q) = %+v; parseJSONError found %+v", body, got, eb)
			}
		}
		// Google's shape is one array around the error object; no gateway
		// nests deeper. Unwrapping every level parsed the whole body again
		// at each (2.3 s of CPU for 10,000 levels in 20 KB), so an array in
		// an array is no error shape.
		if deep := []byte("[[" + string(body) + "]]"); json.Valid(deep) {
			if eb, ok := parseJSONError(deep); ok {
				t.Fatalf("parseJSONError(%q) = %+v; an array in an array is no error shape", deep, eb)
			}
		}

		// The shapes with known texts. encoding/json makes invalid UTF-8
		// valid on the way out, so compare with what a decoder reads back.
		m, c, ty := roundTrip(msg), roundTrip(code), roundTrip(typ)
		want := errorBody{Message: m, Code: c, Type: ty}
		anything := m != "" || c != "" || ty != ""
		openai := mustJSON(t, map[string]any{"error": map[string]any{"message": msg, "code": code, "type": typ}})
		vllm := mustJSON(t, map[string]any{"object": "error", "message": msg, "code": code, "type": typ})
		for _, shape := range [][]byte{openai, vllm, []byte("[" + string(openai) + "]")} {
			got, ok := parseJSONError(shape)
			if ok != anything || (ok && got != want) {
				t.Fatalf("%s: got %+v, %v; want %+v, %v", shape, got, ok, want, anything)
			}
		}
		plain := mustJSON(t, map[string]any{"error": msg})
		if got, ok := parseJSONError(plain); ok != (m != "") || got.Message != m {
			t.Fatalf("%s: got %+v, %v; want message %q", plain, got, ok, m)
		}
	})
}

// checkErrorBody holds for every result of parseJSONError.
func checkErrorBody(t *testing.T, body []byte, eb errorBody, ok bool) {
	t.Helper()
	if ok != (eb.Message != "" || eb.Code != "" || eb.Type != "") {
		t.Fatalf("parseJSONError(%q) = %+v, ok %v: ok must mean a message, a code or a type", body, eb, ok)
	}
	if !ok && eb != (errorBody{}) {
		t.Fatalf("parseJSONError(%q) = %+v with ok false", body, eb)
	}
	for _, s := range []string{eb.Message, eb.Code, eb.Type, eb.Param} {
		if !utf8.ValidString(s) {
			t.Fatalf("parseJSONError(%q) = %+v: %q is not valid UTF-8", body, eb, s)
		}
	}
	if ok && !json.Valid(body) {
		t.Fatalf("parseJSONError took %q, which is not JSON", body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip is s as a JSON decoder reads it back after encoding/json wrote it.
func roundTrip(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return strings.Clone(out)
}
