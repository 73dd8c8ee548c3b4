package transcript

import (
	"runtime"
	"testing"
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
	snap := longSnapshot(10_000)
	var conv, all uint64
	for b.Loop() {
		c, tr, convHeap, allHeap := reopen(b, snap)
		conv += convHeap
		all += allHeap
		runtime.KeepAlive(c)
		runtime.KeepAlive(tr)
	}
	mb := func(v uint64) float64 { return float64(v) / float64(b.N) / (1 << 20) }
	b.ReportMetric(mb(conv), "conv-MB")
	b.ReportMetric(mb(all), "live-MB")
}
