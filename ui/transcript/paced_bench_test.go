package transcript

import (
	"os"
	"runtime"
	"testing"
	"time"

	"parley/conversation"
)

// BenchmarkStreamPaced streams the 20 KB benchmark answer the real binary
// streams in BENCHMARKS.md ("Streaming in a real terminal": ui/mdstream's
// testdata/bench/answer.md as 3-rune deltas) at the chat's pace: a frame
// (Tick and View) every 100 ms, the deltas of 100 ms (about 18) appended
// before it. It reports the CPU the transcript costs the Update goroutine
// over the stream (cpu-ms) and per frame, at three terminal sizes.
func BenchmarkStreamPaced(b *testing.B) {
	answer, err := os.ReadFile("../mdstream/testdata/bench/answer.md")
	if err != nil {
		b.Fatal(err)
	}
	runes := []rune(string(answer))
	var deltas []string
	for i := 0; i < len(runes); i += 3 {
		deltas = append(deltas, string(runes[i:min(i+3, len(runes))]))
	}
	const perFrame = 18 // 175 deltas a second, 10 frames
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"120x40", 120, 40}, {"200x60", 200, 60}} {
		b.Run(size.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			frames := 0
			for b.Loop() {
				tr := newTest(b, size.w, size.h)
				tr.Append(userMsg(1, "Explain streaming Markdown"))
				tr.Append(streamingMsg(2))
				c0 := threadCPU()
				for i := 0; i < len(deltas); i += perFrame {
					for _, d := range deltas[i:min(i+perFrame, len(deltas))] {
						tr.AppendDelta(2, d)
					}
					tickRun(tr)
					_ = tr.List().View()
					frames++
				}
				done := streamingMsg(2)
				done.Text, done.State, done.FinishReason = string(answer), conversation.StateDone, "stop"
				tr.Update(done)
				settle(b, tr)
				_ = tr.List().View()
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms")
			b.ReportMetric(float64(cpu)/float64(frames)/float64(time.Microsecond), "cpu-µs/frame")
		})
	}
}
