package api

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/apitest"
)

// noticeLog collects the retry notices of one request.
type noticeLog struct {
	mu      sync.Mutex
	notices []RetryNotice
}

func (l *noticeLog) ctx() context.Context {
	return WithRetryNotice(context.Background(), func(n RetryNotice) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.notices = append(l.notices, n)
	})
}

func (l *noticeLog) all() []RetryNotice {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]RetryNotice(nil), l.notices...)
}

// TestRetryNoticeStatuses: each retry is reported before its wait, with the
// attempt about to start, the wait the gateway asked for or the backoff,
// and the reason in parley's words; the status line reads as the chat
// shows it.
func TestRetryNoticeStatuses(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(
		apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "4"}, Body: `{"error":{"message":"\u001b]0;slow down\u0007","type":"requests"}}`},
		apitest.Reply{Status: 503},
		apitest.Reply{},
	)
	c, fc := newClockedClient(t, gw, func(c *ClientConfig) { c.Retry = RetryPolicy{Base: time.Second} })
	var log noticeLog
	if _, err := c.Chat(log.ctx(), ChatRequest{Model: "llama3", Messages: userMsg("hi")}); err != nil {
		t.Fatal(err)
	}
	got := log.all()
	if len(got) != 2 {
		t.Fatalf("%d notices, want 2: %+v", len(got), got)
	}
	first, second := got[0], got[1]
	if first.Attempt != 2 || first.Attempts != 3 || first.Wait != 4*time.Second || first.Reason != "429 rate limited" {
		t.Errorf("first notice %+v", first)
	}
	if s := first.String(); s != "429 rate limited · retry 2/3 in 4 s" {
		t.Errorf("first notice reads %q", s)
	}
	var apiErr *APIError
	if !errors.As(first.Err, &apiErr) || apiErr.StatusCode != 429 {
		t.Errorf("first notice carries %v", first.Err)
	}
	if strings.ContainsRune(first.Reason, 0x1b) || strings.Contains(first.Reason, "slow down") {
		t.Errorf("the reason quotes the gateway: %q", first.Reason)
	}
	if second.Attempt != 3 || second.Reason != "503 service unavailable" || second.Wait < 1500*time.Millisecond || second.Wait > 2*time.Second {
		t.Errorf("second notice %+v (the backoff of the second retry is 1.5-2s)", second)
	}
	waits := fc.recorded()
	if len(waits) != 2 || waits[0] != first.Wait || waits[1] != second.Wait {
		t.Errorf("waited %v, notices said %v and %v", waits, first.Wait, second.Wait)
	}
	if !first.At.Equal(time.Date(2026, 11, 23, 12, 0, 4, 0, time.UTC)) {
		t.Errorf("first retry at %v, want the clock's now + 4s", first.At)
	}
}

// TestRetryNoticeConnectionRefused: a port nobody listens on is retried
// with "connection refused" as the reason, then reported as a connection
// error naming the host.
func TestRetryNoticeConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c, err := NewClient(ClientConfig{BaseURL: "http://" + addr})
	if err != nil {
		t.Fatal(err)
	}
	fc := &fakeClock{}
	fc.install(c)
	var log noticeLog
	_, err = c.Chat(log.ctx(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	var ce *ConnectionError
	if !errors.As(err, &ce) || ce.Attempts != 3 {
		t.Fatalf("err %v", err)
	}
	got := log.all()
	if len(got) != 2 || got[0].Reason != "connection refused" || got[1].Attempt != 3 {
		t.Fatalf("notices %+v", got)
	}
	if s := got[0].String(); !strings.HasPrefix(s, "connection refused · retry 2/3 in ") || !strings.HasSuffix(s, " ms") {
		t.Fatalf("notice reads %q (the default first backoff is under a second)", s)
	}
}

// TestRetryNoticeStreamReopen: a stream that fails before any text is
// reopened, and that retry is reported too.
func TestRetryNoticeStreamReopen(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{ErrorShape: apitest.ErrorShapeOpenAI, ErrorType: "server_error", ErrorMessage: "overloaded"}, apitest.Reply{Text: "fine"})
	c := newTestClient(t, gw)
	var log noticeLog
	s, err := c.ChatStream(log.ctx(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if r := drain(t, s); r.text != "fine" || r.err != io.EOF {
		t.Fatalf("text %q, err %v", r.text, r.err)
	}
	got := log.all()
	if len(got) != 1 || got[0].Attempt != 2 || got[0].Reason != "error in the stream" {
		t.Fatalf("notices %+v", got)
	}
}

// TestRetryNoticeNone: without a callback nothing is reported and nothing
// breaks; a request that needs no retry reports nothing.
func TestRetryNoticeNone(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Status: 502}, apitest.Reply{})
	if err := chatOnce(newTestClient(t, gw)); err != nil {
		t.Fatal(err)
	}
	var log noticeLog
	if _, err := newTestClient(t, gw).Chat(log.ctx(), ChatRequest{Model: "llama3", Messages: userMsg("hi")}); err != nil || len(log.all()) != 0 {
		t.Fatalf("err %v, notices %+v", err, log.all())
	}
}

func TestWaitText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		250 * time.Millisecond:  "250 ms",
		time.Second:             "1 s",
		1499 * time.Millisecond: "1 s",
		1500 * time.Millisecond: "2 s",
		59 * time.Second:        "59 s",
	} {
		if got := waitText(d); got != want {
			t.Errorf("waitText(%v) = %q, want %q", d, got, want)
		}
	}
}
