//go:build unix

package desktop

import (
	"os/exec"
	"syscall"
)

// inGroup starts the tool in a process group of its own and makes a timeout
// kill the whole group: a tool that is a shell script (or forks a helper)
// would otherwise leave children holding its output open.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killGroup kills what is left of the tool's process group after it exited:
// a background process that still holds its output.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// detach starts a viewer in a session of its own, so that it outlives
// parley and no signal meant for parley's terminal (a hangup when the
// window closes, ctrl+c) reaches it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
