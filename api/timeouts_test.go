package api

import (
	"context"
	"errors"
	"net"
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
