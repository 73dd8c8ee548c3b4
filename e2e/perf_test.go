package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"parley/api/apitest"
)

// The streaming budget of issue 6 §5: a ~20 KB Markdown answer at about
// 200 deltas a second in a 120x40 tmux pane.
const (
	perfMaxCPU   = 1500 * time.Millisecond // parley's CPU (user + system) during the stream
	perfMaxBytes = 100 << 10               // bytes parley writes to the terminal during the stream
	// perfMaxLag is how long after the gateway's last byte the whole reply
	// may take to be on screen: parley keeps pace with the stream.
	perfMaxLag = time.Second
	// clockTick is the unit of utime and stime in /proc/<pid>/stat
	// (USER_HZ, 100 on every Linux this runs on).
	clockTick = 10 * time.Millisecond
)

// TestPerfStream20KB streams the 20 KB benchmark answer (ui/mdstream's
// testdata) as 3-rune deltas every 5 ms into the real binary in a 120x40
// tmux pane and measures what the stream costs parley: CPU time from
// /proc/<pid>/stat, bytes written to the pane (pipe-pane), write calls and
// context switches, and how far the screen trails the gateway. It takes
// about 40 s, so it runs only when asked:
//
//	PARLEY_PERF=1 go test ./e2e/ -run TestPerfStream20KB -count 1 -v
//
// PARLEY_PERF_PROFILE=/abs/path/cpu.pprof also has parley write a CPU
// profile of the session (PARLEY_CPUPROFILE); PARLEY_PERF_SIZE=WxH changes
// the pane size (the budget is for 120x40); PARLEY_PERF_RAW=path keeps the
// bytes parley wrote during the stream; PARLEY_PERF_ENV="K=v K2=v2" adds to
// parley's environment (e.g. GODEBUG settings to compare); PARLEY_PERF_BIN
// measures another build (perfBin).
func TestPerfStream20KB(t *testing.T) {
	answer, gw := perfStream(t)
	w, h := 120, 40
	if size := os.Getenv("PARLEY_PERF_SIZE"); size != "" {
		if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w < 40 || h < 12 {
			t.Fatalf("PARLEY_PERF_SIZE=%q: want WIDTHxHEIGHT, at least 40x12, e.g. 120x40", size)
		}
	}
	env := strings.Fields(os.Getenv("PARLEY_PERF_ENV"))
	if p := os.Getenv("PARLEY_PERF_PROFILE"); p != "" {
		if !filepath.IsAbs(p) {
			t.Fatalf("PARLEY_PERF_PROFILE=%q: give an absolute path (parley runs in another directory)", p)
		}
		env = append(env, "PARLEY_CPUPROFILE="+p)
	}

	tm := startParley(t, launch{Width: w, Height: h, Gateway: gw, Config: chatConfig, Env: env, bin: perfBin(t)})
	tm.waitText(composerReady)
	pid := tm.parleyPID()

	const prompt = "Explain streaming Markdown"
	tm.typeText(prompt)
	tm.waitText(prompt)
	// Let the typing settle so only the stream is measured.
	time.Sleep(500 * time.Millisecond)
	before := readProc(t, pid)
	rawBefore := len(tm.rawOutput())

	// The gateway's end of the stream, seen from the test process.
	var gwStart, gwEnd atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for gw.InFlight() == 0 {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
		gwStart.Store(time.Now().UnixNano())
		for gw.InFlight() > 0 {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
		gwEnd.Store(time.Now().UnixNano())
	}()

	start := time.Now()
	tm.keys("Enter")
	lastWords := lastLineWords(string(answer))
	var screen string
	deadline := start.Add(3 * time.Minute)
	for {
		screen = tm.screen()
		if !strings.Contains(screen, "writing…") && strings.Contains(screen, lastWords) {
			break
		}
		if strings.Contains(screen, exitedMark) || time.Now().After(deadline) {
			t.Fatalf("the reply did not finish on screen (wanted %q and no \"writing…\"); the screen:\n%s", lastWords, frame(screen))
		}
		time.Sleep(20 * time.Millisecond)
	}
	shown := time.Now()
	after := readProc(t, pid)
	// pipe-pane copies asynchronously: give it a moment to catch up.
	time.Sleep(300 * time.Millisecond)
	raw := tm.rawOutput()[rawBefore:]
	written := len(raw)
	if p := os.Getenv("PARLEY_PERF_RAW"); p != "" {
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Errorf("PARLEY_PERF_RAW: %v", err)
		}
	}

	if gwEnd.Load() == 0 {
		t.Fatalf("the gateway's stream was not seen to end")
	}
	streamed := time.Duration(gwEnd.Load() - gwStart.Load())
	lag := shown.Sub(time.Unix(0, gwEnd.Load()))
	cpu := after.cpu - before.cpu
	deltas := (len([]rune(string(answer))) + perfDeltaRunes - 1) / perfDeltaRunes
	t.Logf("pane %dx%d; %d bytes of Markdown as %d deltas in %v (%.0f deltas/s)", w, h, len(answer), deltas, streamed.Round(time.Millisecond), float64(deltas)/streamed.Seconds())
	t.Logf("parley: CPU %v (user %v, system %v); %.1f KB written to the pane in %d write calls (%d bytes by the kernel's count); %d voluntary and %d involuntary context switches of its live threads; %d minor page faults; on screen %v after the gateway's last byte",
		cpu, after.user-before.user, after.sys-before.sys, float64(written)/1024, after.syscw-before.syscw, after.wchar-before.wchar,
		after.volCtx-before.volCtx, after.involCtx-before.involCtx, after.minflt-before.minflt, lag.Round(time.Millisecond))

	if cpu > perfMaxCPU {
		t.Errorf("the stream cost parley %v of CPU; the budget is %v", cpu, perfMaxCPU)
	}
	if written > perfMaxBytes {
		t.Errorf("parley wrote %d bytes to the terminal during the stream; the budget is %d", written, perfMaxBytes)
	}
	if lag > perfMaxLag {
		t.Errorf("the reply was complete on screen %v after the gateway finished; parley falls behind the stream (budget %v)", lag, perfMaxLag)
	}

	// Quit properly so a requested profile is written.
	tm.keys("C-q")
	if ex := tm.waitExit(); ex.status != 0 {
		t.Errorf("parley exited with status %d", ex.status)
	}
}

