package transcript

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// BenchmarkResetLongPath is the transcript's share of a switch to a branch
// of 10,000 messages at 120x40 (issue 16: a switch draws within 16 ms):
// the chat's listener hands the new path to Reset, the message cursor
// reveals the alternative it switched to, and View draws the window.
// bottom is Reset and View alone (the path's end on screen, as after
// opening a session); reveal adds the Reveal of the seventh message, near
// the top, which is what a switch at an early reply does; reveal+settle
// also runs the ticks that follow until nothing is left to do (what is
// near the window rendered, background renders run at once), the CPU the
// switch costs over the frames after it. Each op starts from the 6
// messages of the other branch, as a switch back and forth does. In a
// -cpuprofile, -tagfocus bench=timed keeps the timed part alone.
func BenchmarkResetLongPath(b *testing.B) {
	timed := pprof.Labels("bench", "timed")
	msgs := longSession(10_000)
	short := msgs[:6]
	const revealed = 6 // index of the alternative switched to
	for _, tc := range []struct {
		name           string
		reveal, settle bool
	}{
		{"bottom", false, false},
		{"reveal", true, false},
		{"reveal+settle", true, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tr := newTest(b, 120, 40)
			tr.Reset(msgs)
			settle(b, tr)
			var cpu time.Duration
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				tr.Reset(short)
				settle(b, tr)
				b.StartTimer()
				c0 := threadCPU()
				pprof.Do(ctx, timed, func(context.Context) {
					tr.Reset(msgs)
					if tc.reveal {
						tr.Reveal(msgs[revealed].ID)
					}
					_ = tr.View()
					if tc.settle {
						settle(b, tr)
					}
				})
				cpu += threadCPU() - c0
			}
			b.StopTimer()
			want := lastWords(msgs[len(msgs)-1].Text)
			if tc.reveal {
				want = firstWords(msgs[revealed].Text)
			}
			if view := strings.Join(plainView(tr), "\n"); !strings.Contains(view, want) {
				b.Fatalf("the window does not show %q:\n%s", want, view)
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
		})
	}
}
