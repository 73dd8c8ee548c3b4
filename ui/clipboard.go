package ui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/internal/bytesize"
	"parley/internal/desktop"
	"parley/termsafe"
	"parley/ui/cells"
)

// copiedMsg reports a copy to the system clipboard.
type copiedMsg struct {
	what  string // "reply", "code block 2"
	bytes int
	err   error
}

// copyText copies s two ways at once: OSC 52 through the terminal (works
// over SSH and in tmux with set-clipboard) and the system clipboard tool (works
// where the terminal ignores OSC 52). Text is sanitised first: reply text is
// untrusted, and a pasted escape sequence would take effect wherever the
// user pastes it.
func copyText(write func(string) error, what, s string) tea.Cmd {
	clean := termsafe.Sanitize(s)
	return tea.Batch(
		tea.SetClipboard(clean),
		func() tea.Msg {
			return copiedMsg{what: what, bytes: len(clean), err: write(clean)}
		},
	)
}

// copiedToast words the result of a copy. The text always went out by
// OSC 52 too, so a copy without a desktop clipboard (the usual case over
// SSH, or a terminal that takes OSC 52 itself, as kitty does) is still a
// copy: a success that fades, saying which way it went and why the
// desktop clipboard was not written, not a warning that stays.
func copiedToast(msg copiedMsg) (string, toastKind) {
	size := bytesize.Format(int64(msg.bytes))
	if errors.Is(msg.err, desktop.ErrNoDesktop) {
		// Over SSH or on a console the terminal's clipboard is the one
		// there is: nothing went wrong.
		return fmt.Sprintf("%s copied through the terminal (OSC 52, %s)", msg.what, size), toastOK
	}
	if msg.err != nil {
		return fmt.Sprintf("%s copied through the terminal (OSC 52, %s), not to the desktop clipboard: %s", msg.what, size, cells.OneLine(msg.err.Error())), toastOK
	}
	return fmt.Sprintf("%s copied (%s)", msg.what, size), toastOK
}
