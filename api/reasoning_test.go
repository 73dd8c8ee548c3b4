package api

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"parley/api/apitest"
)

func userHi() []Message { return []Message{TextMessage(RoleUser, "hi")} }

// However the gateway sends reasoning, streamed or not, it comes apart
// from the answer, before it, with its token count.
func TestReasoningThreeWays(t *testing.T) {
	const reasoning = "The user greets me. I should greet back, briefly."
	const answer = "Hello! How can I help?"
	for _, as := range []string{apitest.ReasoningContent, apitest.ReasoningField, apitest.ReasoningThink} {
		gw := apitest.New(t)
		c := newTestClient(t, gw)
		reply := apitest.Reply{Text: answer, Reasoning: reasoning, ReasoningAs: as, DeltaRunes: 3}
		gw.Enqueue(reply)
		s, err := c.ChatStream(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi(), StreamOptions: &StreamOptions{IncludeUsage: true}})
		if err != nil {
			t.Fatal(err)
		}
		r := drain(t, s)
		if r.err != io.EOF || r.reasoning != reasoning || r.text != answer || r.textFirst {
			t.Fatalf("%s streamed: err %v, reasoning %q, text %q, text first %v", as, r.err, r.reasoning, r.text, r.textFirst)
		}
		wantTokens := 17 // the reasoning's deltas of 3 runes
		if as == apitest.ReasoningThink {
			wantTokens = 0 // in the content: the gateway cannot tell
		}
		if got := r.usage.ReasoningTokens(); got != wantTokens {
			t.Fatalf("%s: reasoning tokens %d, want %d", as, got, wantTokens)
		}

		gw.Enqueue(reply)
		full, err := c.Chat(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
		if err != nil || full.Reasoning() != reasoning || full.Text() != answer {
			t.Fatalf("%s whole: err %v, reasoning %q, text %q", as, err, full.Reasoning(), full.Text())
		}
		if got := full.Usage.ReasoningTokens(); got != wantTokens {
			t.Fatalf("%s whole: reasoning tokens %d", as, got)
		}
	}
}

// The tags may be cut anywhere between chunks; a <think> later in the
// reply is text; an unclosed one at the end is reasoning.
func TestThinkTagsAcrossChunks(t *testing.T) {
	for _, tt := range []struct {
		deltas          []string
		reasoning, text string
	}{
		{[]string{"\n<th", "ink>", "first, ", "think</", "thi", "nk>", "\n\nthe answer"}, "first, think", "the answer"},
		{[]string{"<", "t", "h", "i", "n", "k", ">x<", "/", "think>y"}, "x", "y"},
		{[]string{"Sure: ", "<think>", "is text here", "</think>"}, "", "Sure: <think>is text here</think>"},
		{[]string{"<think>cut off mid-thought", " and never closed"}, "cut off mid-thought and never closed", ""},
		{[]string{"<thi"}, "", "<thi"},
	} {
		gw := apitest.New(t)
		c := newTestClient(t, gw)
		gw.Enqueue(apitest.Reply{Deltas: tt.deltas})
		s, err := c.ChatStream(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
		if err != nil {
			t.Fatal(err)
		}
		r := drain(t, s)
		if r.err != io.EOF || r.reasoning != tt.reasoning || r.text != tt.text {
			t.Fatalf("%q: err %v, reasoning %q, text %q", tt.deltas, r.err, r.reasoning, r.text)
		}
	}
}

// A gateway that answers a streaming request with one JSON reply gives its
// reasoning apart too.
func TestReasoningInJSONReplyToStream(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	gw.Enqueue(apitest.Reply{
		Header: map[string]string{"Content-Type": "application/json"},
		Status: 200,
		Body:   `{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>inline</think>Answer","reasoning_content":"from the field"},"finish_reason":"stop"}]}`,
	})
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
	if err != nil {
		t.Fatal(err)
	}
	r := drain(t, s)
	if r.err != io.EOF || r.reasoning != "from the field\n\ninline" || r.text != "Answer" {
		t.Fatalf("err %v, reasoning %q, text %q", r.err, r.reasoning, r.text)
	}
}

// The key is masked in the reasoning as in the answer.
func TestReasoningMasksTheKey(t *testing.T) {
	const key = "sk-proj-0123456789abcdefghijklmnop"
	gw := apitest.New(t, apitest.WithAPIKey(key))
	c := newTestClient(t, gw, func(cfg *ClientConfig) { cfg.APIKey = key })
	gw.Enqueue(apitest.Reply{Reasoning: "the key is " + key + ", do not repeat it", Text: "Done.", DeltaRunes: 5})
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
	if err != nil {
		t.Fatal(err)
	}
	r := drain(t, s)
	if strings.Contains(r.reasoning, key) || !strings.Contains(r.reasoning, "the key is ") || !strings.Contains(r.reasoning, "do not repeat it") {
		t.Fatalf("reasoning %q", r.reasoning)
	}
	gw.Enqueue(apitest.Reply{Reasoning: "again " + key, Text: "Done."})
	full, err := c.Chat(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
	if err != nil || strings.Contains(full.Reasoning(), key) {
		t.Fatalf("whole reply: %v, reasoning %q", err, full.Reasoning())
	}
}

// max_reply_bytes counts the reasoning with the answer.
func TestReplyCapCountsReasoning(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw, func(cfg *ClientConfig) { cfg.MaxReplyBytes = 1000 })
	long := strings.Repeat("thinking hard ", 100) // 1400 bytes
	gw.Enqueue(apitest.Reply{Reasoning: long, Text: "answer", DeltaRunes: 50})
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
	if err != nil {
		t.Fatal(err)
	}
	r := drain(t, s)
	var tooLarge *ReplyTooLargeError
	if !errors.As(r.err, &tooLarge) || r.reasoning != long[:1000] || r.text != "" {
		t.Fatalf("err %v, %d bytes of reasoning, text %q", r.err, len(r.reasoning), r.text)
	}
	gw.Enqueue(apitest.Reply{Reasoning: strings.Repeat("r", 600), Text: strings.Repeat("a", 600)})
	full, err := c.Chat(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
	if !errors.As(err, &tooLarge) || len(full.Reasoning()) != 600 || len(full.Text()) != 400 {
		t.Fatalf("whole: err %v, reasoning %d, text %d bytes", err, len(full.Reasoning()), len(full.Text()))
	}
}

// Once reasoning was shown, a failure is final: a retry would think again
// from the start and show it twice.
func TestNoRetryAfterReasoning(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	gw.Enqueue(apitest.Reply{Reasoning: "partial thought", Text: "x", ErrorShape: apitest.ErrorShapeOpenRouter, ErrorCode: "502"})
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "gpt-4o", Messages: userHi()})
	if err != nil {
		t.Fatal(err)
	}
	r := drain(t, s)
	var apiErr *APIError
	if !errors.As(r.err, &apiErr) || r.reasoning != "partial thought" || gw.RequestCount() != 1 {
		t.Fatalf("err %v, reasoning %q, %d requests", r.err, r.reasoning, gw.RequestCount())
	}
}
