package api

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/apitest"
)

// newTestClient points a client at the fake gateway. Its retry waits are
// recorded by a fake clock instead of being waited for.
func newTestClient(t testing.TB, gw *apitest.Server, mods ...func(*ClientConfig)) *Client {
	t.Helper()
	c, _ := newClockedClient(t, gw, mods...)
	return c
}

// newClockedClient is newTestClient that also returns its fake clock.
func newClockedClient(t testing.TB, gw *apitest.Server, mods ...func(*ClientConfig)) (*Client, *fakeClock) {
	t.Helper()
	cfg := ClientConfig{
		BaseURL: gw.URL(),
		APIKey:  apitest.DefaultAPIKey,
		Retry:   RetryPolicy{Base: time.Millisecond, Max: 5 * time.Millisecond},
	}
	for _, m := range mods {
		m(&cfg)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	fc := &fakeClock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	fc.install(c)
	return c, fc
}

// fakeClock stands in for the retry clock: it reads a fixed time that
// advances only by the waits asked of it, and records those waits.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
	// block makes every wait last until the context ends, like a wait far
	// longer than the test.
	block bool
}

func (f *fakeClock) install(c *Client) { c.clock = retryClock{now: f.now, sleep: f.sleep} }

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) sleep(ctx context.Context, d time.Duration) bool {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.t = f.t.Add(d)
	block := f.block
	f.mu.Unlock()
	if block {
		<-ctx.Done()
		return false
	}
	return ctx.Err() == nil
}

func (f *fakeClock) recorded() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// streamResult is everything Recv handed out until it returned an error.
type streamResult struct {
	text      string
	reasoning string
	// textFirst: text came before the last of the reasoning.
	textFirst bool
	deltas    []string
	role      string
	finish    string
	finishN   int // events that carried a finish reason
	usage     *Usage
	images    []ReplyImage
	events    int
	err       error // io.EOF for a proper end
}

func drain(t testing.TB, s *Stream) streamResult {
	t.Helper()
	var r streamResult
	var b, rb strings.Builder
	for i := 0; ; i++ {
		if i > 10_000_000 {
			t.Fatal("the stream never ended")
		}
		ev, err := s.Recv()
		if err != nil {
			r.err = err
			break
		}
		r.events++
		if ev == (StreamEvent{}) {
			t.Fatalf("Recv returned an empty event")
		}
		if ev.Reasoning != "" && b.Len() > 0 {
			r.textFirst = true
		}
		rb.WriteString(ev.Reasoning)
		b.WriteString(ev.Text)
		if ev.Text != "" {
			r.deltas = append(r.deltas, ev.Text)
		}
		if ev.Role != "" {
			if r.role != "" {
				t.Fatalf("role reported twice (%q then %q)", r.role, ev.Role)
			}
			r.role = ev.Role
		}
		if ev.FinishReason != "" {
			r.finish = ev.FinishReason
			r.finishN++
		}
		if ev.Usage != nil {
			r.usage = ev.Usage
		}
		if ev.Image != nil {
			r.images = append(r.images, *ev.Image)
		}
	}
	r.text = b.String()
	r.reasoning = rb.String()
	// Once ended, a stream keeps returning the same error.
	if _, err := s.Recv(); err != r.err && !errors.Is(err, r.err) {
		t.Fatalf("Recv after the end returned %v, first %v", err, r.err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close after the end: %v", err)
	}
	return r
}

func userMsg(text string) []Message { return []Message{TextMessage(RoleUser, text)} }

func startStream(t testing.TB, c *Client, model string) *Stream {
	t.Helper()
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: model, Messages: userMsg("hi")})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// leakedGoroutines lists goroutines still running code of this package
// (outside tests) or a client connection of net/http, waiting up to a
// second for them to wind down.
func leakedGoroutines() []string {
	deadline := time.Now().Add(time.Second)
	for {
		var leaked []string
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for i, g := range strings.Split(string(buf), "\n\n") {
			if i == 0 {
				continue // the calling goroutine
			}
			ours := strings.Contains(g, "parley/api.") && !strings.Contains(g, "parley/api.Test") &&
				!strings.Contains(g, "parley/api.Benchmark") && !strings.Contains(g, "parley/api.Fuzz")
			if ours || strings.Contains(g, "net/http.(*persistConn)") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			return leaked
		}
		time.Sleep(10 * time.Millisecond)
	}
}
