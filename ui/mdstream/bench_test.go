package mdstream

import (
	"context"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
)

// The streaming benchmarks replay a message the way the UI receives it:
// deltas of 5–40 bytes (a token or a few) at 100 deltas/s, drawn in frames
// of 30 ms, so three deltas per frame. Each iteration streams the whole
// message. "naive" renders the whole message with glamour every frame;
// "incremental" uses Doc.Lines. Reported: ns/op, the wall time for one
// message; cpu-ms/op, the CPU time of the benchmark's thread for it;
// p99-ms, max-ms and mean-ms of the frames' wall times; p99-cpu-ms of the
// frames' CPU times. CPU time is what a busy machine inflates least; GC
// work done on other threads is in neither.

const (
	benchWidth      = 80
	deltasPerFrame  = 3 // 100 deltas/s, 30 ms frames
	benchMinDelta   = 5
	benchMaxDelta   = 40
	benchDeltaSeed  = 1
	benchAnswerFile = "testdata/bench/answer.md"
	benchCodeFile   = "testdata/bench/code.md"
)

func benchDoc(b *testing.B, path string) string {
	b.Helper()
	s, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return string(s)
}

// frames splits md into the text appended before each frame.
func frames(md string) []string {
	rng := rand.New(rand.NewSource(benchDeltaSeed))
	var out []string
	var cur strings.Builder
	n := 0
	for i := 0; i < len(md); {
		j := min(i+benchMinDelta+rng.Intn(benchMaxDelta-benchMinDelta+1), len(md))
		cur.WriteString(md[i:j])
		i = j
		n++
		if n == deltasPerFrame || i == len(md) {
			out = append(out, cur.String())
			cur.Reset()
			n = 0
		}
	}
	return out
}

// frameTimes records each frame's wall time and the CPU time of the
// benchmark's thread during it.
type frameTimes struct {
	wall, cpu []time.Duration
	c0        time.Duration
	start     time.Time
}

func (f *frameTimes) begin() {
	f.start = time.Now()
	f.c0 = threadCPU()
}

func (f *frameTimes) end() {
	f.wall = append(f.wall, time.Since(f.start))
	f.cpu = append(f.cpu, threadCPU()-f.c0)
}

// p99 is the nearest-rank 99th percentile.
func p99(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)*99+99)/100-1]
}

func (f *frameTimes) report(b *testing.B) {
	var total, cpu time.Duration
	for _, d := range f.wall {
		total += d
	}
	for _, d := range f.cpu {
		cpu += d
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(p99(f.wall))/1e6, "p99-ms")
	b.ReportMetric(float64(slices.Max(f.wall))/1e6, "max-ms")
	b.ReportMetric(float64(total)/float64(len(f.wall))/1e6, "mean-ms")
	b.ReportMetric(float64(p99(f.cpu))/1e6, "p99-cpu-ms")
	b.ReportMetric(float64(len(f.wall))/float64(b.N), "frames")
}

func benchStream(b *testing.B, path string) {
	md := benchDoc(b, path)
	fr := frames(md)
	style := *styles.DefaultStyles["dark"]

	b.Run("naive", func(b *testing.B) {
		tr, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(benchWidth))
		if err != nil {
			b.Fatal(err)
		}
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var times frameTimes
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var src strings.Builder
			for _, f := range fr {
				src.WriteString(f)
				times.begin()
				out, err := tr.Render(src.String())
				if err != nil {
					b.Fatal(err)
				}
				_ = strings.Split(out, "\n")
				times.end()
			}
		}
		b.StopTimer()
		times.report(b)
	})

	b.Run("incremental", func(b *testing.B) {
		r, err := NewRenderer(benchWidth, style)
		if err != nil {
			b.Fatal(err)
		}
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var times frameTimes
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			d := &Doc{}
			for k, f := range fr {
				times.begin()
				d.Append(f)
				if k == len(fr)-1 {
					d.Finish()
				}
				_ = d.Lines(r)
				times.end()
			}
		}
		b.StopTimer()
		times.report(b)
	})
}

