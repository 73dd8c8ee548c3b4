package fake_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/fake"
)

func chat(t *testing.T, url string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/chat/completions",
		strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+fake.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	return http.DefaultClient.Do(req)
}

// The observer hears every request, numbered in arrival order, with its
// body, before the reply is written.
func TestObserverHearsEveryRequest(t *testing.T) {
	var mu sync.Mutex
	var seqs []int
	var bodies []string
	observe := func(seq int, r *http.Request, body []byte) {
		mu.Lock()
		defer mu.Unlock()
		seqs = append(seqs, seq)
		bodies = append(bodies, r.URL.Path+" "+string(body))
	}
	srv, err := fake.Listen(func(c *fake.Config) { c.Observe = observe })
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for range 3 {
		resp, err := chat(t, srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "You said: hi") {
			t.Fatalf("status %d, body %s", resp.StatusCode, b)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seqs) != 3 || seqs[0] != 1 || seqs[1] != 2 || seqs[2] != 3 {
		t.Errorf("the observer heard %v; want [1 2 3]", seqs)
	}
	for _, b := range bodies {
		if !strings.HasPrefix(b, "/v1/chat/completions {") {
			t.Errorf("the observer was given %q; want the path and the JSON body", b)
		}
	}
}

// Close ends a reply in progress, waits for its handler and stops
// listening: nothing of the server outlives it.
func TestCloseEndsRepliesAndStopsListening(t *testing.T) {
	srv, err := fake.Listen()
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(fake.Reply{Delay: time.Hour})
	errc := make(chan error, 1)
	go func() {
		resp, err := chat(t, srv.URL())
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		errc <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); srv.InFlight() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the request never reached the server")
		}
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return within 10 s with a reply delayed by an hour")
	}
	if n := srv.InFlight(); n != 0 {
		t.Errorf("%d handlers still running after Close", n)
	}
	select {
	case err := <-errc:
		if err == nil {
			t.Error("the delayed reply completed; Close must cut it")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client was not released by Close")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL()+"/models", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("the server still answers after Close (status %d)", resp.StatusCode)
	}
	srv.Close() // idempotent
}

// A closed server's handler answers 503 rather than starting a reply that
// Close would not wait for.
func TestHandlerAfterCloseRefuses(t *testing.T) {
	srv, err := fake.Listen()
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/models", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("status %d after Close; want 503", rec.Code)
	}
}
