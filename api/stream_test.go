package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

const quirkText = "Héllo, wörld! 世界 🎉 — a reply long enough to be cut into many deltas."

// TestStreamQuirks assembles the same reply through every framing real
// gateways use, each also written in pieces of 1, 3 and 7 bytes (cutting
// CRLF pairs, "data:" and multi-byte characters).
func TestStreamQuirks(t *testing.T) {
	cases := []struct {
		name   string
		q      apitest.Quirks
		model  string
		finish string // expected finish reason ("" = none sent)
		usage  bool
	}{
		{name: "spec", finish: "stop"},
		{name: "no role chunk", q: apitest.Quirks{NoRoleChunk: true}, finish: "stop"},
		{name: "role with first text", q: apitest.Quirks{RoleWithFirstText: true}, finish: "stop"},
		{name: "finish on last content", q: apitest.Quirks{FinishOnLastContent: true}, finish: "stop"},
		{name: "empty finish reason", q: apitest.Quirks{EmptyFinishReason: true}, finish: "stop"},
		{name: "no finish reason before done", q: apitest.Quirks{NoFinishReason: true}},
		{name: "prompt filter first", q: apitest.Quirks{PromptFilterFirst: true}, finish: "stop"},
		{name: "choice without delta", q: apitest.Quirks{ChoiceWithoutDelta: true}, finish: "stop"},
		{name: "usage chunk unasked", q: apitest.Quirks{UsageChunkEmptyChoices: true}, finish: "stop", usage: true},
		{name: "usage asked", model: "gpt-4o", finish: "stop", usage: true},
		{name: "usage in final chunk", model: "gpt-4o", q: apitest.Quirks{UsageInFinalChunk: true}, finish: "stop", usage: true},
		{name: "no done after finish", q: apitest.Quirks{NoDone: true}, finish: "stop"},
		{name: "300 comments first", q: apitest.Quirks{CommentsBefore: 300, CommentText: "OPENROUTER PROCESSING"}, finish: "stop"},
		{name: "comment every event", q: apitest.Quirks{CommentEvery: 1}, finish: "stop"},
		{name: "crlf", q: apitest.Quirks{LineEnding: "\r\n"}, finish: "stop"},
		{name: "bare cr", q: apitest.Quirks{LineEnding: "\r"}, finish: "stop"},
		{name: "bom", q: apitest.Quirks{BOM: true}, finish: "stop"},
		{name: "data without space", q: apitest.Quirks{NoSpaceAfterData: true}, finish: "stop"},
		{name: "multi-line data", q: apitest.Quirks{MultiLineData: true}, finish: "stop"},
		{name: "event id retry lines", q: apitest.Quirks{EventIDRetryLines: true}, finish: "stop"},
		{name: "everything at once", model: "gpt-4o", usage: true, q: apitest.Quirks{
			NoRoleChunk: true, FinishOnLastContent: true, EmptyFinishReason: true, PromptFilterFirst: true,
			ChoiceWithoutDelta: true, CommentsBefore: 400, CommentEvery: 2, LineEnding: "\r", BOM: true,
			NoSpaceAfterData: true, MultiLineData: true, EventIDRetryLines: true, NoDone: true,
		}, finish: "stop"},
	}
	for _, tc := range cases {
		for _, ws := range []int{0, 1, 3, 7} {
			t.Run(fmt.Sprintf("%s/write%d", tc.name, ws), func(t *testing.T) {
				gw := apitest.New(t)
				gw.Enqueue(apitest.Reply{Text: quirkText, DeltaRunes: 3, Quirks: tc.q, WriteSize: ws})
				c := newTestClient(t, gw)
				model := tc.model
				req := ChatRequest{Model: "llama3", Messages: userMsg("hi")}
				if model != "" {
					req.Model = model
					req.StreamOptions = &StreamOptions{IncludeUsage: true}
				}
				s, err := c.ChatStream(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				r := drain(t, s)
				if r.err != io.EOF {
					t.Fatalf("stream ended with %v, want io.EOF", r.err)
				}
				if r.text != quirkText {
					t.Fatalf("text %q, want %q", r.text, quirkText)
				}
				if r.finish != tc.finish || (tc.finish != "" && r.finishN != 1) {
					t.Fatalf("finish %q (%d times), want %q once", r.finish, r.finishN, tc.finish)
				}
				if tc.usage != (r.usage != nil) {
					t.Fatalf("usage %+v, want present=%v", r.usage, tc.usage)
				}
				if r.usage != nil && (r.usage.TotalTokens == 0 || r.usage.TotalTokens != r.usage.PromptTokens+r.usage.CompletionTokens) {
					t.Fatalf("usage not decoded: %+v", r.usage)
				}
				if !tc.q.NoRoleChunk && r.role != RoleAssistant {
					t.Fatalf("role %q, want assistant", r.role)
				}
				if n := len(gw.Requests()); n != 1 {
					t.Fatalf("%d requests, want 1", n)
				}
			})
		}
	}
}

// TestStreamHugeDelta carries a 1.5 MiB delta in one data line, written in
// odd-sized pieces.
func TestStreamHugeDelta(t *testing.T) {
	big := strings.Repeat("0123456789abcdé", 100<<10) // ~1.5 MiB
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Deltas: []string{"a", big, "z"}, WriteSize: 4093})
	c := newTestClient(t, gw)
	r := drain(t, startStream(t, c, "llama3"))
	if r.err != io.EOF || r.text != "a"+big+"z" || len(r.deltas) != 3 {
		t.Fatalf("err %v, %d deltas, %d bytes of text", r.err, len(r.deltas), len(r.text))
	}
}