// The stream both measurements use: the 20 KB answer as 3-rune deltas,
// one every 5 ms (about 175 a second on a busy machine, 200 at best).
const (
	perfDeltaRunes = 3
	perfInterval   = 5 * time.Millisecond
)

// perfStream skips unless PARLEY_PERF is set and returns the benchmark
// answer and a gateway that streams it once.
func perfStream(t *testing.T) ([]byte, *apitest.Server) {
	t.Helper()
	if os.Getenv("PARLEY_PERF") == "" {
		t.Skip("the streaming measurements take about 40 s each; set PARLEY_PERF=1 to run them")
	}
	if raceBuild {
		t.Skip("the race detector makes everything many times slower; measure without -race")
	}
	answer, err := os.ReadFile(filepath.Join("..", "ui", "mdstream", "testdata", "bench", "answer.md"))
	if err != nil {
		t.Fatal(err)
	}
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: string(answer), DeltaRunes: perfDeltaRunes, Interval: perfInterval})
	return answer, gw
}

// TestPerfRawPipe20KB is the reference for TestPerfStream20KB: the same
// stream, as raw SSE, piped to the same 120x40 pane by curl, which costs
// what reading ~200 small events a second and writing them to a terminal
// costs at least. The shell's times builtin reports curl's CPU.
//
//	PARLEY_PERF=1 go test ./e2e/ -run TestPerfRawPipe20KB -count 1 -v
func TestPerfRawPipe20KB(t *testing.T) {
	answer, gw := perfStream(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	body := `{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"Explain streaming Markdown"}]}`
	script := `curl -sSN -H "Authorization: Bearer $1" -H "Content-Type: application/json" -d "$2" "$3"; times`
	tm := startParley(t, launch{Width: 120, Height: 40, command: []string{"sh", "-c", script, "sh", apitest.DefaultAPIKey, body, gw.URL() + "/chat/completions"}})
	start := time.Now()
	for deadline := start.Add(3 * time.Minute); !strings.Contains(tm.screen(), exitedMark); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("curl did not finish; the screen:\n%s", frame(tm.screen()))
		}
	}
	elapsed := time.Since(start)
	ex := tm.waitExit()
	if ex.status != 0 {
		t.Fatalf("curl failed (status %d); the screen:\n%s", ex.status, frame(ex.screen))
	}
	// times prints the shell's user and system time, then its children's.
	lines := regexp.MustCompile(`(?m)^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$`).FindAllStringSubmatch(ex.screen, -1)
	if len(lines) < 2 {
		t.Fatalf("no times output on the screen:\n%s", frame(ex.screen))
	}
	child := lines[len(lines)-1]
	dur := func(min, sec string) time.Duration {
		mn, _ := strconv.Atoi(min)
		sc, _ := strconv.ParseFloat(sec, 64)
		return time.Duration(mn)*time.Minute + time.Duration(sc*float64(time.Second))
	}
	user, sys := dur(child[1], child[2]), dur(child[3], child[4])
	if !strings.Contains(string(ex.raw), "[DONE]") {
		t.Fatalf("the stream did not reach its end in the pane")
	}
	t.Logf("pane 120x40; %d bytes of Markdown as %d deltas of SSE in %v", len(answer), (len([]rune(string(answer)))+perfDeltaRunes-1)/perfDeltaRunes, elapsed.Round(time.Millisecond))
	t.Logf("curl: CPU %v (user %v, system %v); %.1f KB written to the pane", user+sys, user, sys, float64(len(ex.raw))/1024)
}

