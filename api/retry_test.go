package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

func chatOnce(c *Client) error {
	_, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	return err
}

// TestRetryStatuses counts attempts in the fake's log for each status.
func TestRetryStatuses(t *testing.T) {
	cases := []struct {
		name     string
		replies  []apitest.Reply
		requests int
		ok       bool
	}{
		{"503 then ok", []apitest.Reply{{Status: 503}, {Status: 503}, {}}, 3, true},
		{"500 three times", []apitest.Reply{{Status: 500}, {Status: 500}, {Status: 500}, {}}, 3, false},
		{"408", []apitest.Reply{{Status: 408}, {}}, 2, true},
		{"409", []apitest.Reply{{Status: 409}, {}}, 2, true},
		{"429", []apitest.Reply{{Status: 429, Body: `{"error":{"message":"slow down","type":"requests"}}`}, {}}, 2, true},
		{"429 retry-after 0", []apitest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "0"}}, {}}, 2, true},
		{"dropped connection", []apitest.Reply{{Drop: true}, {}}, 2, true},
		{"400", []apitest.Reply{{Status: 400}, {}}, 1, false},
		{"401", []apitest.Reply{{Status: 401}, {}}, 1, false},
		{"403", []apitest.Reply{{Status: 403}, {}}, 1, false},
		{"404", []apitest.Reply{{Status: 404}, {}}, 1, false},
		{"insufficient_quota on 429", []apitest.Reply{{Status: 429, Body: `{"error":{"message":"quota","type":"insufficient_quota","code":"insufficient_quota"}}`}, {}}, 1, false},
		{"x-should-retry false", []apitest.Reply{{Status: 503, Header: map[string]string{"X-Should-Retry": "false"}}, {}}, 1, false},
		{"retry-after beyond max wait", []apitest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "120"}}, {}}, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gw := apitest.New(t)
			gw.Enqueue(tc.replies...)
			err := chatOnce(newTestClient(t, gw))
			if (err == nil) != tc.ok {
				t.Fatalf("err %v, want ok=%v", err, tc.ok)
			}
			if n := len(gw.Requests()); n != tc.requests {
				t.Fatalf("%d requests, want %d", n, tc.requests)
			}
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.Attempts != tc.requests {
				t.Fatalf("Attempts %d, want %d", apiErr.Attempts, tc.requests)
			}
		})
	}
}

func TestRetryMaxRetriesConfig(t *testing.T) {
	for _, tc := range []struct{ max, want int }{{-1, 1}, {1, 2}, {4, 5}} {
		gw := apitest.New(t)
		gw.SetDefault(apitest.Reply{Status: 502})
		err := chatOnce(newTestClient(t, gw, func(c *ClientConfig) { c.Retry.MaxRetries = tc.max }))
		if err == nil || len(gw.Requests()) != tc.want {
			t.Fatalf("MaxRetries %d: %d requests (err %v), want %d", tc.max, len(gw.Requests()), err, tc.want)
		}
	}
}

// TestRetryAfterHonoured: the waits the gateway asks for are kept, in
// milliseconds, seconds and as an HTTP date (read against the client's
// clock, here a fake one, so nothing is waited for).
func TestRetryAfterHonoured(t *testing.T) {
	for name, tc := range map[string]struct {
		h    map[string]string
		want time.Duration
	}{
		"retry-after-ms": {map[string]string{"retry-after-ms": "300"}, 300 * time.Millisecond},
		"seconds":        {map[string]string{"Retry-After": "0.3"}, 300 * time.Millisecond},
		"both":           {map[string]string{"retry-after-ms": "1500", "Retry-After": "9"}, 1500 * time.Millisecond},
	} {
		gw := apitest.New(t)
		gw.Enqueue(apitest.Reply{Status: 429, Header: tc.h}, apitest.Reply{})
		c, fc := newClockedClient(t, gw)
		err := chatOnce(c)
		if err != nil || len(gw.Requests()) != 2 {
			t.Fatalf("%s: err %v, %d requests", name, err, len(gw.Requests()))
		}
		if got := fc.recorded(); len(got) != 1 || got[0] != tc.want {
			t.Fatalf("%s: waited %v, want [%v]", name, got, tc.want)
		}
	}
	// An HTTP date: the wait is the time from the client's now to it.
	gw := apitest.New(t)
	c, fc := newClockedClient(t, gw)
	at := fc.now().Add(2 * time.Second)
	gw.Enqueue(apitest.Reply{Status: 503, Header: map[string]string{"Retry-After": at.Format(http.TimeFormat)}}, apitest.Reply{})
	if err := chatOnce(c); err != nil {
		t.Fatal(err)
	}
	if got := fc.recorded(); len(got) != 1 || got[0] != 2*time.Second {
		t.Fatalf("waited %v for a date 2s ahead", got)
	}
}

