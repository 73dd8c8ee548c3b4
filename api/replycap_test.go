package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"parley/api/apitest"
)

// endlessReplyServer streams a chat reply that never ends, made of deltas
// of text, and counts the bytes it managed to write; done is closed when
// the client went away.
func endlessReplyServer(t *testing.T, delta string) (srv *httptest.Server, written *atomic.Int64, done chan struct{}) {
	t.Helper()
	written = new(atomic.Int64)
	done = make(chan struct{})
	b, _ := json.Marshal(delta)
	event := `data: {"choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}` + "\n\n"
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}`+"\n\n")
		for r.Context().Err() == nil {
			n, err := io.WriteString(w, event)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, written, done
}

// TestStreamReplyCap: a reply that never ends stops at the text cap: the
// text up to the cap is delivered (cut on a character boundary), Recv
// then ends with one sentence naming the cap and the setting, the
// connection is closed at once (the gateway stops being able to write),
// and the memory used stays a small multiple of the cap. The cap is 1 MiB
// here and the default's sentence is checked too.
func TestStreamReplyCap(t *testing.T) {
	const limit = 1 << 20
	delta := strings.Repeat("é", 1000) + "x" // 2001 bytes: the cap falls inside a character
	srv, written, done := endlessReplyServer(t, delta)
	c, err := NewClient(ClientConfig{BaseURL: srv.URL, MaxReplyBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	start := time.Now()
	var r streamResult
	alloc := allocated(func() {
		s, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
		if err != nil {
			t.Fatal(err)
		}
		r = drain(t, s)
	})
	took := time.Since(start)
	var tooLarge *ReplyTooLargeError
	if !errors.As(r.err, &tooLarge) || !tooLarge.Kept || tooLarge.Limit != limit {
		t.Fatalf("err %v, want a ReplyTooLargeError at %d", r.err, limit)
	}
	if got := r.err.Error(); got != "the reply is larger than 1.0 MB (max_reply_bytes); the text so far is kept" {
		t.Fatalf("message %q", got)
	}
	if len(r.text) > limit || len(r.text) < limit-3 || !strings.HasPrefix(strings.Repeat(delta, limit/len(delta)+1), r.text) {
		t.Fatalf("kept %d bytes, want the first %d bytes of the reply cut on a character", len(r.text), limit)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the gateway could still write 5 s after the cap: the connection was not closed")
	}
	// What the gateway wrote past the cap sat in socket buffers; reading
	// went no further than the cap and a buffer.
	t.Logf("cap %d bytes: took %v, allocated %d bytes, gateway wrote %d bytes", limit, took, alloc, written.Load())
	if alloc > 8*limit {
		t.Fatalf("allocated %d bytes for a %d byte cap", alloc, limit)
	}
	if d := (&ReplyTooLargeError{Limit: DefaultMaxReplyBytes, Kept: true}).Error(); d != "the reply is larger than 8.4 MB (max_reply_bytes); the text so far is kept" {
		t.Fatalf("default cap's message %q", d)
	}
}

// TestStreamReplyCapExact: a reply of exactly the cap is whole and ends
// normally; the held back text of the key mask counts too.
func TestStreamReplyCapExact(t *testing.T) {
	gw := apitest.New(t)
	text := strings.Repeat("abcd ", 400) // 2000 bytes
	gw.Enqueue(apitest.Reply{Text: text})
	c := newTestClient(t, gw, func(cfg *ClientConfig) { cfg.MaxReplyBytes = 2000 })
	if r := drain(t, startStream(t, c, "llama3")); r.err != io.EOF || r.text != text {
		t.Fatalf("err %v, %d bytes", r.err, len(r.text))
	}
	gw.Enqueue(apitest.Reply{Text: text + "!"})
	r := drain(t, startStream(t, c, "llama3"))
	if !errors.As(r.err, new(*ReplyTooLargeError)) || r.text != text || r.finish != "" {
		t.Fatalf("one byte over: err %v, %d bytes, finish %q", r.err, len(r.text), r.finish)
	}
}

// TestChatReplyCap: a non-streamed reply (Chat, and a gateway that
// answers a streaming request with JSON) is cut at the cap the same way,
// also when the JSON is larger than what is read of it; the response
// carries the text so far beside the error.
func TestChatReplyCap(t *testing.T) {
	const limit = 64 << 10
	for _, tc := range []struct {
		name string
		text string
	}{
		{"text over the cap", strings.Repeat("word ", 3*limit/5)},
		// Escaped newlines make the JSON more than twice the text: the
		// body is cut before its end.
		{"JSON over what is read", strings.Repeat("\n\"", 4*limit)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gw := apitest.New(t)
			c := newTestClient(t, gw, func(cfg *ClientConfig) { cfg.MaxReplyBytes = limit })
			gw.Enqueue(apitest.Reply{Text: tc.text})
			resp, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
			var tooLarge *ReplyTooLargeError
			if !errors.As(err, &tooLarge) || !tooLarge.Kept || resp == nil || resp.Text() != tc.text[:limit] {
				t.Fatalf("Chat: err %v, text %d bytes", err, len(resp.Text()))
			}
			// A gateway that ignores "stream": true.
			body, _ := json.Marshal(ChatResponse{Choices: []ChatChoice{{Message: TextMessage(RoleAssistant, tc.text), FinishReason: "stop"}}})
			gw.Enqueue(apitest.Reply{Status: 200, Body: string(body), Header: map[string]string{"Content-Type": "application/json"}})
			r := drain(t, startStream(t, c, "llama3"))
			if !errors.As(r.err, &tooLarge) || r.text != tc.text[:limit] {
				t.Fatalf("stream answered with JSON: err %v, text %d bytes", r.err, len(r.text))
			}
		})
	}
}

// TestPartialContent decodes the text of a JSON reply cut anywhere.
func TestPartialContent(t *testing.T) {
	full := `{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"a\"b\\c\n\u00e9\ud83d\ude00 end"}}]}`
	want := "a\"b\\c\né😀 end"
	for cut := 0; cut <= len(full); cut++ {
		got, found := partialContent([]byte(full[:cut]))
		start := strings.Index(full, `"content":"`) + len(`"content":"`)
		if cut < start {
			if found {
				t.Fatalf("cut at %d: found %q before the value", cut, got)
			}
			continue
		}
		if !found || !strings.HasPrefix(want, got) {
			t.Fatalf("cut at %d: %q (found %v), want a prefix of %q", cut, got, found, want)
		}
		if cut == len(full) && got != want {
			t.Fatalf("whole: %q", got)
		}
	}
	if _, found := partialContent([]byte(`{"choices":[{"message":{"content":[{"type":"text","text":"x"`)); found {
		t.Fatal("content as parts is not a string")
	}
}
