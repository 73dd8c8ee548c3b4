//go:build unix

package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// nudgeReaper sends SIGCHLD to a tmux server this test started. tmux 3.3
// built with libutempter can miss the SIGCHLD of a pane that exits while
// utempter's own handler is installed (tmux issue #311); the pane then
// stays a zombie and #{pane_dead_status} stays empty until the next
// SIGCHLD, which makes tmux reap every exited child.
func nudgeReaper(pid int) error {
	return syscall.Kill(pid, syscall.SIGCHLD)
}

// processGone reports whether the process has exited (a zombie counts as
// gone: it runs no code and holds no files).
func processGone(pid int) bool {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// The state is the field after the ")" that ends the command name.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			return b[i+2] == 'Z' || b[i+2] == 'X'
		}
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// killHard ends the process at once, as a crash would (SIGKILL).
func killHard(pid int) error {
	return syscall.Kill(pid, syscall.SIGKILL)
}
