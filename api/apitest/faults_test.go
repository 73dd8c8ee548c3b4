package apitest_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"parley/api/apitest"
)

func TestStreamErrorShapes(t *testing.T) {
	head := events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")))
	cases := []struct {
		name  string
		reply apitest.Reply
		want  string
	}{
		{"openai default", apitest.Reply{ErrorAfterDeltas: 1, ErrorMessage: "boom"},
			head + events(`{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`)},
		{"openai with code", apitest.Reply{ErrorAfterDeltas: 1, ErrorShape: apitest.ErrorShapeOpenAI, ErrorMessage: "slow down", ErrorType: "requests", ErrorCode: "rate_limit_exceeded"},
			head + events(`{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)},
		{"openrouter", apitest.Reply{ErrorAfterDeltas: 1, ErrorShape: apitest.ErrorShapeOpenRouter, ErrorMessage: "upstream died"},
			head + events(`{"id":"chatcmpl-apitest-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","error":{"code":502,"message":"upstream died"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`, "[DONE]")},
		{"vllm", apitest.Reply{ErrorAfterDeltas: 1, ErrorShape: apitest.ErrorShapeVLLM, ErrorMessage: "too long", ErrorCode: "400"},
			head + events(`{"object":"error","message":"too long","type":"BadRequestError","param":null,"code":400}`, "[DONE]")},
		{"vllm NoDone", apitest.Reply{ErrorAfterDeltas: 1, ErrorShape: apitest.ErrorShapeVLLM, ErrorMessage: "x", Quirks: apitest.Quirks{NoDone: true}},
			head + events(`{"object":"error","message":"x","type":"BadRequestError","param":null,"code":400}`)},
		{"shape alone: before any content", apitest.Reply{ErrorShape: apitest.ErrorShapeOpenAI, ErrorMessage: "early"},
			events(chunkOf(roleChoice), `{"error":{"message":"early","type":"server_error","param":null,"code":null}}`)},
		{"after more deltas than there are", apitest.Reply{ErrorAfterDeltas: 99, ErrorMessage: "late"},
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")), chunkOf(contentChoice("ld")),
				`{"error":{"message":"late","type":"server_error","param":null,"code":null}}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gw := newGW(t)
			c.reply.Text, c.reply.DeltaRunes = helloText, 5
			gw.Enqueue(c.reply)
			r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
			if r.status != 200 || r.err != nil {
				t.Fatalf("status %d err %v", r.status, r.err)
			}
			if r.body != c.want {
				t.Errorf("body:\n%q\nwant:\n%q", r.body, c.want)
			}
		})
	}
}

func TestCutDropsConnectionWithoutDone(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, CutAfterDeltas: 2})
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
	if !errors.Is(r.err, io.ErrUnexpectedEOF) {
		t.Fatalf("reading a cut stream: err = %v, want unexpected EOF", r.err)
	}
	want := events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")))
	if r.body != want {
		t.Errorf("received before the cut:\n%q\nwant:\n%q", r.body, want)
	}
	// The server keeps serving after a cut.
	if r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "again", false, false)); r.status != 200 {
		t.Errorf("next request: status %d", r.status)
	}
}

func TestCutNonStreamingSendsHalfABody(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{CutAfterDeltas: 1})
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", false, false))
	if r.status != 200 || !errors.Is(r.err, io.ErrUnexpectedEOF) {
		t.Fatalf("status %d, err %v: want 200 and unexpected EOF", r.status, r.err)
	}
	if !strings.HasPrefix(r.body, `{"id":"chatcmpl-apitest-1"`) || strings.HasSuffix(r.body, "}") {
		t.Errorf("body should be the first half of the reply: %q", r.body)
	}
}

func TestDropClosesWithoutResponse(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Drop: true})
	req, _ := http.NewRequest(http.MethodPost, gw.URL()+"/chat/completions", strings.NewReader(chatJSON("gpt-4o", "x", false, false)))
	resp, err := gw.Client().Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got a response (%s), want a dropped connection", resp.Status)
	}
	if gw.RequestCount() != 1 {
		t.Errorf("RequestCount = %d, want 1 (dropped requests are logged)", gw.RequestCount())
	}
}

// openStream starts a streamed chat request and returns its body reader.
func openStream(t *testing.T, ctx context.Context, gw *apitest.Server, body string) (*bufio.Reader, func()) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, gw.URL()+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+apitest.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := gw.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return bufio.NewReader(resp.Body), func() { resp.Body.Close() }
}

