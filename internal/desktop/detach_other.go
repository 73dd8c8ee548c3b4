//go:build !unix

package desktop

import "os/exec"

// detach has nothing to do here: Start-Process starts the viewer on its own.
func detach(*exec.Cmd) {}
