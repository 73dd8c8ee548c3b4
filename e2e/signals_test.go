//go:build unix

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"parley/api/apitest"
)

// signalDeadline is how long parley may take to be gone after the first
// termination signal: "about a second" (the signal owner's grace period
// is 500 ms), with room for a race-built binary on a loaded machine.
const signalDeadline = 1500 * time.Millisecond

// parleyPid is parley's process id, as the wrapper recorded it.
func (tm *term) parleyPid() int {
	tm.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		if b, err := os.ReadFile(tm.pid); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("parley's pid was never recorded in %s", tm.pid)
		}
		time.Sleep(pollEvery)
	}
}

// signal sends sig to parley and returns how long parley took to exit.
func (tm *term) signal(sig syscall.Signal) time.Duration {
	tm.t.Helper()
	pid := tm.parleyPid()
	start := time.Now()
	if err := syscall.Kill(pid, sig); err != nil {
		tm.t.Fatalf("kill -%d %d: %v", sig, pid, err)
	}
	return waitGone(tm.t, pid, start)
}

// waitGone waits for pid to exit and returns the time since start; it
// fails the test when that takes longer than waitTimeout.
func waitGone(t *testing.T, pid int, start time.Time) time.Duration {
	t.Helper()
	for !processGone(pid) {
		if time.Since(start) > waitTimeout {
			t.Fatalf("parley (pid %d) still runs %v after the signal", pid, waitTimeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// processState is the state letter of /proc/<pid>/stat (R, S, T, Z, …).
func processState(t *testing.T, pid int) byte {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("no /proc to read the process state from: %v", err)
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		t.Fatalf("unexpected /proc/%d/stat: %q", pid, b)
	}
	return b[i+2]
}

// assertRestoredStatus is assertRestored for an exit with status want.
func assertRestoredStatus(t *testing.T, ex exited, want int, chat ...string) {
	t.Helper()
	if ex.status != want || ex.deadStatus != strconv.Itoa(want) {
		t.Errorf("exit status %d (pane_dead_status %q), want %d; the screen:\n%s", ex.status, ex.deadStatus, want, frame(ex.screen))
	}
	ex.status, ex.deadStatus = 0, "0"
	assertRestored(t, ex, chat...)
}

// startStreaming starts the chat and a reply that stalls half-way until
// the client goes away, so the signal arrives mid-reply.
func startStreaming(t *testing.T) *term {
	t.Helper()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Deltas: []string{"Partial ", "answer ", "so far"}, StallAfterDeltas: 3})
	tm := startChat(t, gw)
	tm.send("Tell me a long story")
	tm.waitText("Partial answer so far", "writing")
	return tm
}

// TestSignalsEndTheChat sends each termination signal to the chat, idle
// and mid-reply: parley is gone within about a second, with the shell's
// status for the signal, and the terminal (alternate screen, mouse,
// keyboard protocol, bracketed paste, tty modes) is as before.
func TestSignalsEndTheChat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		sig      syscall.Signal
		midReply bool
		status   int
	}{
		{"SIGTERM idle", syscall.SIGTERM, false, 143},
		{"SIGTERM mid-reply", syscall.SIGTERM, true, 143},
		{"SIGINT mid-reply", syscall.SIGINT, true, 130},
		{"SIGHUP idle", syscall.SIGHUP, false, 129},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var tm *term
			if tc.midReply {
				tm = startStreaming(t)
			} else {
				tm = startChat(t, apitest.New(t))
			}
			took := tm.signal(tc.sig)
			t.Logf("parley exited %v after %s", took.Round(time.Millisecond), tc.name)
			if took > signalDeadline {
				t.Errorf("parley took %v to exit after %s, want about a second at most", took, tc.name)
			}
			ex := tm.waitExit()
			assertRestoredStatus(t, ex, tc.status, composerReady, "╭")
		})
	}
}

// TestSIGTERMFiveRunsInARow repeats SIGTERM, idle and mid-reply in turn:
// the deadlock it fixes (Bubble Tea's handler and main's both catching
// SIGTERM) hit about half of the runs.
func TestSIGTERMFiveRunsInARow(t *testing.T) {
	t.Parallel()
	for i := range 5 {
		var tm *term
		if i%2 == 0 {
			tm = startStreaming(t)
		} else {
			tm = startChat(t, apitest.New(t))
		}
		if took := tm.signal(syscall.SIGTERM); took > signalDeadline {
			t.Errorf("run %d: parley took %v to exit after SIGTERM", i+1, took)
		}
		ex := tm.waitExit()
		assertRestoredStatus(t, ex, 143, composerReady, "╭")
		tm.close()
	}
}

