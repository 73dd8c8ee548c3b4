package ui

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/session"
	"parley/ui/sidepane"
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
	var quitSaid strings.Builder
	sayIfStillOpening(st, &quitSaid)
	if quitSaid.Len() > 0 {
		t.Fatalf("a quit after the history opened says %q", quitSaid.String())
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

// lockedStore is a store started on a database another connection keeps
// write-locked: its open waits SQLite's busy timeout (5 s) and fails.
func lockedStore(t *testing.T) *session.Store {
	t.Helper()
	dir := t.TempDir()
	st, err := session.Open(context.Background(), dir, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, session.DBName))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	})
	return startStore(t, dir)
}

// TestWhatWasAskedWhileTheHistoryOpenedAndFailed: a draft saved, an
// /export and a fork asked for while the history is still opening, on a
// database another program holds until the open gives up, do what they
// do without history (the export writes what is on screen, the fork
// becomes the conversation on screen), and the failure is said once.
func TestWhatWasAskedWhileTheHistoryOpenedAndFailed(t *testing.T) {
	st := lockedStore(t)
	h := newHarness(t, 120, 30, withHistory(History{Store: st}))
	// A quit now would wait for the open: it says so.
	var quitSaid strings.Builder
	sayIfStillOpening(st, &quitSaid)
	if !strings.Contains(quitSaid.String(), "once the history database opens") {
		t.Fatalf("a quit while the history opens says %q", quitSaid.String())
	}
	h.ask("q1", "a1")
	h.ask("q2", "a2")
	out := filepath.Join(t.TempDir(), "talk.md")
	h.typeText("/export " + out)
	h.key("enter")
	before := h.eng.Conv().ID()
	h.key("esc")
	h.key("up")
	h.key("up")
	h.key("f")
	h.typeText("a draft typed while the history opened")
	h.wait("the store's failure", func() bool { return strings.Contains(h.screen(), "history off") })
	// The export's notice, not its file: the file exists from its first
	// byte (written as it is made).
	h.wait("the export and the fork", func() bool {
		exported := slices.ContainsFunc(h.said(), func(n sidepane.Notice) bool { return strings.HasPrefix(n.Text, "exported to ") })
		return exported && h.eng.Conv().ID() != before
	})
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"q1", "a1"}) {
		t.Fatalf("the fork holds %q", got)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "a2") {
		t.Fatalf("the export lacks the conversation:\n%s", b)
	}
	time.Sleep(draftDelay + 300*time.Millisecond)
	h.drain()
	n := 0
	for _, said := range h.said() {
		switch {
		case strings.HasPrefix(said.Text, "history is off for this run"):
			n++
		case strings.Contains(said.Text, "could not"):
			t.Errorf("a second word about the same failure: %q", said.Text)
		}
	}
	if n != 1 {
		t.Fatalf("history is said to be off %d times, want once", n)
	}
}
