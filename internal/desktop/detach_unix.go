//go:build unix

package desktop

import (
	"os/exec"
	"syscall"
)

// detach starts a viewer in a session of its own, so that it outlives
// parley and no signal meant for parley's terminal (a hangup when the
// window closes, ctrl+c) reaches it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
