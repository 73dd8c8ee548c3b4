package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/atotto/clipboard"

	"parley/media"
	"parley/termsafe"
)

// copiedMsg reports a copy to the system clipboard.
type copiedMsg struct {
	what  string // "reply", "code block 2"
	bytes int
	err   error
}

// systemClipboard writes through the platform's clipboard tool (pbcopy,
// xclip, xsel, wl-copy, …).
func systemClipboard(s string) error { return clipboard.WriteAll(s) }

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
	size := media.FormatBytes(int64(msg.bytes))
	if msg.err != nil {
		return fmt.Sprintf("%s sent to the terminal clipboard (OSC 52, %s); no system clipboard tool found (install wl-clipboard, xclip or xsel)", msg.what, size), toastWarn
	}
	return fmt.Sprintf("%s copied (%s)", msg.what, size), toastOK
}
