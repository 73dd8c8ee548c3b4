package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"parley/api/apitest"
)

// openPTY opens a pseudo-terminal pair: what is written to the returned
// terminal can be read from the controller.
func openPTY(t *testing.T) (controller, terminal *os.File) {
	t.Helper()
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals here: %v", err)
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

// TestImageProgressOnATerminal runs parley image with stderr on a real
// pseudo-terminal while the gateway takes 2.2 s: the line says what is
// being made and counts seconds in place, and is cleared before the end.
func TestImageProgressOnATerminal(t *testing.T) {
	controller, terminal := openPTY(t)
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(&screen, controller) // ends with EIO once the terminal side is closed
	}()

	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Delay: 2200 * time.Millisecond})
	var out bytes.Buffer
	env := Env{
		Stdout:  &out,
		Stderr:  terminal,
		Getenv:  func(k string) string { return h.env[k] },
		HomeDir: h.home,
		Now:     func() time.Time { return h.now },
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if code := Main(ctx, []string{"image", "-m", "gpt-image-1", "--size", "1024x1024", "a lighthouse"}, env); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	terminal.Close()
	<-read

	got := screen.String()
	frames := strings.Split(got, "\r\x1b[K")[1:]
	if len(frames) < 3 {
		t.Fatalf("terminal got %q: want a progress line redrawn in place", got)
	}
	for i, want := range []string{"parley: generating 1 image with gpt-image-1 (1024x1024) · 0 s", "parley: generating 1 image with gpt-image-1 (1024x1024) · 1 s"} {
		if frames[i] != want {
			t.Errorf("frame %d = %q, want %q", i, frames[i], want)
		}
	}
	// Redrawn only when the seconds change: at most one frame per second
	// waited, plus the phases and the final clear.
	if len(frames) > 8 {
		t.Errorf("%d frames in about 2 s: %q", len(frames), frames)
	}
	if frames[len(frames)-1] != "" || strings.Contains(got, "\n") {
		t.Errorf("the line must be cleared at the end and nothing else written: %q", got)
	}
	if !strings.HasSuffix(out.String(), ".png\n") {
		t.Errorf("stdout %q", out.String())
	}
}