// jobControlWrapper is wrapperScript under a shell with job control (set
// -m): parley runs as a job of its own, which ctrl+z or SIGTSTP can stop.
// When it stops (status 128 + SIGSTOP or SIGTSTP), the script says whether the tty modes are the shell's
// again, then continues parley with fg on enter.
const jobControlWrapper = `set -m
pidfile=$1
shift
before=$(stty -g)
printf '%s\n' '` + shellReady + `'
IFS= read -r go
sh -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "$@"
status=$?
while [ "$status" -eq 147 ] || [ "$status" -eq 148 ]; do
	now=$(stty -g)
	tty=changed
	[ "$before" = "$now" ] && tty=restored
	printf '` + stoppedMark + `%s\n' "$tty"
	IFS= read -r cont
	fg >/dev/null
	status=$?
done
after=$(stty -g)
tty=changed
[ "$before" = "$after" ] && tty=restored
printf '` + exitedMark + `%d, tty modes %s\n' "$status" "$tty"
printf '%s\n' '` + releaseHint + `'
IFS= read -r done
exit "$status"
`

// stoppedMark is what jobControlWrapper prints when parley has stopped.
const stoppedMark = "e2e: parley stopped, tty modes "

// TestSuspendAndContinue stops the chat with ctrl+z and with SIGTSTP from
// outside: the shell gets its terminal back (normal screen, no mouse, tty
// modes as before), and after fg the chat is redrawn and still works.
func TestSuspendAndContinue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		stop func(tm *term)
	}{
		{"ctrl+z", func(tm *term) { tm.keys("C-z") }},
		{"SIGTSTP", func(tm *term) {
			if err := syscall.Kill(tm.parleyPid(), syscall.SIGTSTP); err != nil {
				tm.t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gw := apitest.New(t)
			tm := startParley(t, launch{Gateway: gw, Config: chatConfig, wrapper: jobControlWrapper})
			tm.waitText(composerReady)
			tm.send("Hello")
			tm.waitText("You said: Hello")
			pid := tm.parleyPid()

			tc.stop(tm)
			s := tm.waitText(stoppedMark)
			if !strings.Contains(s, stoppedMark+"restored") {
				t.Errorf("the tty modes are not the shell's while parley is stopped:\n%s", frame(s))
			}
			if strings.Contains(s, "You said: Hello") {
				t.Errorf("the chat is still on the screen while parley is stopped:\n%s", frame(s))
			}
			for _, f := range []string{"alternate_on", "mouse_any_flag", "mouse_button_flag", "mouse_sgr_flag"} {
				if v := tm.display("#{" + f + "}"); v != "0" {
					t.Errorf("while parley is stopped #{%s} = %q, want 0", f, v)
				}
			}
			if st := processState(t, pid); st != 'T' {
				t.Errorf("parley's state is %q while the shell says it stopped, want T", st)
			}

			tm.keys("Enter") // the wrapper runs fg
			tm.waitText(composerReady, "You said: Hello")
			tm.send("Again")
			tm.waitText("You said: Again")
			tm.keys("C-q")
			assertRestored(t, tm.waitExit(), "You said: Again", composerReady)
		})
	}
}

// TestCtrlZWithoutJobControl: started by a shell without job control (the
// usual wrapper), parley cannot be stopped (the kernel discards SIGTSTP in
// an orphaned process group), so ctrl+z is an ordinary key: the chat does
// not give up the terminal and wait for a SIGCONT that never comes.
func TestCtrlZWithoutJobControl(t *testing.T) {
	t.Parallel()
	tm := startChat(t, apitest.New(t))
	tm.keys("C-z")
	tm.typeText("still here")
	tm.waitText("still here")
	if st := processState(t, tm.parleyPid()); st == 'T' {
		t.Fatalf("parley stopped where nothing can continue it")
	}
	tm.keys("C-q")
	assertRestored(t, tm.waitExit(), "still here")
}

