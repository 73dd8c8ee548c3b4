//go:build !unix

package e2e

// nudgeReaper has nothing to do where tmux does not run.
func nudgeReaper(int) error { return nil }

// processGone: there is no process to wait for where tmux does not run.
func processGone(int) bool { return true }
