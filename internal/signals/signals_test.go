//go:build unix

package signals

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// exits records the statuses the owner ended the process with.
type exits struct {
	mu    sync.Mutex
	codes []int
	at    []time.Time
	ch    chan int
}

func newExits() *exits { return &exits{ch: make(chan int, 8)} }

func (e *exits) exit(code int) {
	e.mu.Lock()
	e.codes = append(e.codes, code)
	e.at = append(e.at, time.Now())
	e.mu.Unlock()
	e.ch <- code
}

func (e *exits) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case c := <-e.ch:
		return c
	case <-time.After(within):
		t.Fatalf("the process was not ended within %v", within)
		return 0
	}
}

func (e *exits) none(t *testing.T, during time.Duration) {
	t.Helper()
	select {
	case c := <-e.ch:
		t.Fatalf("the process was ended (status %d), want it left to exit by itself", c)
	case <-time.After(during):
	}
}

// kill sends s to this test process; the owner's signal.Notify catches it.
func kill(t *testing.T, s syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), s); err != nil {
		t.Fatal(err)
	}
}

func waitDone(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the context was not cancelled by the signal")
	}
}

// A termination signal cancels the context with the signal as its cause
// and sets the exit status to 128 + its number.
func TestTerminationCancelsAndSetsStatus(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}, {syscall.SIGHUP, 129, "SIGHUP"}} {
		t.Run(tc.name, func(t *testing.T) {
			ex := newExits()
			o := Start(context.Background(), Options{Exit: ex.exit, Grace: time.Hour})
			defer o.Close()
			if got := o.ExitCode(0); got != 0 {
				t.Fatalf("ExitCode before any signal = %d, want the command's 0", got)
			}
			kill(t, tc.sig)
			waitDone(t, o.Context())
			var se *SignalError
			if cause := context.Cause(o.Context()); !errors.As(cause, &se) || se.Signal != tc.sig || se.Error() != "stopped by "+tc.name {
				t.Errorf("cause = %v, want the signal %s", cause, tc.name)
			}
			if !errors.Is(o.Context().Err(), context.Canceled) {
				t.Errorf("Err = %v, want context.Canceled (what the commands report)", o.Context().Err())
			}
			if got := o.ExitCode(0); got != tc.code {
				t.Errorf("ExitCode = %d, want %d", got, tc.code)
			}
			ex.none(t, 50*time.Millisecond)
		})
	}
}

// A process that does not exit within the grace period is ended with the
// signal's status; the terminal is restored first while the chat holds it.
func TestWatchdogEndsAStuckProcessAndRestoresTheTerminal(t *testing.T) {
	ex := newExits()
	var out bytes.Buffer
	restored := 0
	term := &Terminal{Out: &out, Restore: func() error { restored++; return nil }}
	o := Start(context.Background(), Options{Exit: ex.exit, Grace: 100 * time.Millisecond, Terminal: term, CanStop: func() bool { return false }})
	defer o.Close()
	_, detach := o.AttachTUI()
	defer detach()
	start := time.Now()
	kill(t, syscall.SIGTERM)
	if code := ex.wait(t, 2*time.Second); code != 143 {
		t.Errorf("status %d, want 143", code)
	}
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("ended after %v, before the grace period", took)
	}
	if out.String() != resetSequence || restored != 1 {
		t.Errorf("terminal: wrote %q, restored %d times; want the reset sequence and one restore", out.String(), restored)
	}
}

// Once the chat has returned (and restored the terminal itself), a forced
// exit writes nothing to the shell's screen.
func TestWatchdogLeavesARestoredTerminalAlone(t *testing.T) {
	ex := newExits()
	var out bytes.Buffer
	o := Start(context.Background(), Options{Exit: ex.exit, Grace: 50 * time.Millisecond, Terminal: &Terminal{Out: &out}, CanStop: func() bool { return false }})
	defer o.Close()
	_, detach := o.AttachTUI()
	detach()
	kill(t, syscall.SIGHUP)
	if code := ex.wait(t, 2*time.Second); code != 129 {
		t.Errorf("status %d, want 129", code)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %q to a terminal the chat had restored", out.String())
	}
}

// Detaching puts the tty modes back as at start, once however often it is
// called: a chat that failed to start can return with the terminal raw.
func TestDetachRestoresTheTTYModes(t *testing.T) {
	restored := 0
	o := Start(context.Background(), Options{Exit: func(int) {}, Terminal: &Terminal{Restore: func() error { restored++; return nil }}, CanStop: func() bool { return false }})
	defer o.Close()
	_, detach := o.AttachTUI()
	if restored != 0 {
		t.Fatalf("attaching restored the tty modes %d times", restored)
	}
	detach()
	detach()
	if restored != 1 {
		t.Errorf("detaching twice restored the tty modes %d times, want once", restored)
	}
}

