package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

// damagedSession writes a session of 150 turns whose texts are long
// enough to fill a page each, closes the store, and overwrites the page
// holding an early question in the database file, as a failing disk
// would. It returns the reopened store and the session's id.
func damagedSession(t *testing.T) (*Store, string) {
	t.Helper()
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	filler := strings.Repeat("words to fill a page. ", 200)
	for i := range 150 {
		answer(t, conv, c, fmt.Sprintf("QUESTION-%04d %s", i, filler), fmt.Sprintf("answer %d", i))
	}
	flushWithin(t, r, time.Minute)
	r.Close()
	s.Close() // the last connection: the WAL is checkpointed into the file
	path := filepath.Join(dir, DBName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The leaf page of the messages table that holds it (other pages
	// may hold stale bytes of it: an interior page that was a leaf once),
	// found with SQLite's dbstat table (pages of pageSize: the file is new).
	db := rawDB(t, path+"?mode=ro")
	marker := []byte("QUESTION-0005")
	damaged := 0
	for from := 0; ; {
		at := bytes.Index(data[from:], marker)
		if at < 0 {
			break
		}
		page := (from + at) / pageSize * pageSize
		from = page + pageSize
		var leaf bool
		if err := db.QueryRow("SELECT name = 'messages' AND pagetype = 'leaf' FROM dbstat WHERE pageno = ?", page/pageSize+1).Scan(&leaf); err != nil {
			t.Fatal(err)
		}
		if leaf {
			for i := page; i < page+64; i++ {
				data[i] = 0xff // the page's header and first cell pointers
			}
			damaged++
		}
	}
	db.Close()
	if damaged != 1 {
		t.Fatalf("%d leaf pages of messages hold the early question, want 1", damaged)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return openIn(t, dir, c), conv.ID()
}

// TestADamagedSessionOpensItsTailAndGoesOnInACopy: a session whose early
// rows sit on a damaged page still opens its last messages, but not all
// of it (a KindCorrupt error, which says the file is damaged); the
// window read first is copied into a new session through the recorder,
// and a turn added to the conversation restored from it is kept there.
// Before, the chat stayed on the window and refused every message with
// "the session is still loading".
func TestADamagedSessionOpensItsTailAndGoesOnInACopy(t *testing.T) {
	s, id := damagedSession(t)
	ctx := context.Background()
	tail, err := s.LoadTail(ctx, id, 50)
	if err != nil || len(tail.Snapshot.Messages) != 50 || !tail.Snapshot.Partial {
		t.Fatalf("LoadTail: %d messages, partial %v, %v", len(tail.Snapshot.Messages), tail.Snapshot.Partial, err)
	}
	_, err = s.Load(ctx, id)
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindCorrupt || !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("Load of the damaged session: %v, want a KindCorrupt error", err)
	}

	snap := tail.Snapshot
	snap.Partial = false
	copyID := conversation.NewID()
	r := record(t, s)
	r.Copy(copyID, snap)
	conv := conversation.Restore(conversation.Options{ID: copyID, Listeners: []conversation.Listener{r}}, snap)
	if _, err := conv.AddUser("go on", nil); err != nil {
		t.Fatal(err)
	}
	rid, _ := conv.StartReply("gpt-4o")
	conv.AppendDelta(rid, "going on")
	conv.Finish(rid, "stop", nil)
	flush(t, r)

	got, err := s.Load(ctx, copyID)
	if err != nil {
		t.Fatal(err)
	}
	path := got.Snapshot.Path()
	if len(path) != 52 || path[0].Parent != 0 || path[0].Text != tail.Snapshot.Messages[0].Text || path[51].Text != "going on" || path[50].Parent != path[49].ID {
		t.Fatalf("the copy's path: %d messages, first parent %d", len(path), path[0].Parent)
	}
}
