package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/internal/desktop"
	"parley/ui/paste"
)

// Every image source arrives here: a bracketed paste (dropped files, a
// copied path, a URL), the clipboard (ctrl+v, /paste), /attach and the
// file picker. What is not an image stays text, so nothing pasted is lost.

// Time limits of the background work.
const (
	pasteCheckTimeout = 5 * time.Second
	// clipboardTimeout leaves room for two tool runs (macOS may need
	// them), or one PowerShell start through WSL's interop.
	clipboardTimeout = max(2*desktop.DefaultTimeout, desktop.WSLTimeout) + time.Second
)

// pasteText is the paste path of text from a bracketed paste or the
// clipboard: image paths are attached (after their bytes are checked), a
// lone link to an image is attached as a link, and anything else is text
// in the composer, or a block on the message when the composer would pass
// its bound.
func (m *Model) pasteText(content string) tea.Cmd {
	res := paste.Parse(content, m.opts.Getenv("HOME"))
	switch {
	case res.Kind == paste.Paths:
		cmd, refused := m.work.attachUpTo(res.Paths, roomOf(m.opts, &m.pics), len(m.comp.attachments), content, true)
		return tea.Batch(cmd, m.notes.say(refused))
	case res.Kind == paste.URL && res.ImageURL:
		return attachRefsContext(m.work.startAttaching(), []string{res.URL}, content, attachLimits(m.opts, &m.pics))
	}
	return tea.Batch(m.notes.say(m.comp.take(content, roomOf(m.opts, &m.pics))), m.menu.sync(m.comp.value()))
}

// checkAndAttach confirms that pasted paths are images or text files (a
// few bytes of each) and attaches the first keep of them; otherwise the paste goes
// into the composer as text.
func checkAndAttach(ctx context.Context, paths []string, keep int, pasted string, lim api.AttachLimits) tea.Cmd {
	attach := attachRefsContext(ctx, paths[:keep], pasted, lim)
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, pasteCheckTimeout)
		defer cancel()
		if err := paste.Check(cctx, paths); err != nil {
			return attachedMsg{text: pasted, err: err}
		}
		return attach()
	}
}
