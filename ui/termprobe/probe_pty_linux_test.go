package termprobe

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair: the controller plays the
// terminal, the other side is what parley talks to.
func openPTY(t *testing.T) (controller, terminal *os.File) {
	t.Helper()
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, c.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Fatalf("unlockpt: %v", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, c.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("ptsname: %v", errno)
	}
	term, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); term.Close() })
	return c, term
}

// Probe on a real pseudo-terminal: the terminal is put in raw mode (the
// answers arrive unechoed and unbuffered), asked, its answers read, and
// its mode given back; the window's pixels give the cell size.
func TestProbeOnAPseudoTerminal(t *testing.T) {
	controller, terminal := openPTY(t)
	ws := struct{ row, col, x, y uint16 }{40, 120, 1200, 800}
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, terminal.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); errno != 0 {
		t.Fatalf("TIOCSWINSZ: %v", errno)
	}
	go func() {
		buf := make([]byte, len(Queries))
		if _, err := io.ReadFull(controller, buf); err != nil || string(buf) != Queries {
			return
		}
		_, _ = io.WriteString(controller, "\x1bP>|kitty(0.26.5)\x1b\\\x1b_Gi=7;OK\x1b\\\x1b[?62;52;4c")
	}()
	start := time.Now()
	f, err := Probe(terminal, Queries, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != "kitty(0.26.5)" || !f.KittyGraphics || !f.Sixel || !f.Answered {
		t.Errorf("facts %+v", f)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// Cooked mode again: ECHO and ICANON are back.
	var tio syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, terminal.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); errno != 0 {
		t.Fatalf("TCGETS: %v", errno)
	}
	if tio.Lflag&syscall.ECHO == 0 || tio.Lflag&syscall.ICANON == 0 {
		t.Error("the terminal was left in raw mode")
	}
	if w, h, ok := CellSize(terminal); !ok || w != 10 || h != 20 {
		t.Errorf("cell size %d×%d, %v; want 10×20", w, h, ok)
	}
	if !strings.Contains(Identify(func(string) string { return "" }, f).String(), "0.26.5") {
		t.Error("not identified")
	}
}
