package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"parley/internal/safefile"

	tea "charm.land/bubbletea/v2"
)

// The model last chosen in the chat is remembered for the next start, when
// neither --model nor default_model names one. It lives in the state
// directory ($XDG_STATE_HOME/parley/last-model).

// maxStateLine bounds what is read back from a state file (a model name,
// a folder).
const maxStateLine = 4096

// lastModelPath is the file, or "" when no state directory is known.
func lastModelPath(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "parley", "last-model")
}

// readLastModel returns the remembered model, or "" (no file, unreadable,
// not a regular file, or not one short line).
func readLastModel(getenv func(string) string) string {
	p := lastModelPath(getenv)
	if p == "" {
		return ""
	}
	return readSmallFile(p)
}

// readSmallFile returns the one short line a state file holds, or "" when
// it is missing, not a regular file, longer than maxStateLine bytes or
// more than one line.
func readSmallFile(p string) string {
	b, err := safefile.Read(p, maxStateLine)
	if err != nil {
		return ""
	}
	line := strings.TrimSpace(string(b))
	if strings.ContainsAny(line, "\n\r\x00") {
		return ""
	}
	return line
}

// lastModelSavedMsg reports a failed write (a success says nothing).
type lastModelSavedMsg struct{ err error }

func (msg lastModelSavedMsg) notice() noticeResult {
	if msg.err == nil {
		return noticeResult{}
	}
	return noticeResult{"could not remember the model for the next start: " + msg.err.Error(), toastInfo}
}

// rememberModel writes the model chosen in the background.
func rememberModel(opts Options, name string) tea.Cmd {
	p := lastModelPath(opts.Getenv)
	if p == "" || name == "" || opts.Demo {
		return nil
	}
	return func() tea.Msg {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return lastModelSavedMsg{err: err}
		}
		tmp := p + ".tmp"
		if err := os.WriteFile(tmp, []byte(name+"\n"), 0o600); err != nil {
			return lastModelSavedMsg{err: err}
		}
		return lastModelSavedMsg{err: errors.Join(os.Rename(tmp, p))}
	}
}
