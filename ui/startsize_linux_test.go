package ui

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal side, sized
// w×h.
func openPTY(t *testing.T, w, h int) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("numbering the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the pseudo-terminal's terminal side: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(w), Row: uint16(h)}); err != nil {
		t.Fatalf("sizing the pseudo-terminal: %v", err)
	}
	return tty
}

// TestFirstFrameIsLaidOutForTheTerminal: the first frame is laid out for
// the terminal's size, not 80x24 until Bubble Tea's window size arrives;
// a size a test gives wins, and output that is no terminal keeps the
// default.
func TestFirstFrameIsLaidOutForTheTerminal(t *testing.T) {
	tty := openPTY(t, 131, 37)
	opts := sizedForTerminal(Options{Output: tty})
	if opts.Width != 131 || opts.Height != 37 {
		t.Errorf("on a 131x37 terminal the first frame is laid out at %dx%d", opts.Width, opts.Height)
	}
	if opts := sizedForTerminal(Options{Output: tty, Width: 90, Height: 20}); opts.Width != 90 || opts.Height != 20 {
		t.Errorf("a given 90x20 became %dx%d", opts.Width, opts.Height)
	}
	if opts := sizedForTerminal(Options{Output: &lockedBuffer{}}); opts.Width != 0 || opts.Height != 0 {
		t.Errorf("output that is no terminal gave a size: %dx%d", opts.Width, opts.Height)
	}
	m := New(t.Context(), sizedForTerminal(Options{Output: tty, Model: "gpt-4o", Theme: "dark", Getenv: func(string) string { return "" }}))
	lines := strings.Split(m.View().Content, "\n")
	widest := 0
	for _, l := range lines {
		widest = max(widest, ansi.StringWidth(l))
	}
	if len(lines) != 37 || widest != 131 {
		t.Errorf("New laid the first frame out at %dx%d on a 131x37 terminal", widest, len(lines))
	}
}
