package transcript

import (
	"runtime"
	"testing"

	"parley/conversation"
)

// TestLongHistoryLiveHeap: a reopened session of 10,000 messages (the
// conversation restored, the transcript shown from its path and settled)
// keeps at most 7 MB of structures besides its text. They kept 10 MB when
// each item copied its message and held its drawing from the start, and
// the conversation and the transcript each had a map of the ids: with the
// collector's headroom and the opening's peak, the long session took 21
// MB more than a fresh chat in the built binary (the budget is 20).
func TestLongHistoryLiveHeap(t *testing.T) {
	if raceOn {
		t.Skip("the race detector changes what the heap holds")
	}
	snap := longSnapshot(10_000)
	c, tr, conv, all := reopen(t, snap)
	t.Logf("10,000 messages: the conversation keeps %.2f MB, with the transcript %.2f MB", float64(conv)/(1<<20), float64(all)/(1<<20))
	if all > 7<<20 {
		t.Errorf("the reopened session keeps %.2f MB besides its text (budget 7 MB)", float64(all)/(1<<20))
	}
	runtime.KeepAlive(c)
	runtime.KeepAlive(tr)
}

// longSnapshot is a stored session of n messages on one path.
func longSnapshot(n int) conversation.Snapshot {
	msgs := longSession(n)
	for i := range msgs {
		msgs[i].Parent = i // each message follows the one before
	}
	return conversation.Snapshot{Messages: msgs, Leaf: msgs[len(msgs)-1].ID}
}

// reopen does what the chat does with a session it read: the conversation
// restored from snap (a copy: the caller's snapshot stays), and the
// transcript shown from its path at 120x40, settled. It returns them and
// the live heap each step added.
func reopen(tb testing.TB, snap conversation.Snapshot) (c *conversation.Conversation, tr *Transcript, conv, all uint64) {
	tb.Helper()
	base := liveHeap()
	c = conversation.Restore(conversation.Options{ID: "long"}, snap)
	conv = liveHeap() - base
	tr = newTest(tb, 120, 40)
	tr.ResetSeq(c.Len(), c.PathMessages())
	settle(tb, tr)
	all = liveHeap() - base
	if tr.List().Len() != len(snap.Messages) {
		tb.Fatalf("the transcript holds %d messages, want %d", tr.List().Len(), len(snap.Messages))
	}
	return c, tr, conv, all
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
