//go:build unix

package config

import (
	"os/exec"
	"syscall"
)

// killProcessGroup makes a timed-out api_key_cmd die with its children: sh
// -c often starts a pipeline whose members would keep stdout open.
func killProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killLeftovers kills what is left of the command's process group after it
// exited: a background process it started that still holds its output.
func killLeftovers(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
