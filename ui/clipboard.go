package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/internal/bytesize"
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

// copiedToast words the result of a copy.
func copiedToast(msg copiedMsg) (string, toastKind) {
	size := bytesize.Format(int64(msg.bytes))
	if msg.err != nil {
		return fmt.Sprintf("%s sent to the terminal clipboard (OSC 52, %s); %s", msg.what, size, cells.OneLine(msg.err.Error())), toastWarn
	}
	return fmt.Sprintf("%s copied (%s)", msg.what, size), toastOK
}
