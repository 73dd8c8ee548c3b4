package transcript

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/viewport"

	"parley/conversation"
)

// Benchmarks for the targets of issue 3 (Performance). Run:
//
//	go test -run '^$' -bench . -benchtime 1x ./ui/transcript/   (quick)
//	go test -run '^$' -bench . ./ui/transcript/                 (numbers)
//
// Each benchmark keeps its naive baseline in the same run.

const benchW, benchH = 120, 40

// streamFixture is a transcript with a finished conversation above a reply
// streaming at about size bytes.
type streamFixture struct {
	b      *testing.B
	tr     *Transcript
	size   int
	text   string   // the whole reply the stream draws from
	deltas []string // text after the first size bytes, as deltas
	next   int
	id     int
}

func newStreamFixture(b *testing.B, size int, naive bool) *streamFixture {
	b.Helper()
	f := &streamFixture{b: b, size: size}
	f.tr = newTest(b, benchW, benchH)
	f.tr.c.naive = naive
	f.tr.Reset(conversationOf(20, 1))
	settle(b, f.tr)
	f.text = answer(randFor(uint64(size)), size+64_000)
	f.deltas = splitDeltas(f.text[size:], 8, 2)
	f.start()
	return f
}

// start begins a new reply holding the first size bytes, rendered.
func (f *streamFixture) start() {
	if f.id != 0 {
		f.tr.Remove([]int{f.id})
	}
	f.id = 1000 + f.next
	f.tr.Append(streamingMsg(f.id))
	f.tr.AppendDelta(f.id, f.text[:f.size])
	settle(f.b, f.tr)
	f.next = 0
}

// delta appends the next delta; the reply starts over once it has grown
// by half its size (or the material runs out), so "in flight" stays near size.
func (f *streamFixture) delta() {
	f.tr.AppendDelta(f.id, f.deltas[f.next])
	f.next++
}

func (f *streamFixture) grown() bool {
	return f.next >= len(f.deltas) || f.next*4 > f.size/2+4096
}

// cpuClock follows the benchmark timer and also adds up the thread CPU
// time of the timed sections, reported as cpu-ns/op next to ns/op: on a
// busy machine the wall clock counts time the benchmark spent waiting for
// a core. The benchmark goroutine is locked to its thread while it runs.
type cpuClock struct {
	b       *testing.B
	cpu     time.Duration
	started time.Duration
}

func startCPU(b *testing.B) *cpuClock {
	runtime.LockOSThread()
	c := &cpuClock{b: b}
	b.ResetTimer()
	c.started = threadCPU()
	return c
}

func (c *cpuClock) stop() {
	c.cpu += threadCPU() - c.started
	c.b.StopTimer()
}

func (c *cpuClock) start() {
	c.b.StartTimer()
	c.started = threadCPU()
}

// done stops the clock and reports cpu-ns/op.
func (c *cpuClock) done() {
	c.stop()
	runtime.UnlockOSThread()
	c.b.ReportMetric(float64(c.cpu.Nanoseconds())/float64(c.b.N), "cpu-ns/op")
}

// BenchmarkStreamDelta measures one stream delta with a 1 KB and a 100 KB
// reply in flight: "delta+view" is AppendDelta then View (what every
// delta message costs the root); "frame" is Tick then View, once per frame
// (about every third delta at 100 deltas/s and 33 ms frames), where the
// reply's unfinished tail is rendered. The other part is excluded from
// each timing.
func BenchmarkStreamDelta(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run(name+"/delta+view", func(b *testing.B) {
			f := newStreamFixture(b, size, false)
			b.ReportAllocs()
			c := startCPU(b)
			for i := range b.N {
				f.delta()
				_ = f.tr.List().View()
				if i%3 == 2 {
					c.stop()
					tickRun(f.tr)
					if f.grown() {
						f.start()
					}
					c.start()
				}
			}
			c.done()
		})
		b.Run(name+"/frame", func(b *testing.B) {
			f := newStreamFixture(b, size, false)
			b.ReportAllocs()
			c := startCPU(b)
			for range b.N {
				c.stop()
				for range 3 {
					f.delta()
				}
				if f.grown() {
					f.start()
					f.delta()
				}
				c.start()
				tickRun(f.tr)
				_ = f.tr.List().View()
			}
			c.done()
		})
	}
}