// perfBin is the binary a measurement runs: PARLEY_PERF_BIN=/abs/path
// (another build, an older commit's, to compare), else the one the tests
// built ("").
func perfBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("PARLEY_PERF_BIN")
	if bin != "" && !filepath.IsAbs(bin) {
		t.Fatalf("PARLEY_PERF_BIN=%q: give an absolute path (parley runs in another directory)", bin)
	}
	return bin
}

// perfMaxIdleWakes is how many times a second parley's threads may go to
// sleep (voluntary context switches) while it only waits for input. The
// renderer wakes only when there is a frame to write (parley's copy of
// Bubble Tea), so an idle chat sleeps; upstream's renderer woke
// rendererFPS times a second, about 200 switches of the Go runtime's
// threads. The count is steadier than the CPU time. TestIdleChatSleeps
// holds the same in every test run, over a shorter span.
const perfMaxIdleWakes = 5

// TestPerfIdle measures what parley costs while it only waits: the empty
// chat open for 20 s in a 120x40 pane.
//
//	PARLEY_PERF=1 go test ./e2e/ -run TestPerfIdle -count 1 -v
func TestPerfIdle(t *testing.T) {
	_, gw := perfStream(t)
	tm := startParley(t, launch{Width: 120, Height: 40, Gateway: gw, Config: chatConfig, Env: strings.Fields(os.Getenv("PARLEY_PERF_ENV")), bin: perfBin(t)})
	tm.waitText(composerReady)
	pid := tm.parleyPID()
	time.Sleep(time.Second)
	const span = 20 * time.Second
	before := readProc(t, pid)
	time.Sleep(span)
	after := readProc(t, pid)
	cpu := after.cpu - before.cpu
	secs := int64(span / time.Second)
	wakes := (after.volCtx - before.volCtx) / secs
	t.Logf("idle for %v: CPU %v (user %v, system %v), %v a second; %d voluntary context switches a second (%d involuntary in all)",
		span, cpu, after.user-before.user, after.sys-before.sys, cpu/time.Duration(secs), wakes, after.involCtx-before.involCtx)
	if wakes > perfMaxIdleWakes {
		t.Errorf("idle parley's threads sleep and wake %d times a second; the budget is %d", wakes, perfMaxIdleWakes)
	}
	tm.keys("C-q")
	tm.waitExit()
}

// lastLineWords is the end of the answer's last line of prose, which is on
// screen once the reply is complete.
func lastLineWords(answer string) string {
	lines := strings.Split(strings.TrimSpace(answer), "\n")
	last := lines[len(lines)-1]
	return last[len(last)-len("follow because."):]
}

// parleyPID is the pid of the parley process of this pane.
func (tm *term) parleyPID() int {
	tm.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		if b, err := os.ReadFile(tm.pid); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("parley's pid never appeared in %s", tm.pid)
		}
		time.Sleep(pollEvery)
	}
}

// procStats is what /proc says a process has used so far.
type procStats struct {
	user, sys, cpu   time.Duration
	syscw, wchar     int64 // write calls and bytes written (all files)
	volCtx, involCtx int64 // context switches summed over the live threads
	minflt           int64 // minor page faults (memory first touched or touched again after release)
}

// readProc reads a process's CPU time, writes and context switches.
func readProc(t *testing.T, pid int) procStats {
	t.Helper()
	var s procStats
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("reading parley's CPU time: %v", err)
	}
	// Fields after the ")" that ends the command name: state is field 3,
	// utime and stime are fields 14 and 15.
	i := bytes.LastIndexByte(stat, ')')
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		t.Fatalf("unexpected /proc/%d/stat: %q", pid, stat)
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	s.user, s.sys = time.Duration(ut)*clockTick, time.Duration(st)*clockTick
	s.cpu = s.user + s.sys
	s.minflt, _ = strconv.ParseInt(f[7], 10, 64)

	io, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Fatalf("reading parley's write counts: %v", err)
	}
	for _, l := range strings.Split(string(io), "\n") {
		k, v, _ := strings.Cut(l, ": ")
		n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		switch k {
		case "syscw":
			s.syscw = n
		case "wchar":
			s.wchar = n
		}
	}

	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err != nil {
			continue // the thread ended meanwhile
		}
		for _, l := range strings.Split(string(b), "\n") {
			k, v, _ := strings.Cut(l, ":")
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			switch k {
			case "voluntary_ctxt_switches":
				s.volCtx += n
			case "nonvoluntary_ctxt_switches":
				s.involCtx += n
			}
		}
	}
	return s
}
