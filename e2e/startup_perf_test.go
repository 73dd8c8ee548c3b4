package e2e

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// startMark is what the first-frame wrapper prints right before it starts
// parley, through the same pane (and so the same pipe-pane copy) as
// parley's first frame, so the two are timed alike.
const startMark = "e2e: exec parley now"

// firstFrameWrapper is wrapperScript with startMark printed by the shell
// that then execs parley, so the time starts at the exec: printed by the
// wrapper before it, the mark also timed the start of that shell, 4–5 ms
// of a trivial program's 14 ms here (BENCHMARKS.md, "The first frame from
// the exec").
var firstFrameWrapper = strings.Replace(wrapperScript,
	`exec "$@"'`,
	`printf "%s\\n" "`+startMark+`"; exec "$@"'`, 1)

// TestPerfFirstFrame measures how long parley takes from exec to its first
// frame in a real terminal: a prebuilt binary, a 120x40 tmux pane (another
// size with PARLEY_PERF_SIZE=80x24), parley run as inside tmux (TMUX set,
// so whatever asks tmux is timed too; PARLEY_PERF_TMUX=0 runs it without),
// a config naming the model (so the frame shows the composer) and a fake
// gateway. The time is from the line the shell prints just before it execs
// parley to the composer's placeholder in the bytes the pane receives,
// both seen through pipe-pane by polling every millisecond. The first
// start creates the history database and is reported on its own; the next
// starts (PARLEY_PERF_RUNS, default 10) open it, as every later start
// does, and the test reports their minimum, median and maximum:
//
//	PARLEY_PERF=1 go test ./e2e/ -run TestPerfFirstFrame -count 1 -v
//
// PARLEY_PERF_BIN=/abs/path/parley times another build (see perfBin), and
// PARLEY_PERF_ENV="NAME=value ..." adds to parley's environment.
func TestPerfFirstFrame(t *testing.T) {
	if os.Getenv("PARLEY_PERF") == "" {
		t.Skip("the start-up measurement starts parley many times; set PARLEY_PERF=1 to run it")
	}
	if raceBuild {
		t.Skip("the race detector makes everything many times slower; measure without -race")
	}
	bin := perfBin(t)
	runs := 10
	if n := os.Getenv("PARLEY_PERF_RUNS"); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 || v > 100 {
			t.Fatalf("PARLEY_PERF_RUNS=%q: want a number of runs from 1 to 100", n)
		}
		runs = v
	}
	w, h := 120, 40
	if s := os.Getenv("PARLEY_PERF_SIZE"); s != "" {
		a, b, _ := strings.Cut(s, "x")
		var errA, errB error
		w, errA = strconv.Atoi(a)
		h, errB = strconv.Atoi(b)
		if errA != nil || errB != nil || w < 40 || h < 10 || w > 500 || h > 200 {
			t.Fatalf("PARLEY_PERF_SIZE=%q: write the pane's size as WIDTHxHEIGHT, from 40x10 to 500x200", s)
		}
	}
	l := launch{Width: w, Height: h, Config: chatConfig, wrapper: firstFrameWrapper, bin: bin, inTmux: os.Getenv("PARLEY_PERF_TMUX") != "0",
		Env: strings.Fields(os.Getenv("PARLEY_PERF_ENV"))}
	l.Gateway = apitest.New(t)
	l.home = t.TempDir()
	t.Logf("%dx%d pane, TMUX set: %v", w, h, l.inTmux)
	t.Logf("first start (creates the history database): first frame %v after exec",
		firstFrame(t, l).Round(100*time.Microsecond))
	times := make([]time.Duration, 0, runs)
	for i := range runs {
		d := firstFrame(t, l)
		t.Logf("run %d: first frame %v after exec", i+1, d.Round(100*time.Microsecond))
		times = append(times, d)
	}
	slices.Sort(times)
	t.Logf("first frame after exec over %d runs: min %v, median %v, max %v",
		runs, times[0].Round(100*time.Microsecond), times[runs/2].Round(100*time.Microsecond),
		times[runs-1].Round(100*time.Microsecond))
}

// firstFrame starts parley as l says once and returns the time from
// startMark to the composer on screen.
func firstFrame(t *testing.T, l launch) time.Duration {
	t.Helper()
	tm := startParley(t, l)
	defer tm.close()
	var started, shown time.Time
	deadline := time.Now().Add(waitTimeout)
	for shown.IsZero() {
		if time.Now().After(deadline) {
			t.Fatalf("no first frame within %v; the screen:\n%s", waitTimeout, frame(tm.screen()))
		}
		raw := tm.rawOutput()
		now := time.Now()
		i := bytes.Index(raw, []byte(startMark))
		if i >= 0 && started.IsZero() {
			started = now
		}
		if i >= 0 && bytes.Contains(raw[i:], []byte(composerReady)) {
			shown = now
		}
		time.Sleep(time.Millisecond)
	}
	tm.keys("C-q")
	if ex := tm.waitExit(); ex.status != 0 {
		t.Errorf("parley exited with status %d", ex.status)
	}
	return shown.Sub(started)
}