// viewFixtures builds transcripts of finished conversations, every message
// rendered, for the View benchmarks.
// The last 20 messages are the same in every fixture, so the window at the
// bottom shows the same text whatever the length.
func viewFixture(b *testing.B, n int) *Transcript {
	tr := newTest(b, benchW, benchH)
	msgs := conversationOf(n-20, 42)
	for _, m := range conversationOf(20, 43) {
		m.ID += n
		msgs = append(msgs, m)
	}
	tr.Reset(msgs)
	settle(b, tr)
	return tr
}

func allLines(tr *Transcript) []string {
	var out []string
	for _, it := range tr.list.items {
		for k := 0; k < it.height(); k++ {
			out = append(out, it.line(k))
		}
	}
	return out
}

// BenchmarkView measures View with 125, 500 and 2,000 finished messages
// (alternating questions and Markdown replies of 0.3–2.5 KB), at the
// bottom and scrolled to the middle; the baseline is what a transcript
// built on bubbles' viewport does per update: SetContent of the whole
// transcript, then View.
func BenchmarkView(b *testing.B) {
	sizes := []int{125, 500, 2000}
	fixtures := map[int]*Transcript{}
	for _, n := range sizes {
		fixtures[n] = viewFixture(b, n)
	}
	for _, n := range sizes {
		tr := fixtures[n]
		b.Run(fmt.Sprintf("%d/bottom", n), func(b *testing.B) {
			tr.List().Bottom()
			b.ReportAllocs()
			c := startCPU(b)
			for range b.N {
				_ = tr.List().View()
			}
			c.done()
		})
		b.Run(fmt.Sprintf("%d/middle", n), func(b *testing.B) {
			tr.List().Top()
			tr.List().LineDown(tr.list.hs.total() / 2)
			b.ReportAllocs()
			c := startCPU(b)
			for range b.N {
				_ = tr.List().View()
			}
			c.done()
			tr.List().Bottom()
		})
		b.Run(fmt.Sprintf("%d/naive-viewport", n), func(b *testing.B) {
			content := strings.Join(allLines(tr), "\n")
			vp := viewport.New(viewport.WithWidth(benchW), viewport.WithHeight(benchH))
			b.ReportAllocs()
			c := startCPU(b)
			for range b.N {
				vp.SetContent(content)
				vp.GotoBottom()
				_ = vp.View()
			}
			c.done()
		})
	}
}

// BenchmarkResize measures the time from a width change to the first
// complete frame with 500 finished messages: SetSize renders the messages
// in the window, estimates the rest, View joins the lines. Each iteration
// alternates between two widths, neither the one the fixture was rendered
// at, so nothing is reused from a previous iteration and every message
// outside the window is stale at the end. "lazy-rest" reports the total
// time Tick then spends
// rendering the other messages (spread over frames, at most about 4 ms
// each). The baseline renders every message at the new width before the
// first frame.
func BenchmarkResize(b *testing.B) {
	b.Run("500/first-frame", func(b *testing.B) {
		tr := viewFixture(b, 500)
		widths := []int{benchW - 20, benchW - 10} // neither is the fixture's width
		var lazy time.Duration
		var ticks int
		c := startCPU(b)
		for i := range b.N {
			tr.SetSize(widths[i%2], benchH)
			_ = tr.List().View()
			if i == b.N-1 {
				c.stop()
				start := threadCPU()
				ticks = settle(b, tr)
				lazy = threadCPU() - start
				c.start()
			}
		}
		c.done()
		b.ReportMetric(float64(lazy.Milliseconds()), "lazy-rest-ms")
		b.ReportMetric(float64(ticks), "lazy-ticks")
	})
	b.Run("500/naive-render-all", func(b *testing.B) {
		tr := viewFixture(b, 500)
		widths := []int{benchW - 20, benchW - 10} // neither is the fixture's width
		c := startCPU(b)
		for i := range b.N {
			tr.SetSize(widths[i%2], benchH)
			for tr.list.lazy {
				tr.list.lazyStep(time.Now().Add(time.Hour))
			}
			_ = tr.List().View()
		}
		c.done()
	})
}