func TestStreamNoContentType(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "plain", NoContentType: true})
	c := newTestClient(t, gw)
	r := drain(t, startStream(t, c, "llama3"))
	if r.err != io.EOF || r.text != "plain" || r.finish != "stop" {
		t.Fatalf("got %+v", r)
	}
}

func TestStreamFinishReasonsPassThrough(t *testing.T) {
	for _, reason := range []string{"length", "content_filter", "tool_calls"} {
		gw := apitest.New(t)
		gw.Enqueue(apitest.Reply{Text: "cut short", FinishReason: reason})
		r := drain(t, startStream(t, newTestClient(t, gw), "llama3"))
		if r.err != io.EOF || r.finish != reason || r.text != "cut short" {
			t.Fatalf("%s: got %+v", reason, r)
		}
	}
}

// TestStreamEndedEarly: no [DONE] and no finish reason is an error, and the
// text before it was delivered. A stream that already gave text is never
// retried.
func TestStreamEndedEarly(t *testing.T) {
	for name, rep := range map[string]apitest.Reply{
		"clean end":  {Text: "partial text", DeltaRunes: 4, Quirks: apitest.Quirks{NoFinishReason: true, NoDone: true}},
		"cut":        {Text: "partial text here", DeltaRunes: 4, CutAfterDeltas: 2},
		"cut in mid": {RawSSE: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"part\"}}]}\n\ndata: {\"choices\":[{\"ind"},
	} {
		t.Run(name, func(t *testing.T) {
			gw := apitest.New(t)
			gw.Enqueue(rep)
			r := drain(t, startStream(t, newTestClient(t, gw), "llama3"))
			if !errors.Is(r.err, ErrStreamEndedEarly) {
				t.Fatalf("err %v, want ErrStreamEndedEarly", r.err)
			}
			if r.text == "" || !strings.HasPrefix(rep.Text+"part", r.text) && !strings.HasPrefix(rep.Text, r.text) {
				t.Fatalf("text so far %q not delivered", r.text)
			}
			if n := len(gw.Requests()); n != 1 {
				t.Fatalf("%d requests: a stream that delivered text must not be retried", n)
			}
			if !strings.Contains(r.err.Error(), "ended early") && !strings.Contains(r.err.Error(), "connection broke") {
				t.Fatalf("unclear message: %v", r.err)
			}
		})
	}
}

