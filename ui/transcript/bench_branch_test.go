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
						tr.List().Reveal(msgs[revealed].ID)
					}
					_ = tr.List().View()
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

// BenchmarkSwitchLongPath is the transcript's share of a switch in the chat
// as it is made now: SwitchPath to the long branch of 10,000 messages at
// 120x40, from a short branch of 6 whose last message is an alternative of
// the long branch's sixth, then the Reveal of that sixth message (the
// alternative switched to, where the window lands) and View. seen: the
// long branch was on screen before the short one (opened, the cursor on
// the sixth message), so its items are taken back; unseen: the transcript
// was reset to the short branch before each op (a session opened on it),
// so every message of the long branch is new to it. +settle also runs the
// ticks that follow until nothing is left to do.
func BenchmarkSwitchLongPath(b *testing.B) {
	timed := pprof.Labels("bench", "timed")
	long := longSession(10_000)
	const revealed = 5 // index of the alternative switched to
	alt := long[revealed]
	alt.ID, alt.Text = len(long)+1, "Shortbranch "+alt.Text
	short := append(long[:revealed:revealed], alt)
	for _, tc := range []struct {
		name           string
		unseen, settle bool
	}{
		{"seen", false, false},
		{"seen+settle", false, true},
		{"unseen", true, false},
		{"unseen+settle", true, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tr := newTest(b, 120, 40)
			tr.Reset(long)
			tr.List().Reveal(long[revealed].ID)
			settle(b, tr)
			var cpu time.Duration
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				if tc.unseen {
					tr.Reset(short)
				} else {
					tr.SwitchPath(short)
				}
				tr.List().Reveal(alt.ID)
				settle(b, tr)
				b.StartTimer()
				c0 := threadCPU()
				pprof.Do(ctx, timed, func(context.Context) {
					tr.SwitchPath(long)
					tr.List().Reveal(long[revealed].ID)
					_ = tr.List().View()
					if tc.settle {
						settle(b, tr)
					}
				})
				cpu += threadCPU() - c0
			}
			b.StopTimer()
			want := firstWords(long[revealed].Text)
			if view := strings.Join(plainView(tr), "\n"); !strings.Contains(view, want) || tr.List().Len() != len(long) {
				b.Fatalf("%d messages; the window does not show %q:\n%s", tr.List().Len(), want, view)
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
		})
	}
}
