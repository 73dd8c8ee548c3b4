//go:build unix

package termprobe

import (
	"os"

	"golang.org/x/sys/unix"
)

// CellSize is a cell's size in pixels from the terminal's window size as
// the kernel keeps it (TIOCGWINSZ: xterm, foot, kitty and ssh fill in the
// pixels), for terminals that do not answer XTWINOPS 16 (xterm refuses
// window reports by default). ok is false when f is not a terminal or the
// pixels are not given.
func CellSize(f *os.File) (w, h int, ok bool) {
	if f == nil {
		return 0, 0, false
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 || ws.Xpixel == 0 || ws.Ypixel == 0 {
		return 0, 0, false
	}
	w, h = int(ws.Xpixel)/int(ws.Col), int(ws.Ypixel)/int(ws.Row)
	if w < 1 || h < 1 || w > 1000 || h > 1000 {
		return 0, 0, false
	}
	return w, h, true
}
