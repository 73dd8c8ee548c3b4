package ui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/internal/desktop"
	"parley/media"
	"parley/ui/paste"
)

// Every image source arrives here: a bracketed paste (dropped files, a
// copied path, a URL), the clipboard (ctrl+v, /paste), /attach and the
// file picker. What is not an image stays text, so nothing pasted is lost.

// Time limits of the background work.
const (
	pasteCheckTimeout = 5 * time.Second
	// clipboardTimeout leaves room for two tool runs (macOS may need them).
	clipboardTimeout = 2*desktop.DefaultTimeout + time.Second
)

// paste handles a bracketed paste: image paths are attached (after their
// bytes are checked), a lone link to an image is attached as a link, and
// anything else is text in the composer.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	if m.menu.IsOpen() {
		m.comp.update(msg)
		return m.syncMenu()
	}
	return m.pasteText(msg.Content)
}

// pasteText is the paste path of text from a paste or the clipboard.
func (m *Model) pasteText(content string) tea.Cmd {
	res := paste.Parse(content, m.opts.Getenv("HOME"))
	switch {
	case res.Kind == paste.Paths:
		return m.attachUpTo(res.Paths, content, true)
	case res.Kind == paste.URL && res.ImageURL:
		return attachRefsContext(m.work.startAttaching(), []string{res.URL}, content, attachLimits(m.opts, &m.pics))
	}
	m.comp.insert(content)
	return m.syncMenu()
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

// clipboardReadMsg brings what the clipboard held.
type clipboardReadMsg struct {
	att  *api.Attachment
	text string
	err  error
}

// readClipboard reads the system clipboard in the background: an image is
// prepared for sending (scaled to the limits), text comes back as a paste.
func (m *Model) readClipboard() tea.Cmd {
	sys, lim, base := m.desktop, attachLimits(m.opts, &m.pics), m.work.startAttaching()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(base, clipboardTimeout)
		clip, err := sys.ReadClipboard(ctx)
		cancel()
		if err != nil {
			return clipboardReadMsg{err: err}
		}
		if !clip.IsImage() {
			return clipboardReadMsg{text: clip.Text}
		}
		a, err := api.AttachBytesContext(base, "clipboard"+clip.Info.Format.Ext(), clip.Image, lim)
		if err != nil {
			media.Reclaim(int64(len(clip.Image))) // the refused image is dropped here
			return clipboardReadMsg{err: err}
		}
		return clipboardReadMsg{att: &a}
	}
}

func (m *Model) clipboardRead(msg clipboardReadMsg) tea.Cmd {
	m.work.done()
	switch {
	case stopped(msg.err):
		return nil
	case errors.Is(msg.err, desktop.ErrEmpty):
		return m.notify(msg.err.Error(), toastInfo)
	case msg.err != nil:
		return m.notify(msg.err.Error(), toastWarn)
	case msg.att != nil:
		return m.addAttachments([]api.Attachment{*msg.att})
	}
	return m.pasteText(msg.text)
}
