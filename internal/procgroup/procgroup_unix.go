//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

// Set makes cmd, once started, the leader of a new process group, and makes
// the end of its context kill that whole group. cmd must come from
// exec.CommandContext; call Set before it starts.
func Set(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Kill kills what is left of cmd's process group after cmd exited: a
// process it started in the background that still holds its output. It
// does nothing for a command that never started.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
