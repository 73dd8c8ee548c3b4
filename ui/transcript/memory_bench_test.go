package transcript

import (
	"runtime"
	"testing"

	"parley/conversation"
)

// BenchmarkLongHistoryLiveHeap is what a reopened session of 10,000
// messages keeps (issue 22: the long session adds at most 20 MB): the
// conversation restored from its stored messages, as the chat restores
// one, and the transcript shown from its active path at 120x40, settled.
// It reports the live heap after a collection, above what was live
// before: conv-MB the conversation alone, live-MB the conversation and
// the transcript. The messages' text is the fixture's, live before and
// after, so the figures are the structures that hold it.
func BenchmarkLongHistoryLiveHeap(b *testing.B) {
	msgs := longSession(10_000)
	for i := range msgs {
		msgs[i].Parent = i // one path: each message follows the one before
	}
	snap := conversation.Snapshot{Messages: msgs, Leaf: msgs[len(msgs)-1].ID}
	var conv, all uint64
	for b.Loop() {
		base := liveHeap()
		c := conversation.Restore(conversation.Options{ID: "long"}, snap)
		conv += liveHeap() - base
		tr := newTest(b, 120, 40)
		tr.ResetSeq(c.Len(), c.PathMessages())
		settle(b, tr)
		all += liveHeap() - base
		if tr.List().Len() != len(msgs) {
			b.Fatalf("the transcript holds %d messages, want %d", tr.List().Len(), len(msgs))
		}
		runtime.KeepAlive(c)
		runtime.KeepAlive(tr)
	}
	mb := func(v uint64) float64 { return float64(v) / float64(b.N) / (1 << 20) }
	b.ReportMetric(mb(conv), "conv-MB")
	b.ReportMetric(mb(all), "live-MB")
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
