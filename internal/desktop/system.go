package desktop

import (
	"os"
	"os/exec"
	"runtime"
	"time"

	"parley/media"
)

// Defaults for the fields of System left zero.
const (
	// DefaultTimeout bounds each tool run. Clipboard tools answer in
	// milliseconds; an owner that takes seconds to hand over a screenshot
	// is stuck, and the user is waiting at the composer.
	DefaultTimeout = 3 * time.Second
	// MaxTextBytes is the most clipboard text ReadClipboard returns: far
	// more than a message, less than would make the composer crawl.
	MaxTextBytes = 4_000_000
)

// waitDelay is how long a tool's output may stay open after it was killed
// or exited before os/exec closes it: the backstop for a leftover process
// the group kill did not reach.
const waitDelay = 500 * time.Millisecond

// System is the desktop parley runs on, as seen through its environment
// and PATH. The zero value finds no tool and no session; FromOS is the real
// one. Its methods take a context and may run for up to Timeout per tool:
// call them from a tea.Cmd, never from Update.
type System struct {
	// Getenv reads the environment (WAYLAND_DISPLAY, DISPLAY, SSH_CONNECTION).
	// The tools themselves inherit the process's environment.
	Getenv func(string) string
	// LookPath finds a tool by name, as exec.LookPath does.
	LookPath func(string) (string, error)
	// GOOS picks the platform's tools: "darwin", "windows", anything else
	// means a Unix desktop (Wayland or X11). Empty means runtime.GOOS.
	GOOS string
	// Timeout bounds each tool run; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxImageBytes is the largest clipboard image or screenshot read; 0
	// means media.MaxFileBytes, the limit for image files.
	MaxImageBytes int64
	// ScreenshotCmd is the config's screenshot_cmd: a command line run by
	// sh (PowerShell on Windows) that takes a region screenshot, writing
	// PNG to the file {file} stands for or, without {file}, to its stdout.
	// "" means the desktop's own tools (see CaptureRegion).
	ScreenshotCmd string
	// CaptureTimeout bounds each run of a screenshot tool, which waits for
	// the user to draw a region; 0 means DefaultCaptureTimeout.
	CaptureTimeout time.Duration
	// Home is the home folder, where the screenshots folder is looked for;
	// "" means $HOME.
	Home string
}

// FromOS is the system parley runs on.
func FromOS() System {
	home, _ := os.UserHomeDir()
	return System{Getenv: os.Getenv, LookPath: exec.LookPath, GOOS: runtime.GOOS, Home: home}
}

func (s System) getenv(k string) string {
	if s.Getenv == nil {
		return ""
	}
	return s.Getenv(k)
}

// find returns the tool's path, or "" when it is not installed. A tool
// found only in the working directory (exec.ErrDot) counts as missing: a
// file named wl-paste in the folder parley was started from is not one.
func (s System) find(name string) string {
	if s.LookPath == nil {
		return ""
	}
	p, err := s.LookPath(name)
	if err != nil { // exec.ErrDot comes with a path: still refused
		return ""
	}
	return p
}

func (s System) goos() string {
	if s.GOOS == "" {
		return runtime.GOOS
	}
	return s.GOOS
}

func (s System) timeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultTimeout
	}
	return s.Timeout
}

func (s System) maxImage() int64 {
	if s.MaxImageBytes <= 0 {
		return media.MaxFileBytes
	}
	return s.MaxImageBytes
}

// session is the kind of desktop, which decides the tools.
type session int

const (
	noSession session = iota // a console or SSH without forwarding
	wayland
	x11
	macOS
	windows
)

func (s System) session() session {
	switch s.goos() {
	case "darwin":
		return macOS
	case "windows":
		return windows
	}
	switch {
	case s.getenv("WAYLAND_DISPLAY") != "":
		return wayland
	case s.getenv("DISPLAY") != "":
		return x11
	}
	return noSession
}

// noSessionReason says why there is no clipboard or viewer: the sentence's
// middle, between what failed and what to do.
func (s System) noSessionReason() string {
	if s.getenv("SSH_CONNECTION") != "" || s.getenv("SSH_TTY") != "" {
		return "parley runs over SSH without a graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set)"
	}
	return "there is no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set)"
}

// powershell finds Windows PowerShell (always installed) or PowerShell 7.
func (s System) powershell() (name, path string) {
	for _, n := range [...]string{"powershell", "pwsh"} {
		if p := s.find(n); p != "" {
			return n, p
		}
	}
	return "", ""
}
