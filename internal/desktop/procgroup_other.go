//go:build !unix

package desktop

import "os/exec"

// inGroup keeps os/exec's default where process groups do not exist: a
// timeout kills the tool's own process.
func inGroup(*exec.Cmd) {}

// killGroup has no process group to kill here.
func killGroup(*exec.Cmd) {}

// detach has nothing to do here: Start-Process starts the viewer on its own.
func detach(*exec.Cmd) {}
