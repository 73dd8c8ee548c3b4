package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// Inside tmux the start's colour profile is found without running tmux
// (a tmux on PATH records that it ran): the profile is what TERM says, and
// tmux's word on 24-bit colour comes after the first frame. colorprofile's
// Detect, which lipgloss runs while the program initialises, does not run
// it either (parley's copy, third_party/colorprofile).
func TestStartColorProfileDoesNotAskTmux(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	script := "#!/bin/sh\n: > '" + ran + "'\necho 'Tc: (flag) true'\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir) // where colorprofile looks for tmux
	env := []string{"PATH=" + dir, "TMUX=/tmp/tmux-1/default,1,0", "TERM=tmux-256color", "TTY_FORCE=1"}
	if p := startColorProfile(os.Stderr, env); p != colorprofile.ANSI256 {
		t.Errorf("profile %v, want 256 colours from TERM", p)
	}
	if p := colorprofile.Detect(os.Stderr, env); p != colorprofile.ANSI256 {
		t.Errorf("colorprofile.Detect found %v, want 256 colours from TERM", p)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("tmux was run to find the colour profile")
	}
	// Asking tmux on purpose, in the same environment, runs the tmux on
	// PATH (and believes its Tc): what the first frame used to wait for.
	if p := colorprofile.Tmux(env); p != colorprofile.TrueColor {
		t.Errorf("colorprofile.Tmux found %v", p)
	}
	if _, err := os.Stat(ran); err != nil {
		t.Error("colorprofile.Tmux did not run the tmux on PATH: the checks above prove nothing")
	}
}