// TestRetryBackoffWaits: without Retry-After the waits grow from Base,
// doubling, each jittered by at most a quarter, and capped at Max.
func TestRetryBackoffWaits(t *testing.T) {
	gw := apitest.New(t)
	gw.SetDefault(apitest.Reply{Status: 502})
	c, fc := newClockedClient(t, gw, func(c *ClientConfig) {
		c.Retry = RetryPolicy{MaxRetries: 5, Base: time.Second, Max: 4 * time.Second}
	})
	if err := chatOnce(c); err == nil {
		t.Fatal("502 six times succeeded")
	}
	waits := fc.recorded()
	bases := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	if len(waits) != len(bases) {
		t.Fatalf("waits %v, want %d of them", waits, len(bases))
	}
	for i, w := range waits {
		if w > bases[i] || w < bases[i]*3/4 {
			t.Errorf("wait %d is %v, want within [%v, %v]", i+1, w, bases[i]*3/4, bases[i])
		}
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "3600"}, Body: `{"error":{"message":"Rate limit reached for requests"}}`})
	c, fc := newClockedClient(t, gw, func(c *ClientConfig) { c.Retry.MaxWait = time.Minute })
	err := chatOnce(c)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Hour {
		t.Fatalf("err %v", err)
	}
	if want := fc.now().Add(time.Hour); !apiErr.RetryAt.Equal(want) {
		t.Fatalf("RetryAt %v, want an hour from the client's now (%v)", apiErr.RetryAt, want)
	}
	if !strings.Contains(err.Error(), "try again after "+clock(apiErr.RetryAt)) {
		t.Fatalf("message does not say when to try again: %q", err)
	}
	if len(gw.Requests()) != 1 {
		t.Fatal("a wait longer than MaxWait must not be retried")
	}

	// The same as an HTTP date, with the default MaxWait of 60s, on 503.
	gw = apitest.New(t)
	c, fc = newClockedClient(t, gw)
	at := fc.now().Add(90 * time.Second)
	gw.SetDefault(apitest.Reply{Status: 503, Header: map[string]string{"Retry-After": at.Format(http.TimeFormat)}})
	err = chatOnce(c)
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != 90*time.Second {
		t.Fatalf("err %v (RetryAfter %v)", err, apiErr.RetryAfter)
	}
	if !strings.Contains(err.Error(), "try again after "+clock(apiErr.RetryAt)) || !strings.Contains(err.Error(), "longer than parley waits") {
		t.Fatalf("message does not say when to try again: %q", err)
	}
	if n := len(gw.Requests()); n != 1 || len(fc.recorded()) != 0 {
		t.Fatalf("%d requests, waits %v: a Retry-After date 90s ahead must not be waited for", n, fc.recorded())
	}
}

// TestRetryBackoffHonoursContext: a cancel during the backoff sleep returns
// at once.
func TestRetryBackoffHonoursContext(t *testing.T) {
	gw := apitest.New(t)
	gw.SetDefault(apitest.Reply{Status: 503})
	c, fc := newClockedClient(t, gw, func(c *ClientConfig) { c.Retry = RetryPolicy{Base: 10 * time.Second, Max: 10 * time.Second} })
	fc.block = true // the backoff outlasts the caller's deadline
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Chat(ctx, ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("returned after %v", took)
	}
	if n := len(gw.Requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestBackoffBounds(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	for n, base := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second} {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := p.backoff(n + 1)
			if d > base || d < base*3/4 {
				t.Fatalf("retry %d: backoff %v outside [%v, %v]", n+1, d, base*3/4, base)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Fatalf("retry %d: no jitter (%d distinct waits)", n+1, len(seen))
		}
	}
	if d := p.backoff(100); d > 8*time.Second {
		t.Fatalf("huge retry number: %v", d)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		h    map[string]string
		want time.Duration
		ok   bool
	}{
		{map[string]string{"Retry-After": "7"}, 7 * time.Second, true},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond, true},
		{map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true},
		{map[string]string{"retry-after-ms": "250", "Retry-After": "9"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After": "-3"}, 0, false},
		{map[string]string{"Retry-After": "1e300"}, 365 * 24 * time.Hour, true},
		{map[string]string{}, 0, false},
	}
	for _, tc := range cases {
		h := http.Header{}
		for k, v := range tc.h {
			h.Set(k, v)
		}
		got, ok := retryAfter(h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%v: got %v %v, want %v %v", tc.h, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRetryConnectionRefused: a port nobody listens on is retried, then
// reported as a connection error naming the host.
func TestRetryConnectionRefused(t *testing.T) {
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
	(&fakeClock{}).install(c)
	dials := 0
	dial := c.transport.DialContext
	c.transport.DialContext = func(ctx context.Context, network, a string) (net.Conn, error) {
		dials++
		return dial(ctx, network, a)
	}
	err = chatOnce(c)
	var ce *ConnectionError
	if !errors.As(err, &ce) || ce.Attempts != 3 || dials != 3 {
		t.Fatalf("err %v after %d dials", err, dials)
	}
	if msg := err.Error(); !strings.Contains(msg, "http://"+addr) || !strings.Contains(msg, "refused") || !strings.Contains(msg, "3 attempts") {
		t.Fatalf("unclear message %q", msg)
	}
}