// TestChatVerboseLog: -v in the chat says on stderr, before the chat takes
// the screen, where the trace goes, and the trace of the chat's request is
// in that file.
func TestChatVerboseLog(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	// Wide enough for the line about the log not to wrap.
	tm := startParley(t, launch{Width: 120, Height: 30, Gateway: gw, Config: chatConfig, args: []string{"-v"}})
	tm.waitText(composerReady)
	tm.send("Hello")
	tm.waitText("You said: Hello")
	tm.keys("C-q")
	ex := tm.waitExit()
	assertRestored(t, ex, "You said: Hello")
	const line = "parley: Tracing gateway requests (--verbose) to ~/.local/state/parley/verbose.log."
	if !strings.Contains(ex.screen, line) {
		t.Errorf("after the chat, the shell's screen lacks %q:\n%s", line, frame(ex.screen))
	}
	raw := string(ex.raw)
	said, alt := strings.Index(raw, "Tracing gateway requests"), strings.Index(raw, "\x1b[?1049h")
	if said < 0 || alt < 0 || said > alt {
		t.Errorf("the log's path was not said before the alternate screen (at %d, alternate screen at %d)", said, alt)
	}
	home := filepath.Join(filepath.Dir(tm.raw), "home")
	b, err := os.ReadFile(filepath.Join(home, ".local", "state", "parley", "verbose.log"))
	if err != nil {
		t.Fatal(err)
	}
	if trace := string(b); !strings.Contains(trace, "> POST "+gw.URL()+"/chat/completions") || !strings.Contains(trace, "< HTTP/1.1 200") {
		t.Errorf("the log lacks the chat request and its response:\n%s", trace)
	}
}

// startAsk starts parley with args and returns it with its stderr.
func startAsk(t *testing.T, env []string, stdin *os.File, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(parleyBinary(t), args...)
	cmd.Env = env
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, &stderr
}

// readingStdin reports whether one of pid's threads is in read(0, …),
// from /proc/<pid>/task/*/syscall (the syscall number, then the
// arguments; read is 0 on amd64 and arm64 reads are 63, so both are
// accepted with the fd argument 0x0).
func readingStdin(t *testing.T, pid int) bool {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", pid))
	if err != nil || len(tasks) == 0 {
		t.Skipf("no /proc/%d/task to see parley's system calls in", pid)
	}
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		f := strings.Fields(string(b))
		if len(f) >= 2 && (f[0] == "0" || f[0] == "63") && f[1] == "0x0" {
			return true
		}
	}
	return false
}

// signalAsk sends sig and checks that parley exits within about a second
// with the signal's status and a sentence, not a Go trace.
func signalAsk(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer, sig syscall.Signal, status int) {
	t.Helper()
	start := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(waitTimeout):
		t.Fatalf("parley still runs %v after the signal", waitTimeout)
	}
	if took := time.Since(start); took > signalDeadline {
		t.Errorf("parley took %v to exit, want about a second at most", took)
	}
	if got := cmd.ProcessState.ExitCode(); got != status {
		t.Errorf("exit status %d, want %d; stderr: %s", got, status, stderr)
	}
	if strings.Contains(stderr.String(), "goroutine ") {
		t.Errorf("stderr holds a Go trace: %s", stderr)
	}
}

// TestSignalWhileAskReadsAFIFO: `parley ask < fifo` with a writer that
// never writes blocks in read; the first signal still ends it.
func TestSignalWhileAskReadsAFIFO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		sig    syscall.Signal
		status int
	}{{"SIGTERM", syscall.SIGTERM, 143}, {"SIGINT", syscall.SIGINT, 130}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			// Opened for reading and writing, the FIFO has a writer (this
			// test) that never writes: parley's read never returns.
			f, err := os.OpenFile(fifo, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd, stderr := startAsk(t, askEnv(t, apitest.New(t)), f, "ask", "summarise this")
			// A signal that arrived before main ran would meet the kernel's
			// default action, which proves nothing: wait for the read.
			waitUntil(t, "parley to read the FIFO", func() bool { return readingStdin(t, cmd.Process.Pid) })
			signalAsk(t, cmd, stderr, tc.sig, tc.status)
		})
	}
}

// TestSignalWhileTheKeyCommandRuns: loading the provider's key with a slow
// api_key_cmd does not hold the process after SIGTERM.
func TestSignalWhileTheKeyCommandRuns(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	env := askEnv(t, gw)
	var cfgHome string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			cfgHome = v
		}
	}
	started := filepath.Join(t.TempDir(), "key-command-started")
	cfg := fmt.Sprintf("default_model = \"gpt-4o\"\n\n[[providers]]\nname = \"slow\"\nbase_url = %q\napi_key_cmd = \"echo $$ > %s; exec sleep 30\"\n", gw.URL(), started)
	if err := os.MkdirAll(filepath.Join(cfgHome, "parley"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgHome, "parley", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, stderr := startAsk(t, env, nil, "ask", "hello")
	var keyPid int
	waitUntil(t, "the key command to run", func() bool {
		b, err := os.ReadFile(started)
		keyPid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && keyPid > 0
	})
	// parley leaves the key command behind when it is ended this way.
	t.Cleanup(func() { _ = syscall.Kill(keyPid, syscall.SIGKILL) })
	signalAsk(t, cmd, stderr, syscall.SIGTERM, 143)
}
