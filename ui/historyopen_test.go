package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/session"
)

// startStore starts opening a history database in dir in the background,
// as the chat's start does for a new conversation.
func startStore(t *testing.T, dir string) *session.Store {
	t.Helper()
	st := session.Start(context.Background(), dir, session.Options{})
	t.Cleanup(func() { st.Close() })
	return st
}

// TestChatRecordsIntoAStoreStillOpening: a store still opening when the
// chat starts records the first turn as one opened before it.
func TestChatRecordsIntoAStoreStillOpening(t *testing.T) {
	st := startStore(t, t.TempDir())
	h := newHarness(t, 100, 30, withHistory(History{Store: st}))
	replyWith(t, h, "an answer kept while the history opened")
	flush(t, h)
	s, err := st.Load(context.Background(), h.eng.Conv().ID())
	if err != nil || len(s.Snapshot.Messages) != 2 || s.Snapshot.Messages[1].Text != "an answer kept while the history opened" {
		t.Fatalf("stored %+v (%v)", s.Snapshot.Messages, err)
	}
	if strings.Contains(h.screen(), "history off") {
		t.Fatalf("history is said to be off:\n%s", h.screen())
	}
}

// TestChatSaysOnceThatTheHistoryCouldNotOpen: a store whose open fails
// after the first frame turns history off for the run with the store's
// sentence (naming the file), as a failure before the start does; the
// chat goes on, and no "could not save" follows the next turn.
func TestChatSaysOnceThatTheHistoryCouldNotOpen(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, session.DBName), 0o700); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 30, withHistory(History{Store: startStore(t, dir)}))
	h.wait("the store's failure", func() bool { return strings.Contains(h.screen(), "history is off for this run") })
	scr := h.screen()
	if !strings.Contains(scr, "history is off for this run") || !strings.Contains(scr, session.DBName) || !strings.Contains(scr, "history off") {
		t.Fatalf("the failure is not said, or not in the status bar:\n%s", scr)
	}
	h.key("esc")
	replyWith(t, h, "answered without history")
	if scr := h.screen(); strings.Contains(scr, "could not save") {
		t.Fatalf("a write failure was reported after history went off:\n%s", scr)
	}
}