// A second signal ends the process at once, even when restoring the
// terminal hangs (a write nobody reads).
func TestSecondSignalEndsAtOnce(t *testing.T) {
	ex := newExits()
	block := make(chan struct{})
	defer close(block)
	o := Start(context.Background(), Options{
		Exit: ex.exit, Grace: time.Hour, CanStop: func() bool { return false },
		Terminal: &Terminal{Out: blockingWriter(block)},
	})
	defer o.Close()
	_, detach := o.AttachTUI()
	defer detach()
	kill(t, syscall.SIGTERM)
	waitDone(t, o.Context())
	start := time.Now()
	kill(t, syscall.SIGINT)
	if code := ex.wait(t, 2*time.Second); code != 130 {
		t.Errorf("status %d, want 130 (the signal that ended it)", code)
	}
	if took := time.Since(start); took > restoreWait+300*time.Millisecond {
		t.Errorf("the second signal took %v to end the process", took)
	}
}

type blockingWriter chan struct{}

func (b blockingWriter) Write(p []byte) (int, error) { <-b; return len(p), nil }

// While the chat runs, SIGTSTP and SIGCONT reach it, again and again;
// after detach they no longer do.
func TestJobControlWhileTheChatRuns(t *testing.T) {
	o := Start(context.Background(), Options{Exit: func(int) { t.Error("exit") }, CanStop: func() bool { return true }})
	defer o.Close()
	jc, detach := o.AttachTUI()
	kill(t, syscall.SIGTSTP)
	select {
	case <-jc.Stops:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTSTP did not reach the chat")
	}
	kill(t, syscall.SIGCONT)
	select {
	case <-jc.Continued:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGCONT did not reach the chat")
	}
	kill(t, syscall.SIGTSTP)
	select {
	case <-jc.Stops:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTSTP after SIGCONT did not reach the chat")
	}
	detach()
	kill(t, syscall.SIGCONT)
	select {
	case <-jc.Continued:
		t.Error("SIGCONT reached the chat after it detached")
	case <-time.After(100 * time.Millisecond):
	}
	if o.ExitCode(0) != 0 {
		t.Error("job-control signals changed the exit status")
	}
}

// Where stopping cannot work, CanStop says so, Stop does nothing (this
// test would stop otherwise), and the owner does not catch SIGTSTP at all
// (the kernel discards it there anyway).
func TestStoppingRefusedWithoutJobControl(t *testing.T) {
	o := Start(context.Background(), Options{Exit: func(int) { t.Error("exit") }, CanStop: func() bool { return false }})
	defer o.Close()
	jc, detach := o.AttachTUI()
	defer detach()
	if jc.CanStop() {
		t.Error("CanStop() = true without job control")
	}
	jc.Stop()
	var none *JobControl
	if none.CanStop() {
		t.Error("a nil JobControl can stop")
	}
}

// The emergency reset undoes each thing the chat's view turns on (ui's
// View: the alternate screen, mouse, bracketed paste, focus events, the
// keyboard protocols, synchronized output, the cursor's shape, colour and
// visibility, the window title). Under load a SIGHUP once took the chat
// past the grace period, and the shell was left with parley's title and
// cursor colour.
func TestResetSequenceUndoesWhatTheChatTurnsOn(t *testing.T) {
	for what, reset := range map[string]string{
		"the alternate screen":          "\x1b[?1049l",
		"mouse reporting (cell motion)": "\x1b[?1002l",
		"SGR mouse coordinates":         "\x1b[?1006l",
		"bracketed paste":               "\x1b[?2004l",
		"focus events":                  "\x1b[?1004l",
		"the kitty keyboard protocol":   "\x1b[<u",
		"modifyOtherKeys":               "\x1b[>4m",
		"synchronized output":           "\x1b[?2026l",
		"the cursor's shape":            "\x1b[0 q",
		"the cursor's colour (OSC 12)":  "\x1b]112\x07",
		"the window title (OSC 2)":      "\x1b]2;\x07",
		"a hidden cursor":               "\x1b[?25h",
		"text attributes":               "\x1b[m",
	} {
		if !strings.Contains(resetSequence, reset) {
			t.Errorf("the emergency reset leaves %s on: it lacks %q", what, reset)
		}
	}
	if !strings.HasSuffix(resetSequence, "\x1b[?1049l") {
		t.Error("the alternate screen must be left last, so the shell's screen comes back clean")
	}
}
