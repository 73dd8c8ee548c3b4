//go:build !unix

package e2e

import "os"

// nudgeReaper has nothing to do where tmux does not run.
func nudgeReaper(int) error { return nil }

// processGone: there is no process to wait for where tmux does not run.
func processGone(int) bool { return true }

// killHard ends the process at once, as a crash would.
func killHard(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
