//go:build !unix

package procgroup

import "os/exec"

// Set keeps os/exec's default where process groups do not exist: the end
// of the context kills the command's own process.
func Set(*exec.Cmd) {}

// Kill has no process group to kill here.
func Kill(*exec.Cmd) {}
