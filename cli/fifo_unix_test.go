//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestNamedPipeForTheHistory: a named pipe where the history database
// belongs hangs nothing: ask answers (and says the history is off),
// sessions list fails with the sentence naming the file, the chat starts
// with history off and says why (in the chat, and on stderr after it).
func TestNamedPipeForTheHistory(t *testing.T) {
	h := newHarness(t)
	dir := filepath.Join(h.env["XDG_DATA_HOME"], "parley")
	os.MkdirAll(dir, 0o700)
	fifo := filepath.Join(dir, "parley.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	start := time.Now()
	h.gw.Enqueue(apitest.Reply{Text: "Lima."})
	r := h.run(nil, "ask", "-m", "gpt-4o", "capital of Peru?")
	r.mustCode(t, 0)
	if r.stdout != "Lima.\n" || !strings.Contains(r.stderr, "is a named pipe (FIFO), not a regular file") || !strings.Contains(r.stderr, "not kept") {
		t.Fatalf("ask: %q / %q", r.stdout, r.stderr)
	}
	r = h.run(nil, "sessions", "list")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, fifo+" is a named pipe (FIFO)") || !strings.Contains(r.stderr, "mv "+fifo) {
		t.Fatalf("sessions list: %q", r.stderr)
	}
	r = h.runChat(func(req TUIRequest) error {
		if req.History.Store == nil {
			t.Errorf("the chat has no store to say why history is off: %+v", req.History)
		} else if err := req.History.Store.Opened(context.Background()); err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("the chat's store opened with %v, want the named pipe named", err)
		}
		return nil
	})
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, fifo+" is a named pipe (FIFO)") {
		t.Fatalf("after the chat, stderr does not say why history was off: %q", r.stderr)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("took %v", took)
	}
}
