package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// reasoningWritten streams size bytes of reasoning over secs seconds,
// a delta a second, saved as the conversation reports its progress (each
// report is written: none is coalesced), then a short answer, closes the
// store and returns the bytes the process wrote meanwhile (checkpoints
// included, the one at close too: every page the WAL holds is written
// again into the database); ok is false where the kernel does not say.
func reasoningWritten(t *testing.T, size, secs int) (written int64, ok bool) {
	t.Helper()
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("think it through", nil)
	id, _ := conv.StartReply("deepseek-r1")
	flush(t, r)
	per := size / secs
	piece := strings.Repeat("weighing option x. ", per/19+1)[:per]
	start, measured := bytesWritten()
	for range secs {
		c.advance(time.Second)
		conv.AppendReasoning(id, piece)
		flushWithin(t, r, time.Minute)
	}
	conv.AppendDelta(id, "Option x.")
	conv.Finish(id, "stop", &api.Usage{TotalTokens: 9})
	flushWithin(t, r, time.Minute)
	r.Close()
	s.Close()
	end, _ := bytesWritten()
	s = openIn(t, dir, c)
	got, err := s.Load(context.Background(), conv.ID())
	if err != nil || got.Snapshot.Messages[1].Reasoning != strings.Repeat(piece, secs) || got.Snapshot.Messages[1].Text != "Option x." {
		t.Fatalf("final reply: %d bytes of reasoning, err %v", len(got.Snapshot.Messages[1].Reasoning), err)
	}
	return end - start, measured
}

// TestStreamingReasoningWritesGrowWithTheReasoning: a long reasoning
// streamed over many seconds is saved every second, and what reaches the
// disk grows with the reasoning, not with the reasoning times the number
// of saves (before, each save rewrote the whole reasoning: 6.1 MB over 30
// s wrote 178 MB). Measured as TestLongReplyProgressWritesGrowWithTheText
// does: 6 MB over 30 s (2 MB under the race detector); at most three
// times the reasoning.
func TestStreamingReasoningWritesGrowWithTheReasoning(t *testing.T) {
	size := 6 << 20
	if raceEnabled {
		size = 2 << 20
	}
	written, ok := reasoningWritten(t, size, 30)
	if !ok {
		t.Skip("the kernel does not report bytes written here")
	}
	t.Logf("%d KiB of reasoning saved 30 times: %d KiB written (%.1f× the reasoning)", size>>10, written>>10, float64(written)/float64(size))
	if written > 3*int64(size) {
		t.Fatalf("wrote %d KiB for %d KiB of reasoning", written>>10, size>>10)
	}
}

// TestSlowReasoningWrites: 122 KB of reasoning at 1 KB a second. A save
// costs the pages it touches whatever it adds, so reasoning alone is
// reported every 15 s (or 16 KB) rather than every second (conversation's
// reasoningProgressEvery), a save leaves the reply's row alone, and the
// pages are 1 KB: at most three times the reasoning is written, the
// checkpoint at close counted (before: 11 MB, 89.6×; saved every second
// in pieces: 18.8×; every 15 s: 5.0× with the checkpoint at close, 2.8×
// without).
func TestSlowReasoningWrites(t *testing.T) {
	written, ok := reasoningWritten(t, 122_000, 122)
	if !ok {
		t.Skip("the kernel does not report bytes written here")
	}
	t.Logf("122 KB of reasoning at 1 KB/s: %d KB written (%.1f× the reasoning)", written/1000, float64(written)/122_000)
	if written > 3*122_000 {
		t.Fatalf("wrote %d KB for 122 KB of reasoning (at most 3×)", written/1000)
	}
}

