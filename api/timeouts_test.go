package api

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestHeaderTimeout: no response headers within the limit is a timeout that
// names the setting, and it is not retried (the gateway may be working).
func TestHeaderTimeout(t *testing.T) {
	gw := apitest.New(t)
	gw.SetDefault(apitest.Reply{Delay: 5 * time.Second})
	c := newTestClient(t, gw, func(c *ClientConfig) { c.Timeouts.Header = 100 * time.Millisecond })
	start := time.Now()
	_, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	took := time.Since(start)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseHeader || te.Limit != 100*time.Millisecond {
		t.Fatalf("err %T %v", err, err)
	}
	if took < 100*time.Millisecond || took > 3*time.Second { // the fake waits 5s: anything less is the timeout
		t.Fatalf("took %v", took)
	}
	if msg := err.Error(); !strings.Contains(msg, "header_timeout") || !strings.Contains(msg, "100ms") {
		t.Fatalf("message %q does not say what timed out and what to raise", msg)
	}
	if n := len(gw.Requests()); n != 1 {
		t.Fatalf("%d requests: a header timeout must not be retried", n)
	}
}

// TestImageHeaderTimeout: image requests wait for Timeouts.ImageHeader, not
// Timeouts.Header.
func TestImageHeaderTimeout(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Delay: 300 * time.Millisecond})
	c := newTestClient(t, gw, func(c *ClientConfig) {
		c.Timeouts.Header = 50 * time.Millisecond
		c.Timeouts.ImageHeader = 5 * time.Second
	})
	if _, err := c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "a cat"}); err != nil {
		t.Fatalf("a 300ms image reply failed with a 5s image limit: %v", err)
	}
	gw.Enqueue(apitest.Reply{Delay: 2 * time.Second})
	c = newTestClient(t, gw, func(c *ClientConfig) { c.Timeouts.ImageHeader = 100 * time.Millisecond })
	_, err := c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "a cat"})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseHeader || !strings.Contains(err.Error(), "image_timeout") {
		t.Fatalf("err %v", err)
	}
}