// TestStreamRetryBeforeText: a stream that fails before any text is sent
// again within the retry budget, and the caller sees one clean reply.
func TestStreamRetryBeforeText(t *testing.T) {
	roleOnly := "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
	gw := apitest.New(t)
	gw.Enqueue(
		apitest.Reply{RawSSE: roleOnly}, // ends early, nothing said
		apitest.Reply{ErrorShape: apitest.ErrorShapeOpenRouter, ErrorCode: "502", ErrorMessage: "upstream overloaded"}, // retryable error event
		apitest.Reply{Text: "finally"},
	)
	c := newTestClient(t, gw)
	r := drain(t, startStream(t, c, "llama3"))
	if r.err != io.EOF || r.text != "finally" || r.role != RoleAssistant {
		t.Fatalf("got %+v", r)
	}
	if n := len(gw.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}

	// The budget is shared with the retries of the request itself.
	gw.Enqueue(apitest.Reply{Status: 503}, apitest.Reply{RawSSE: roleOnly}, apitest.Reply{RawSSE: roleOnly}, apitest.Reply{Text: "never"})
	r = drain(t, startStream(t, c, "llama3"))
	if !errors.Is(r.err, ErrStreamEndedEarly) {
		t.Fatalf("err %v, want ErrStreamEndedEarly after the budget", r.err)
	}
	if n := len(gw.Requests()); n != 6 {
		t.Fatalf("%d requests in all, want 3 + 3", n)
	}
	c.CloseIdleConnections()
	if leaked := leakedGoroutines(); len(leaked) > 0 {
		t.Fatalf("%d goroutines left behind:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
	}
}

// TestStreamHTMLPage: a web page instead of an event stream (a captive
// portal, a wrong base URL) is said so, not reported as an early end.
func TestStreamHTMLPage(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Status: 200, Body: "<html><head><title>Hotel Wi-Fi login</title></head></html>", Header: map[string]string{"Content-Type": "text/html; charset=utf-8"}})
	r := drain(t, startStream(t, newTestClient(t, gw), "llama3"))
	if r.err == nil || !strings.Contains(r.err.Error(), "Hotel Wi-Fi login") || !strings.Contains(r.err.Error(), "base URL") {
		t.Fatalf("err %v", r.err)
	}
}

// TestStreamErrorEvents: each gateway's in-stream error shape becomes an
// *APIError with the gateway's message, after the text before it.
func TestStreamErrorEvents(t *testing.T) {
	for _, shape := range []string{apitest.ErrorShapeOpenAI, apitest.ErrorShapeOpenRouter, apitest.ErrorShapeVLLM} {
		t.Run(shape, func(t *testing.T) {
			gw := apitest.New(t)
			gw.Enqueue(apitest.Reply{Text: "some words first", DeltaRunes: 4, ErrorAfterDeltas: 2, ErrorShape: shape,
				ErrorMessage: "The model crashed (" + shape + ")"})
			r := drain(t, startStream(t, newTestClient(t, gw), "llama3"))
			var apiErr *APIError
			if !errors.As(r.err, &apiErr) {
				t.Fatalf("err %T %v, want *APIError", r.err, r.err)
			}
			if !apiErr.InStream || apiErr.Message != "The model crashed ("+shape+")" {
				t.Fatalf("error %+v", apiErr)
			}
			if !strings.Contains(apiErr.Error(), "The model crashed") {
				t.Fatalf("message missing from %q", apiErr.Error())
			}
			if r.text != "some wor" {
				t.Fatalf("text before the error %q, want %q", r.text, "some wor")
			}
			if n := len(gw.Requests()); n != 1 {
				t.Fatalf("%d requests: no retry after text", n)
			}
		})
	}
	// An "event: error" with a body in another shape, after some text.
	gw0 := apitest.New(t)
	gw0.Enqueue(apitest.Reply{RawSSE: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n" +
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"})
	r0 := drain(t, startStream(t, newTestClient(t, gw0), "llama3"))
	var apiErr0 *APIError
	if !errors.As(r0.err, &apiErr0) || apiErr0.Message != "Overloaded" || apiErr0.Type != "overloaded_error" || r0.text != "Hi" {
		t.Fatalf("event: error gave %v after %q", r0.err, r0.text)
	}

	// A non-retryable error before any text is not retried either.
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{ErrorShape: apitest.ErrorShapeVLLM, ErrorCode: "400", ErrorMessage: "bad prompt"})
	r := drain(t, startStream(t, newTestClient(t, gw), "llama3"))
	var apiErr *APIError
	if !errors.As(r.err, &apiErr) || apiErr.Message != "bad prompt" || len(gw.Requests()) != 1 {
		t.Fatalf("err %v after %d requests", r.err, len(gw.Requests()))
	}
}

// TestStreamIdleTimeout: a stream that goes silent fails with a timeout
// naming the setting, soon after the limit.
func TestStreamIdleTimeout(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "first words then silence", DeltaRunes: 5, StallAfterDeltas: 2})
	c := newTestClient(t, gw, func(cfg *ClientConfig) { cfg.Timeouts.StreamIdle = 150 * time.Millisecond })
	s := startStream(t, c, "llama3")
	start := time.Now()
	r := drain(t, s)
	took := time.Since(start)
	var te *TimeoutError
	if !errors.As(r.err, &te) || te.Phase != PhaseStreamIdle {
		t.Fatalf("err %v, want a stream idle timeout", r.err)
	}
	if r.text != "first word" {
		t.Fatalf("text so far %q", r.text)
	}
	if took < 150*time.Millisecond || took > 5*time.Second { // the stall lasts until the client goes away
		t.Fatalf("timed out after %v with a 150ms limit", took)
	}
	if msg := r.err.Error(); !strings.Contains(msg, "idle_timeout") || !strings.Contains(msg, "150ms") {
		t.Fatalf("message does not say which setting: %q", msg)
	}
}

