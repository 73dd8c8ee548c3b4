package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// runWithJobControl runs the chat over pipes with jc and returns a way to
// type, the output, and a function that quits and waits for Run.
func runWithJobControl(t *testing.T, jc *JobControl) (typeIn func(string), out *lockedBuffer, quit func()) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	// An os.File pipe, not io.Pipe: releasing the terminal cancels the
	// input reader, which only works on a file (epoll), as on a terminal.
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inR.Close() })
	out = &lockedBuffer{}
	errc := make(chan error, 1)
	go func() {
		errc <- Run(context.Background(), Options{Model: "gpt-4o", Theme: "dark", Input: inR, Output: out, Width: 60, Height: 16,
			Getenv: func(string) string { return "" }, JobControl: jc})
	}()
	typeIn = func(s string) {
		t.Helper()
		if _, err := inW.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, out, "Message gpt-4o", 1)
	return typeIn, out, func() {
		t.Helper()
		typeIn("\x11") // ctrl+q
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after ctrl+q")
		}
		inW.Close()
	}
}

// waitFor waits until what occurs at least n times in out.
func waitFor(t *testing.T, out *lockedBuffer, what string, n int) {
	t.Helper()
	if !out.await(10*time.Second, func(s string) bool { return strings.Count(s, what) >= n }) {
		t.Fatalf("output never showed %q %d times", what, n)
	}
}

// ctrl+z and a SIGTSTP from outside stop the process with the terminal
// given back (alternate screen left) and, once it continues, taken again
// and redrawn; typing works afterwards.
func TestSuspendReleasesAndRetakesTheTerminal(t *testing.T) {
	stopped := make(chan string, 4)
	stops := make(chan struct{}, 1)
	var out *lockedBuffer
	jc := &JobControl{
		Stops:     stops,
		Continued: make(chan struct{}),
		CanStop:   func() bool { return true },
		Stop:      func() { stopped <- out.String() },
	}
	typeIn, o, quit := runWithJobControl(t, jc)
	out = o
	for i, stop := range []func(){
		func() { typeIn("\x1a") }, // ctrl+z
		func() { stops <- struct{}{} },
	} {
		stop()
		var atStop string
		select {
		case atStop = <-stopped:
		case <-time.After(10 * time.Second):
			t.Fatalf("stop %d: the process was never stopped", i+1)
		}
		if strings.LastIndex(atStop, "\x1b[?1049l") < strings.LastIndex(atStop, "\x1b[?1049h") {
			t.Errorf("stop %d: stopped without leaving the alternate screen", i+1)
		}
		// Continued: the alternate screen again, and the chat redrawn in it.
		waitFor(t, out, "\x1b[?1049h", i+2)
		waitFor(t, out, "Message gpt-4o", i+2)
	}
	// Pasted, so it arrives as one message and is drawn in one frame.
	typeIn("\x1b[200~back again\x1b[201~")
	waitFor(t, out, "back again", 1)
	quit()
}

// Where the process cannot be stopped, ctrl+z is an ordinary key and a
// suspend request (tea.Suspend, SIGTSTP) is dropped rather than stopping
// the chat for good.
func TestSuspendRefusedWithoutJobControl(t *testing.T) {
	jc := &JobControl{
		CanStop: func() bool { return false },
		Stop:    func() { t.Error("Stop called although CanStop is false") },
	}
	if msg := jc.filter(nil, tea.SuspendMsg{}); msg != nil {
		t.Errorf("a suspend passed the filter as %T", msg)
	}
	key := tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	if msg := jc.filter(nil, key); msg != key {
		t.Errorf("ctrl+z became %T, want the key itself", msg)
	}
	other := tea.KeyPressMsg{Code: 'a', Text: "a"}
	if msg := jc.filter(nil, other); msg != other {
		t.Errorf("a became %T", msg)
	}
}

// SIGCONT (a stop the chat did not make, such as SIGSTOP) redraws the
// whole screen.
func TestContinueRedraws(t *testing.T) {
	conts := make(chan struct{}, 1)
	jc := &JobControl{Continued: conts, CanStop: func() bool { return false }, Stop: func() {}}
	_, out, quit := runWithJobControl(t, jc)
	before := strings.Count(out.String(), "Message gpt-4o")
	conts <- struct{}{}
	waitFor(t, out, "Message gpt-4o", before+1)
	quit()
}

// TestReleasedBeforeTheHistoryIsWritten: the chat says it has given the
// terminal back (alternate screen left) as soon as Bubble Tea has, not
// after the history is written, which can wait for a database another
// program holds (here: until SQLite's 5 s busy timeout); a forced exit in
// that wait must leave the shell's screen alone.
func TestReleasedBeforeTheHistoryIsWritten(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	st := lockedStore(t)
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inR.Close(); inW.Close() })
	out := &lockedBuffer{}
	type release struct {
		screen string
		at     time.Time
	}
	releases := make(chan release, 2)
	jc := &JobControl{Stops: make(chan struct{}), Continued: make(chan struct{}), CanStop: func() bool { return false }, Stop: func() {},
		Released: func() { releases <- release{screen: out.String(), at: time.Now()} }}
	errc := make(chan error, 1)
	go func() {
		errc <- Run(context.Background(), Options{Model: "gpt-4o", Theme: "dark", Input: inR, Output: out, Width: 60, Height: 16,
			Getenv: func(string) string { return "" }, JobControl: jc, History: History{Store: st}})
	}()
	waitFor(t, out, "Message gpt-4o", 1)
	if _, err := inW.Write([]byte("\x11")); err != nil { // ctrl+q
		t.Fatal(err)
	}
	var r release
	select {
	case r = <-releases:
	case <-time.After(10 * time.Second):
		t.Fatal("Released was never called after ctrl+q")
	}
	if !strings.Contains(r.screen, "\x1b[?1049l") {
		t.Errorf("Released was called before the alternate screen was left; the output ends %q", r.screen[max(0, len(r.screen)-200):])
	}
	select {
	case <-errc:
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return once the history gave up opening")
	}
	if waited := time.Since(r.at); waited < time.Second {
		t.Errorf("Run returned %v after Released: Released came after the history was written, not before", waited)
	}
	if len(releases) != 0 {
		t.Error("Released was called more than once")
	}
}
