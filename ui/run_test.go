package ui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"parley/api"
	"parley/api/apitest"
)

// lockedBuffer is an io.Writer safe to read while the program writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// wrote is closed by the next write: a reader waits on it rather than
	// polling.
	wrote chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		close(l.wrote)
		l.wrote = nil
	}
	return l.b.Write(p)
}

// await waits until cond holds of everything written so far, and reports
// false if it does not within d.
func (l *lockedBuffer) await(d time.Duration, cond func(string) bool) bool {
	deadline := time.After(d)
	for {
		l.mu.Lock()
		if l.wrote == nil {
			l.wrote = make(chan struct{})
		}
		next, out := l.wrote, l.b.String()
		l.mu.Unlock()
		if cond(out) {
			return true
		}
		select {
		case <-next:
		case <-deadline:
			return false
		}
	}
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Run drives a real Bubble Tea program over a pipe: type, send, see the
// streamed reply, quit with ctrl+q; the terminal is restored (alternate
// screen left) and Run returns nil.
func TestRunRoundTripAndRestore(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	srv := apitest.New(t)
	// One delta: text streamed over several frames can reach the output
	// split by the renderer's cursor moves.
	srv.Enqueue(apitest.Reply{Text: "pong from the fake", DeltaRunes: 100})
	inR, inW := io.Pipe()
	out := &lockedBuffer{}
	errc := make(chan error, 1)
	go func() {
		errc <- Run(context.Background(), Options{
			Model: "gpt-4o", Theme: "dark", Version: "test",
			NewClient: func(string) (*api.Client, error) {
				return api.NewClient(api.ClientConfig{BaseURL: srv.URL(), APIKey: apitest.DefaultAPIKey})
			},
			Getenv:    func(k string) string { return map[string]string{"XDG_CONFIG_HOME": t.TempDir()}[k] },
			Input:     inR,
			Output:    out,
			Clipboard: func(string) error { return nil },
			Profile:   colorprofile.TrueColor,
			Width:     80, Height: 24,
		})
	}()
	send := func(s string) {
		if _, err := inW.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	waitOut := func(what string) {
		t.Helper()
		if !out.await(10*time.Second, func(s string) bool { return strings.Contains(s, what) }) {
			t.Fatalf("output never showed %q", what)
		}
	}
	waitOut("Message gpt-4o")
	// The pipe hands "ping" to the program's reader before "\r" is
	// written, and the program handles keys in the order read.
	send("ping")
	send("\r")
	waitOut("fake")
	send("\x11") // ctrl+q
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after ctrl+q")
	}
	inW.Close()
	o := out.String()
	if !strings.Contains(o, "\x1b[?1049h") || strings.LastIndex(o, "\x1b[?1049l") < strings.LastIndex(o, "\x1b[?1049h") {
		t.Error("alternate screen not entered and left")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

// A cancelled context ends Run with the context's error, terminal restored.
func TestRunEndsWithContext(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	inR, inW := io.Pipe()
	defer inW.Close()
	out := &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, Options{Model: "gpt-4o", Theme: "dark", Input: inR, Output: out, Width: 40, Height: 12,
			Getenv: func(string) string { return "" }})
	}()
	if !out.await(10*time.Second, func(s string) bool { return strings.Contains(s, "gpt-4o") }) {
		cancel()
		t.Fatalf("no first frame within 10 s:\n%q", out.String())
	}
	cancel()
	select {
	case err := <-errc:
		if err == nil || ctx.Err() == nil {
			t.Fatalf("Run returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run ignored the cancelled context")
	}
	if o := out.String(); strings.LastIndex(o, "\x1b[?1049l") < strings.LastIndex(o, "\x1b[?1049h") {
		t.Error("alternate screen not left")
	}
}
