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
