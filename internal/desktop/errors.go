package desktop

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"parley/termsafe"
)

// The kinds of failure a caller may treat differently; the errors returned
// wrap one of them (errors.Is) and read as a whole sentence of their own.
var (
	// ErrEmpty: the clipboard holds nothing. Worth a hint, not a warning.
	ErrEmpty = errors.New("the clipboard is empty")
	// ErrNoTool: the session's tool is not installed, or there is no
	// session to reach (a console, SSH). The message names what to install.
	ErrNoTool = errors.New("no tool for the system clipboard or viewer")
	// ErrTimeout: the tool did not finish within the time limit and was
	// killed with its process group.
	ErrTimeout = errors.New("the tool did not answer in time")
	// ErrNoDesktop: there is no graphical session at all (a console, SSH
	// without forwarding), so no tool could help. It matches ErrNoTool
	// too.
	ErrNoDesktop = fmt.Errorf("there is no graphical session: %w", ErrNoTool)
)

// sentence is an error whose text is written for the user and which wraps
// one of the kinds above (or nothing).
type sentence struct {
	msg  string
	kind error
}

func (e *sentence) Error() string { return e.msg }
func (e *sentence) Unwrap() error { return e.kind }

func newError(kind error, msg string) error { return &sentence{msg: msg, kind: kind} }

// ToolError is a tool that ran and failed. Its text names the tool, how it
// ended and the start of what it printed on stderr, sanitised: "wl-paste
// failed (exit status 1: No suitable type of content copied)".
type ToolError struct {
	Tool   string
	Status string // "exit status 1", "signal: killed"
	Stderr string // sanitised, one line, cut short; may be ""
}

func (e *ToolError) Error() string {
	if e.Stderr == "" {
		return e.Tool + " failed (" + e.Status + ")"
	}
	return e.Tool + " failed (" + e.Status + ": " + e.Stderr + ")"
}

// maxStderrRunes is how much of a tool's complaint an error shows.
const maxStderrRunes = 160

// excerpt makes a tool's stderr fit in a sentence: its lines joined with
// "; ", every control character and escape sequence made inert (the tool
// can print anything, and the text goes to the terminal), cut to
// maxStderrRunes.
func excerpt(b []byte) string {
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	s := termsafe.Line(strings.Join(lines, "; "))
	if utf8.RuneCountInString(s) <= maxStderrRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == maxStderrRunes {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