// TestConnectTimeout: a dial that never completes is cut at the connect
// limit, retried, and reported with the setting to raise.
func TestConnectTimeout(t *testing.T) {
	c, err := NewClient(ClientConfig{
		BaseURL:  "http://127.0.0.1:9/v1",
		Timeouts: Timeouts{Connect: 80 * time.Millisecond},
		Retry:    RetryPolicy{Base: time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	var dials atomic.Int32
	c.transport.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
		dials.Add(1)
		<-ctx.Done() // a black-holed SYN: only the deadline ends it
		return nil, ctx.Err()
	}
	start := time.Now()
	err = chatOnce(c)
	took := time.Since(start)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseConnect {
		t.Fatalf("err %T %v", err, err)
	}
	if n := dials.Load(); n != 3 {
		t.Fatalf("%d dials, want 3 (a connect timeout sent nothing and is retried)", n)
	}
	if took < 240*time.Millisecond || took > 3*time.Second {
		t.Fatalf("took %v for 3 attempts of 80ms", took)
	}
	if msg := err.Error(); !strings.Contains(msg, "connect_timeout") || !strings.Contains(msg, "http://127.0.0.1:9") {
		t.Fatalf("message %q", msg)
	}
}

// TestTLSHandshakeTimeout: a server that accepts TCP but never speaks TLS
// counts against the connect limit.
func TestTLSHandshakeTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // hold it open, say nothing
			mu.Unlock()
		}
	}()
	c, err := NewClient(ClientConfig{
		BaseURL:  "https://" + l.Addr().String(),
		Timeouts: Timeouts{Connect: 100 * time.Millisecond},
		Retry:    RetryPolicy{MaxRetries: -1},
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = chatOnce(c)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseConnect {
		t.Fatalf("err %T %v", err, err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("took %v", took)
	}
}

// TestDefaults pins the documented defaults: connect 10s, response headers
// 60s, 120s without a stream event, 300s for image replies; 2 retries from
// 0.5s doubling to at most 8s, and Retry-After waits up to 60s.
func TestDefaults(t *testing.T) {
	c, err := NewClient(ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	wantT := Timeouts{Connect: 10 * time.Second, Header: 60 * time.Second, StreamIdle: 120 * time.Second, ImageHeader: 300 * time.Second}
	if c.timeouts != wantT {
		t.Errorf("timeouts %+v, want %+v", c.timeouts, wantT)
	}
	wantR := RetryPolicy{MaxRetries: 2, Base: 500 * time.Millisecond, Max: 8 * time.Second, MaxWait: 60 * time.Second}
	if c.retry != wantR {
		t.Errorf("retry policy %+v, want %+v", c.retry, wantR)
	}
	if c.transport.TLSHandshakeTimeout != 10*time.Second {
		t.Errorf("TLS handshake limit %v, want the connect timeout", c.transport.TLSHandshakeTimeout)
	}
	if c.ua != "parley/dev" {
		t.Errorf("user agent %q", c.ua)
	}
	// Set fields win, zero fields still take defaults.
	c, err = NewClient(ClientConfig{Timeouts: Timeouts{StreamIdle: 5 * time.Second}, Retry: RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if c.timeouts.StreamIdle != 5*time.Second || c.timeouts.Connect != 10*time.Second || c.retry.MaxRetries != 0 || c.retry.Base != 500*time.Millisecond {
		t.Errorf("partly set: %+v %+v", c.timeouts, c.retry)
	}
}

// trickleServer is a raw TCP gateway that answers every request with a
// status line and then one header byte per interval, never ending the
// header block: the response has started, but its headers never finish.
// It returns the base URL and a counter of connections.
func trickleServer(t *testing.T, interval time.Duration) (string, *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var (
		wg    sync.WaitGroup
		conns atomic.Int32
	)
	t.Cleanup(func() {
		close(done)
		l.Close()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				if _, err := io.WriteString(conn, "HTTP/1.1 200 OK\r\nX-Slow: "); err != nil {
					return
				}
				tick := time.NewTicker(interval)
				defer tick.Stop()
				for {
					select {
					case <-done:
						return
					case <-tick.C:
						if _, err := conn.Write([]byte("a")); err != nil {
							return // the client gave up
						}
					}
				}
			}()
		}
	}()
	return "http://" + l.Addr().String(), &conns
}

// TestHeaderTimeoutTrickle: a gateway that sends a header byte every 20ms
// keeps the connection busy but never finishes its headers; the header
// limit covers the whole header block, so the request ends at the limit
// and is not retried.
func TestHeaderTimeoutTrickle(t *testing.T) {
	base, conns := trickleServer(t, 20*time.Millisecond)
	c, err := NewClient(ClientConfig{BaseURL: base, Timeouts: Timeouts{Header: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	// A guard so that a regression fails instead of hanging.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.ChatStream(ctx, ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	took := time.Since(start)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseHeader || te.Limit != 300*time.Millisecond {
		t.Fatalf("err %T %v", err, err)
	}
	if took < 300*time.Millisecond || took > 2*time.Second {
		t.Fatalf("took %v with a 300ms header limit", took)
	}
	if !strings.Contains(err.Error(), "header_timeout") {
		t.Fatalf("message %q does not name the setting", err)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections: a header timeout must not be retried", n)
	}
}

// TestImageTimeoutTrickle: the same for image requests and image_timeout.
func TestImageTimeoutTrickle(t *testing.T) {
	base, _ := trickleServer(t, 20*time.Millisecond)
	c, err := NewClient(ClientConfig{BaseURL: base, Timeouts: Timeouts{Header: time.Minute, ImageHeader: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.GenerateImages(ctx, ImageRequest{Model: "gpt-image-1", Prompt: "a cat"})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseHeader || !strings.Contains(err.Error(), "image_timeout") {
		t.Fatalf("err %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("took %v with a 300ms image limit", took)
	}
}

// TestReplyTimeoutStream: with reply_timeout set, a reply that keeps
// streaming past it ends with a timeout naming the setting, after the text
// that arrived in time was delivered.
func TestReplyTimeoutStream(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: strings.Repeat("word ", 200), DeltaRunes: 5, Interval: 20 * time.Millisecond})
	c := newTestClient(t, gw, func(c *ClientConfig) { c.Timeouts.Reply = 300 * time.Millisecond })
	start := time.Now()
	r := drain(t, startStream(t, c, "llama3"))
	took := time.Since(start)
	var te *TimeoutError
	if !errors.As(r.err, &te) || te.Phase != PhaseReply || te.Limit != 300*time.Millisecond {
		t.Fatalf("err %T %v", r.err, r.err)
	}
	if !strings.Contains(r.err.Error(), "reply_timeout") || !strings.Contains(r.err.Error(), "300ms") {
		t.Fatalf("message %q", r.err)
	}
	if r.text == "" || len(r.text) >= 1000 {
		t.Fatalf("%d bytes of text: want the part that arrived in time", len(r.text))
	}
	if took > 2*time.Second {
		t.Fatalf("took %v with a 300ms reply limit", took)
	}
	if n := len(gw.Requests()); n != 1 {
		t.Fatalf("%d requests: a reply timeout is final", n)
	}
}

// TestReplyTimeoutCoversHeadersAndRetries: the limit runs from the request,
// so a slow first byte and the waits between retries count against it, for
// streamed and whole replies alike.
func TestReplyTimeoutCoversHeadersAndRetries(t *testing.T) {
	gw := apitest.New(t)
	gw.SetDefault(apitest.Reply{Delay: 5 * time.Second})
	c := newTestClient(t, gw, func(c *ClientConfig) { c.Timeouts.Reply = 200 * time.Millisecond })
	start := time.Now()
	_, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseReply || time.Since(start) > 2*time.Second {
		t.Fatalf("stream: err %v after %v", err, time.Since(start))
	}
	start = time.Now()
	_, err = c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if !errors.As(err, &te) || te.Phase != PhaseReply || time.Since(start) > 2*time.Second {
		t.Fatalf("chat: err %v after %v", err, time.Since(start))
	}

	// Retries: 503 after 503 with a real clock and a long backoff; the
	// limit ends the wait.
	gw = apitest.New(t)
	gw.SetDefault(apitest.Reply{Status: 503})
	c = newTestClient(t, gw, func(c *ClientConfig) {
		c.Timeouts.Reply = 200 * time.Millisecond
		c.Retry = RetryPolicy{Base: 10 * time.Second, Max: 10 * time.Second}
	})
	c.clock = realClock()
	start = time.Now()
	_, err = c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if !errors.As(err, &te) || te.Phase != PhaseReply || time.Since(start) > 2*time.Second {
		t.Fatalf("retries: err %v after %v", err, time.Since(start))
	}
	// A caller's own cancel stays a cancel.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	c = newTestClient(t, gw, func(c *ClientConfig) { c.Timeouts.Reply = time.Minute })
	c.clock = realClock()
	c.retry.Base, c.retry.Max = 10*time.Second, 10*time.Second
	if _, err = c.Chat(ctx, ChatRequest{Model: "llama3", Messages: userMsg("hi")}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("caller's deadline: err %v", err)
	}
}

// TestReplyTimeoutOff: by default there is no reply limit.
func TestReplyTimeoutOff(t *testing.T) {
	if got := (Timeouts{}).withDefaults().Reply; got != 0 {
		t.Fatalf("default reply limit %v, want none", got)
	}
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "slow but fine", DeltaRunes: 2, Interval: 30 * time.Millisecond})
	if r := drain(t, startStream(t, newTestClient(t, gw), "llama3")); r.err != io.EOF || r.text != "slow but fine" {
		t.Fatalf("text %q, err %v", r.text, r.err)
	}
}
