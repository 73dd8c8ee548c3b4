//go:build !unix

package config

import "os/exec"

// killProcessGroup is a no-op where process groups do not exist; the
// command's own process is still killed on timeout.
func killProcessGroup(*exec.Cmd) {}

// killLeftovers has no process group to kill here.
func killLeftovers(*exec.Cmd) {}