// TestStreamCommentsKeepAlive: comment lines alone keep a slow stream alive
// past the idle limit.
func TestStreamCommentsKeepAlive(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		for range 12 {
			fmt.Fprint(w, ": keep-alive\n\n")
			f.Flush()
			time.Sleep(40 * time.Millisecond)
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"awake\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	c, err := NewClient(ClientConfig{BaseURL: srv.URL, Timeouts: Timeouts{StreamIdle: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	r := drain(t, startStream(t, c, "m"))
	if r.err != io.EOF || r.text != "awake" {
		t.Fatalf("a stream with only comments for 480ms died with a 300ms idle limit: %+v", r)
	}
}

// TestStreamCancel: cancelling the caller's context makes a blocked Recv
// return at once, and nothing is left running.
func TestStreamCancel(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	for range 5 {
		gw.Enqueue(apitest.Reply{Text: "hello there", DeltaRunes: 5, StallAfterDeltas: 1})
		ctx, cancel := context.WithCancel(context.Background())
		s, err := c.ChatStream(ctx, ChatRequest{Model: "llama3", Messages: userMsg("hi")})
		if err != nil {
			t.Fatal(err)
		}
		for {
			ev, err := s.Recv()
			if err != nil {
				t.Fatal(err)
			}
			if ev.Text != "" {
				break
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := s.Recv() // blocks: the fake is stalling
			done <- err
		}()
		time.Sleep(20 * time.Millisecond)
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Recv after cancel returned %v", err)
			}
			// Well under any timer parley runs (the idle limit is 120s);
			// loose enough for a loaded CI machine under -race.
			if took := time.Since(start); took > time.Second {
				t.Fatalf("Recv took %v to notice the cancel", took)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("Recv did not return after cancel")
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal("second Close:", err)
		}
	}
	c.CloseIdleConnections()
	if leaked := leakedGoroutines(); len(leaked) > 0 {
		t.Fatalf("%d goroutines left behind:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
	}
}

// TestStreamCloseWhileBlocked: Close from another goroutine ends a blocked
// Recv with ErrStreamClosed.
func TestStreamCloseWhileBlocked(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "hello", DeltaRunes: 2, StallAfterDeltas: 1})
	c := newTestClient(t, gw)
	s := startStream(t, c, "llama3")
	done := make(chan error, 1)
	go func() {
		for {
			if _, err := s.Recv(); err != nil {
				done <- err
				return
			}
		}
	}()
	time.Sleep(30 * time.Millisecond)
	s.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrStreamClosed) {
			t.Fatalf("Recv after Close returned %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Recv did not return after Close")
	}
	c.CloseIdleConnections()
	if leaked := leakedGoroutines(); len(leaked) > 0 {
		t.Fatalf("%d goroutines left behind:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
	}
}

// TestStreamJSONReply: a gateway that ignores "stream": true and answers
// with one JSON reply still gives the text.
func TestStreamJSONReply(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"whole"},"finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`)
	}))
	defer srv.Close()
	c, err := NewClient(ClientConfig{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	r := drain(t, startStream(t, c, "m"))
	if r.err != io.EOF || r.text != "whole" || r.finish != "length" || r.usage == nil || r.usage.TotalTokens != 3 {
		t.Fatalf("got %+v", r)
	}
}

func TestStreamMalformedChunk(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{RawSSE: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"}}]}\n\ndata: {not json}\n\ndata: [DONE]\n\n"})
	r := drain(t, startStream(t, newTestClient(t, gw), "llama3"))
	if r.err == nil || r.err == io.EOF || !strings.Contains(r.err.Error(), "not valid JSON") || r.text != "ok" {
		t.Fatalf("got %+v", r)
	}
}
