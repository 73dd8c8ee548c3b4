//go:build unix

package e2e

import "syscall"

// nudgeReaper sends SIGCHLD to a tmux server this test started. tmux 3.3
// built with libutempter can miss the SIGCHLD of a pane that exits while
// utempter's own handler is installed (tmux issue #311); the pane then
// stays a zombie and #{pane_dead_status} stays empty until the next
// SIGCHLD, which makes tmux reap every exited child.
func nudgeReaper(pid int) error {
	return syscall.Kill(pid, syscall.SIGCHLD)
}