// streamRun is the outcome of streaming one reply through a transcript in
// simulated time. Wall-clock figures include whatever else the machine was
// running; thread CPU figures are the work itself.
type streamRun struct {
	wall, cpu  time.Duration   // all transcript work: deltas, ticks, views
	proc       time.Duration   // process CPU (all threads, background GC included)
	frames     []time.Duration // Tick+View per frame, thread CPU
	wallFrames []time.Duration // the same, wall clock
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)*p+99)/100-1]
}

// simulateStream streams text at 100 deltas/s with a 33 ms frame tick,
// as the root does: every delta message is AppendDelta then View; every
// frame is Tick then View. Time is simulated; only the work is measured,
// on a goroutine locked to its thread so that thread CPU time can be read.
func simulateStream(b testing.TB, text string, naive bool) streamRun {
	done := streamingMsg(101)
	done.Text, done.State = text, conversation.StateDone
	return simulateDeltas(b, text, naive, (*Transcript).AppendDelta, done)
}

// simulateDeltas is simulateStream with the deltas of text handed to the
// transcript by send (AppendDelta, AppendReasoning), and done as the
// reply's end.
func simulateDeltas(b testing.TB, text string, naive bool, send func(*Transcript, int, string), done conversation.Message) streamRun {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tr := newTest(b, benchW, benchH)
	tr.c.naive = naive
	tr.Reset(conversationOf(6, 9))
	settle(b, tr)
	tr.Append(userMsg(100, "explain"))
	tr.Append(streamingMsg(101))
	deltas := splitDeltas(text, 8, 77)
	const deltaEvery, frameEvery = 10 * time.Millisecond, 33 * time.Millisecond

	var run streamRun
	measure := func(work func()) (wall, cpu time.Duration) {
		w0, c0 := time.Now(), threadCPU()
		work()
		wall, cpu = time.Since(w0), threadCPU()-c0
		run.wall += wall
		run.cpu += cpu
		return wall, cpu
	}
	runtime.GC()
	proc0 := processCPU()
	next := 0
	for now := time.Duration(0); ; now += frameEvery {
		for next < len(deltas) && time.Duration(next)*deltaEvery <= now {
			measure(func() {
				send(tr, 101, deltas[next])
				_ = tr.List().View()
			})
			next++
		}
		wall, cpu := measure(func() {
			tickRun(tr)
			_ = tr.List().View()
		})
		run.frames = append(run.frames, cpu)
		run.wallFrames = append(run.wallFrames, wall)
		if next == len(deltas) {
			break
		}
	}
	measure(func() {
		tr.Update(done)
		_ = tr.List().View()
	})
	run.proc = processCPU() - proc0
	return run
}

func benchStream(b *testing.B, text string) {
	var inc, naive streamRun
	for range b.N {
		inc = simulateStream(b, text, false)
		naive = simulateStream(b, text, true)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(len(inc.frames)), "frames")
	b.ReportMetric(ms(inc.cpu), "cpu-ms")
	b.ReportMetric(ms(naive.cpu), "naive-cpu-ms")
	b.ReportMetric(float64(inc.cpu)/float64(naive.cpu), "cpu-ratio")
	b.ReportMetric(ms(inc.proc), "proc-cpu-ms")
	b.ReportMetric(ms(naive.proc), "naive-proc-cpu-ms")
	b.ReportMetric(float64(inc.proc)/float64(naive.proc), "proc-cpu-ratio")
	b.ReportMetric(ms(pct(inc.frames, 99)), "p99-frame-ms")
	b.ReportMetric(ms(slices.Max(inc.frames)), "max-frame-ms")
	b.ReportMetric(ms(pct(inc.wallFrames, 99)), "p99-frame-wall-ms")
	b.ReportMetric(ms(pct(naive.frames, 99)), "naive-p99-frame-ms")
}

// BenchmarkStream20KB streams a ~20 KB Markdown answer (paragraphs, lists,
// code, tables) at 100 deltas/s with 33 ms frames, through the transcript
// and through a naive one that renders the whole reply again every frame.
func BenchmarkStream20KB(b *testing.B) {
	benchStream(b, answer(randFor(20), 20_000))
}

// BenchmarkStreamCodeBlock10KB streams one 10 KB fenced code block, the
// worst case for block caching (one block that stays open).
func BenchmarkStreamCodeBlock10KB(b *testing.B) {
	text := codeBlock(randFor(10), 1)
	for n := 2; len(text) < 10_000; n++ {
		text = codeBlock(randFor(10), n)
	}
	benchStream(b, text)
}