// TestReadingALongReasoningWritesNothing: a reply whose 6 MiB of
// reasoning is kept in pieces is read back without writing anything.
// Joining the pieces in order (group_concat ... ORDER BY start) builds a
// temporary b-tree of the whole reasoning; in a temporary file it wrote
// 4.6 MB every time the session was opened (each ask --continue, each
// reopen in the chat), more than the reasoning cost to save.
func TestReadingALongReasoningWritesNothing(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("think it through", nil)
	id, _ := conv.StartReply("deepseek-r1")
	flush(t, r)
	const size, saves = 6 << 20, 30
	piece := strings.Repeat("weighing option x. ", size/saves/19+1)[:size/saves]
	for range saves {
		c.advance(time.Second)
		conv.AppendReasoning(id, piece)
		flushWithin(t, r, time.Minute)
	}
	conv.AppendDelta(id, "Option x.")
	conv.Finish(id, "stop", nil)
	flushWithin(t, r, time.Minute)
	start, measured := bytesWritten()
	got, err := s.Load(context.Background(), conv.ID())
	end, _ := bytesWritten()
	if err != nil || got.Snapshot.Messages[1].Reasoning != strings.Repeat(piece, saves) {
		t.Fatalf("read back %d bytes of reasoning, err %v", len(got.Snapshot.Messages[1].Reasoning), err)
	}
	if !measured {
		t.Skip("the kernel does not report bytes written here")
	}
	if n := end - start; n > 64<<10 {
		t.Fatalf("reading a session with %d KiB of reasoning wrote %d KiB", size>>10, n>>10)
	}
}

// TestReasoningKeptInPiecesIsRedactedWhole: a reasoning saved in pieces
// stays in its pieces when the reply ends, unless an API key arrived
// split over two saves (neither piece held it whole, so neither was
// redacted): then the end writes the reasoning whole, redacted, and no
// piece keeps half the key.
func TestReasoningKeptInPiecesIsRedactedWhole(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	c := newClock()
	dir := t.TempDir()
	s, err := Open(context.Background(), dir, Options{Now: c.now, Secrets: func() []string { return []string{key} }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := s.NewRecorder(context.Background())
	defer r.Close()
	for _, tc := range []struct {
		name   string
		pieces []string
		want   string
		kept   bool
	}{
		{"no key", []string{"first, ", "then ", "done"}, "first, then done", true},
		{"a key in one piece", []string{"the key is " + key + ". ", "done"}, "the key is [redacted]. done", true},
		{"a key split over two saves", []string{"the key is " + key[:10], key[10:] + ". done"}, "the key is [redacted]. done", false},
	} {
		conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
		conv.AddUser("think", nil)
		id, _ := conv.StartReply("deepseek-r1")
		for _, p := range tc.pieces {
			c.advance(conversation.ReasoningProgressEvery)
			conv.AppendReasoning(id, p)
			flush(t, r)
		}
		conv.AppendDelta(id, "ok")
		conv.Finish(id, "stop", nil)
		flush(t, r)
		got, err := s.Load(context.Background(), conv.ID())
		if err != nil || got.Snapshot.Messages[1].Reasoning != tc.want {
			t.Fatalf("%s: reasoning %q, %v; want %q", tc.name, got.Snapshot.Messages[1].Reasoning, err, tc.want)
		}
		var pieces int
		var stored string
		s.db.QueryRow(`SELECT count(*) FROM reasoning_pieces p JOIN messages m ON m.id = p.message_id WHERE m.session_id = ?`, conv.ID()).Scan(&pieces)
		s.db.QueryRow(`SELECT reasoning FROM messages WHERE session_id = ? AND seq = 2`, conv.ID()).Scan(&stored)
		if kept := pieces > 0; kept != tc.kept {
			t.Fatalf("%s: %d pieces kept (row %q), want kept %v", tc.name, pieces, stored, tc.kept)
		}
		var leaks int
		s.db.QueryRow(`SELECT count(*) FROM reasoning_pieces WHERE text LIKE ?`, "%"+key[:10]+"%").Scan(&leaks)
		if leaks > 0 || strings.Contains(stored, key[:10]) {
			t.Fatalf("%s: part of the key is stored", tc.name)
		}
	}
}