// readUntil reads the event whose data contains marker, blank line included.
func readUntil(t *testing.T, br *bufio.Reader, marker string) {
	t.Helper()
	for {
		line, err := br.ReadString('\n')
		if strings.Contains(line, marker) {
			if blank, err := br.ReadString('\n'); blank != "\n" || err != nil {
				t.Fatalf("no blank line after the event: %q, %v", blank, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("stream ended before %q: %v", marker, err)
		}
	}
}

func TestStallEndsWhenClientGoesAway(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, StallAfterDeltas: 1}) // no Stall: until the client leaves
	ctx, cancel := context.WithCancel(context.Background())
	br, closeBody := openStream(t, ctx, gw, chatJSON("gpt-4o", "say hi", true, false))
	defer closeBody()
	readUntil(t, br, `"Hello"`)

	got := make(chan error, 1)
	go func() { _, err := br.ReadByte(); got <- err }()
	select {
	case err := <-got:
		t.Fatalf("a stalled stream sent more (err %v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	if gw.InFlight() != 1 {
		t.Fatalf("InFlight = %d during the stall, want 1", gw.InFlight())
	}
	cancel()
	<-got
	waitFor(t, "the handler to notice the client left", func() bool { return gw.InFlight() == 0 })
}

func TestStallForAWhileThenContinues(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, StallAfterDeltas: 2, Stall: 150 * time.Millisecond})
	start := time.Now()
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Errorf("stream took %v, want at least the 150ms stall", took)
	}
	if r.body != baseline() {
		t.Errorf("body after the stall:\n%q\nwant:\n%q", r.body, baseline())
	}
}

func TestCloseEndsAStallWithoutHanging(t *testing.T) {
	gw := apitest.NewServer()
	gw.Enqueue(apitest.Reply{StallAfterDeltas: 1, Path: "/chat/completions"})
	br, closeBody := openStream(t, context.Background(), gw, chatJSON("gpt-4o", "say hi", true, false))
	defer closeBody()
	readUntil(t, br, `"You said"`)
	done := make(chan struct{})
	go func() { gw.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("Close hung on a stalled stream")
	}
	if _, err := io.ReadAll(br); err == nil {
		t.Error("the stalled stream ended cleanly; want a dropped connection")
	}
	gw.Close() // idempotent
}

func TestDelayBeforeHeaders(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Delay: 120 * time.Millisecond})
	start := time.Now()
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "x", false, false))
	if took := time.Since(start); took < 120*time.Millisecond || r.status != 200 {
		t.Errorf("took %v status %d, want >= 120ms and 200", took, r.status)
	}

	// A client that gives up during the delay ends the handler.
	gw.Enqueue(apitest.Reply{Delay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, gw.URL()+"/chat/completions", strings.NewReader("{}"))
	if resp, err := gw.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("want a timeout")
	}
	waitFor(t, "the delayed handler to end", func() bool { return gw.InFlight() == 0 })
}

func TestIntervalPacesDeltas(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, Interval: 30 * time.Millisecond})
	start := time.Now()
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
	if took := time.Since(start); took < 90*time.Millisecond {
		t.Errorf("3 deltas at 30ms took %v", took)
	}
	if r.body != baseline() {
		t.Errorf("paced body differs:\n%q", r.body)
	}
}

// flushRecorder records every Write and Flush a handler makes.
type flushRecorder struct {
	*httptest.ResponseRecorder
	writes  [][]byte
	flushes int
}

func (f *flushRecorder) Write(p []byte) (int, error) {
	f.writes = append(f.writes, append([]byte(nil), p...))
	return f.ResponseRecorder.Write(p)
}

func (f *flushRecorder) Flush() { f.flushes++; f.ResponseRecorder.Flush() }

func TestWriteSizeCutsAtArbitraryBytes(t *testing.T) {
	gw := newGW(t)
	const n = 7
	gw.Enqueue(apitest.Reply{Deltas: []string{"日本語", "é", "ü"}, WriteSize: n, Quirks: apitest.Quirks{LineEnding: "\r\n"}})
	req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(chatJSON("gpt-4o", "x", true, false)))
	req.Header.Set("Authorization", "Bearer "+apitest.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	rec := &flushRecorder{ResponseRecorder: httptest.NewRecorder()}
	gw.Handler().ServeHTTP(rec, req)

	var whole []byte
	splitRune := false
	for i, w := range rec.writes {
		if len(w) > n || (len(w) != n && i != len(rec.writes)-1) {
			t.Fatalf("write %d has %d bytes; want pieces of exactly %d (the last may be shorter)", i, len(w), n)
		}
		if !utf8.Valid(w) {
			splitRune = true
		}
		whole = append(whole, w...)
	}
	if rec.flushes < len(rec.writes) {
		t.Errorf("%d writes but %d flushes: every piece must be flushed", len(rec.writes), rec.flushes)
	}
	if !splitRune {
		t.Error("no piece cut a multi-byte character; the test text should force one")
	}
	if !strings.Contains(string(whole), `"content":"日本語"`) || !strings.HasSuffix(string(whole), "data: [DONE]\r\n\r\n") {
		t.Errorf("reassembled body is wrong: %q", whole)
	}

	// Over real TCP the pieces reassemble to the same bytes as unsplit.
	gw2 := newGW(t)
	gw2.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, WriteSize: 1})
	if r := post(t, gw2, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false)); r.body != baseline() {
		t.Errorf("WriteSize 1 body:\n%q", r.body)
	}
}
