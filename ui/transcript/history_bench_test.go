package transcript

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkOpenHistory opens a 10,000-message conversation (Reset, then
// ticks until the transcript has nothing left to do, its background
// renders run at once) at 120x40: what --continue costs the Update
// goroutine.
func BenchmarkOpenHistory(b *testing.B) {
	msgs := longSession(10_000)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	for b.Loop() {
		c0 := threadCPU()
		tr := newTest(b, 120, 40)
		tr.Reset(msgs)
		settle(b, tr)
		cpu += threadCPU() - c0
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
}

// BenchmarkPageUpHistory pages up from the end of a 10,000-message
// conversation to its first line at 120x40, a tick after each key as the
// chat runs, and reports the CPU of the slowest page, the 99th percentile
// and the whole way.
func BenchmarkPageUpHistory(b *testing.B) {
	msgs := longSession(10_000)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var pages []time.Duration
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		tr := newTest(b, 120, 40)
		tr.Reset(msgs)
		settle(b, tr)
		b.StartTimer()
		for tr.list.top() > 0 {
			c0 := threadCPU()
			tr.List().PageUp()
			tickRun(tr)
			_ = tr.List().View()
			d := threadCPU() - c0
			pages = append(pages, d)
			total += d
		}
	}
	slices.Sort(pages)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(len(pages))/float64(b.N), "pages/op")
	b.ReportMetric(ms(total)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(ms(pages[len(pages)*99/100]), "p99-page-ms")
	b.ReportMetric(ms(pages[len(pages)-1]), "max-page-ms")
}