// BenchmarkStream20KB streams a ~20 KB answer (headings, paragraphs,
// lists, a table, three code blocks).
func BenchmarkStream20KB(b *testing.B) { benchStream(b, benchAnswerFile) }

// BenchmarkStreamCode10KB streams one ~10 KB fenced code block.
func BenchmarkStreamCode10KB(b *testing.B) { benchStream(b, benchCodeFile) }

// BenchmarkAppend is the cost of taking one 19-byte delta. "grow": each
// 64 KB message is a new Doc, so the growth of its source is counted (at
// this benchmark's allocation rate the garbage collector runs constantly,
// which it does not at 100 deltas/s). "steady": the source's capacity is
// reused, the copy alone.
func BenchmarkAppend(b *testing.B) {
	const delta = "some streamed text "
	b.Run("grow", func(b *testing.B) {
		d := &Doc{}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if d.Len() >= 64<<10 {
				d = &Doc{}
			}
			d.Append(delta)
		}
	})
	b.Run("steady", func(b *testing.B) {
		d := &Doc{}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if d.Len() >= 64<<10 {
				d.src = d.src[:0]
			}
			d.Append(delta)
		}
	})
}

// BenchmarkRelayout is re-rendering a finished 20 KB answer at a new
// width (two renderers alternate), next to one whole glamour render.
func BenchmarkRelayout(b *testing.B) {
	md := benchDoc(b, benchAnswerFile)
	style := *styles.DefaultStyles["dark"]
	r1, err := NewRenderer(benchWidth, style)
	if err != nil {
		b.Fatal(err)
	}
	r2, err := NewRenderer(benchWidth-1, style)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("doc", func(b *testing.B) {
		d := NewDoc(md)
		d.Finish()
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				d.Lines(r1)
			} else {
				d.Lines(r2)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r1.Render(md)
		}
	})
}

// BenchmarkHostile renders the replies of issue 7 that froze the chat.
// "whole" is Renderer.Render of the whole reply (no budget, so the cost is
// the real one); "stream" streams it in 64-byte deltas, a Frame every three
// deltas and each Job run at once, as the chat does (cpu-ms/op: all of it;
// max-frame-ms: the worst Frame, the part on the UI goroutine); "glamour"
// is glamour's own renderer on the same text, what a render cost before,
// where it finishes at all (100 nested quotes and 400 nested lists take
// minutes and gigabytes: the baseline is left out).
func BenchmarkHostile(b *testing.B) {
	style := *styles.DefaultStyles["dark"]
	docs := hostileDocs()
	for _, name := range []string{"quotes", "inline lists", "lists", "fences", "stars", "emphasis", "mixed"} {
		md := docs[name][0]
		name = strings.ReplaceAll(name, " ", "-")
		b.Run(name+"/whole", func(b *testing.B) {
			r, err := NewRenderer(benchWidth, style)
			if err != nil {
				b.Fatal(err)
			}
			r.SetBudget(0, nil)
			b.ReportAllocs()
			for range b.N {
				r.Render(md)
			}
		})
		b.Run(name+"/stream", func(b *testing.B) {
			r, err := NewRenderer(benchWidth, style)
			if err != nil {
				b.Fatal(err)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			var worst, cpu time.Duration
			for range b.N {
				c0 := threadCPU()
				d := &Doc{}
				frame := func() {
					f0 := threadCPU()
					_, next := d.Frame(r)
					worst = max(worst, threadCPU()-f0)
					if next == NeedJob {
						j := d.Job(r)
						j.Run(context.Background())
						d.Apply(j)
					}
				}
				for i, k := 0, 0; i < len(md); i, k = i+64, k+1 {
					d.Append(md[i:min(i+64, len(md))])
					if k%3 == 2 {
						frame()
					}
				}
				d.Finish()
				for _, ok := d.Cached(r); !ok; _, ok = d.Cached(r) {
					frame()
				}
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(worst)/1e6, "max-frame-ms")
		})
		if name == "quotes" || name == "inline-lists" || name == "lists" || name == "mixed" {
			continue
		}
		b.Run(name+"/glamour", func(b *testing.B) {
			tr, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(benchWidth))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for range b.N {
				if _, err := tr.Render(md); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
