package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestUsageNotIntegersDoesNotFailTheReply: a usage chunk after
// finish_reason "stop" whose counts are floats, numeric strings or
// unreadable ends the reply properly: the counts that can be read are
// read, the rest are 0, and the text is whole.
func TestUsageNotIntegersDoesNotFailTheReply(t *testing.T) {
	for _, tc := range []struct {
		name, usage             string
		prompt, completion, all int
		reasoning               int
	}{
		{"float", `{"prompt_tokens": 12.0, "completion_tokens": 3.0, "total_tokens": 15.0}`, 12, 3, 15, 0},
		{"string", `{"prompt_tokens": "12", "completion_tokens": "3", "total_tokens": " 15 "}`, 12, 3, 15, 0},
		{"unreadable", `{"prompt_tokens": "many", "completion_tokens": [3], "total_tokens": {"n": 1}}`, 0, 0, 0, 0},
		{"negative and huge", `{"prompt_tokens": -4, "completion_tokens": 1e300, "total_tokens": 7}`, 0, 0, 7, 0},
		{"details as strings", `{"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3, "completion_tokens_details": {"reasoning_tokens": "2.0"}}`, 1, 2, 3, 2},
		{"details not an object", `{"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3, "completion_tokens_details": "none"}`, 1, 2, 3, 0},
		{"usage not an object", `"lots"`, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"four\"}}]}\n\n")
				io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
				io.WriteString(w, "data: {\"choices\":[],\"usage\":"+tc.usage+"}\n\n")
				io.WriteString(w, "data: [DONE]\n\n")
			}))
			defer srv.Close()
			c, err := NewClient(ClientConfig{BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			s, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("2+2?")})
			if err != nil {
				t.Fatal(err)
			}
			r := drain(t, s)
			if r.err != io.EOF || r.text != "four" || r.finish != "stop" {
				t.Fatalf("text %q, finish %q, err %v; want the whole reply and a proper end", r.text, r.finish, r.err)
			}
			if r.usage == nil {
				t.Fatal("the usage chunk was not delivered")
			}
			if r.usage.PromptTokens != tc.prompt || r.usage.CompletionTokens != tc.completion || r.usage.TotalTokens != tc.all || r.usage.ReasoningTokens() != tc.reasoning {
				t.Fatalf("usage %+v (reasoning %d), want %d/%d/%d (%d)", *r.usage, r.usage.ReasoningTokens(), tc.prompt, tc.completion, tc.all, tc.reasoning)
			}
		})
	}
}

// TestUsageNotIntegersInAJSONReply: the same holds for a whole JSON reply.
func TestUsageNotIntegersInAJSONReply(t *testing.T) {
	var reply ChatResponse
	body := `{"choices":[{"index":0,"message":{"role":"assistant","content":"four"},"finish_reason":"stop"}],"usage":{"prompt_tokens":"12","completion_tokens":3.0,"total_tokens":null}}`
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		t.Fatalf("a reply with odd usage: %v", err)
	}
	if reply.Usage == nil || reply.Usage.PromptTokens != 12 || reply.Usage.CompletionTokens != 3 || reply.Usage.TotalTokens != 0 {
		t.Fatalf("usage %+v", reply.Usage)
	}
}

// TestUsageRoundTrips: what parley writes (the fake gateway, exports)
// reads back the same.
func TestUsageRoundTrips(t *testing.T) {
	in := Usage{PromptTokens: 5, CompletionTokens: 7, TotalTokens: 12, CompletionTokensDetails: &TokensDetails{ReasoningTokens: 4}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Usage
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.PromptTokens != 5 || out.CompletionTokens != 7 || out.TotalTokens != 12 || out.ReasoningTokens() != 4 {
		t.Fatalf("round trip %s -> %+v", b, out)
	}
}
