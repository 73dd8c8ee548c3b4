package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/internal/desktop"
	"parley/media"
	"parley/ui/cells"
)

// Three sources read the desktop: the clipboard (ctrl+v, /paste), a region
// capture (/screenshot and its key: the user draws the region) and the
// newest image of the screenshots folder (/attach latest). Each reads the
// image with the budgets every image has, in a command that esc stops (a
// capture tool's process group is killed), and brings a grabbedMsg, which
// one handler acts on.

// grabber runs one read of the desktop; it holds what the command needs,
// taken from the model when the read starts.
type grabber struct {
	sys  desktop.System
	lim  api.AttachLimits
	base context.Context // cancelled by esc and by leaving
}

// grabbedMsg brings what a read of the desktop found when it found no
// image: clipboard text to paste, or why there is none. An image comes as
// an attachedMsg, as every attachment does.
type grabbedMsg struct {
	text string
	err  error
	// clipboard: a read of the clipboard (a desktop without one is
	// then asked through the terminal).
	clipboard bool
}

// grab starts a read of sys, counted as attaching work, its image
// prepared within lim.
func (w *work) grab(sys desktop.System, lim api.AttachLimits) grabber {
	return grabber{sys: sys, lim: lim, base: w.startAttaching()}
}

// clipboard reads the system clipboard: an image is prepared for sending
// (scaled to the limits), text comes back as a paste.
func (g grabber) clipboard() tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(g.base, clipboardTimeout)
		clip, err := g.sys.ReadClipboard(ctx)
		cancel()
		if err != nil {
			return grabbedMsg{err: err, clipboard: true}
		}
		if !clip.IsImage() {
			return grabbedMsg{text: clip.Text}
		}
		return g.attachBytes("clipboard"+clip.Info.Format.Ext(), clip.Image)
	}
}

// region runs the desktop's region capture; the image is called name.
func (g grabber) region(name string) tea.Cmd {
	return func() tea.Msg {
		shot, err := g.sys.CaptureRegion(g.base)
		if err != nil {
			return grabbedMsg{err: err}
		}
		return g.attachBytes(name+shot.Info.Format.Ext(), shot.Image)
	}
}

// latest finds the newest image of the screenshots folder dir (the
// desktop's own when empty).
func (g grabber) latest(dir string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(g.base, clipboardTimeout)
		shot, err := g.sys.LatestScreenshot(ctx, dir)
		cancel()
		if err != nil {
			return grabbedMsg{err: err}
		}
		a, err := api.AttachContext(g.base, shot.Path, g.lim)
		if err != nil {
			return grabbedMsg{err: err}
		}
		return attachedMsg{atts: []api.Attachment{a}, taken: shot.ModTime}
	}
}

// attachBytes prepares an image read from the desktop for sending.
func (g grabber) attachBytes(name string, data []byte) tea.Msg {
	a, err := api.AttachBytesContext(g.base, name, data, g.lim)
	if err != nil {
		media.Reclaim(int64(len(data))) // the refused image is dropped here
		return grabbedMsg{err: err}
	}
	return attachedMsg{atts: []api.Attachment{a}}
}

// grabbed acts on a read of the desktop that found no image: pastes
// clipboard text, or says why there is nothing (a send that waited for it
// stays unsent).
func (m *Model) grabbed(msg grabbedMsg) tea.Cmd {
	m.work.done()
	var cmd tea.Cmd
	switch {
	case stopped(msg.err):
		return nil
	case msg.clipboard && errors.Is(msg.err, desktop.ErrNoDesktop) && m.term.clip.idle():
		// No desktop clipboard (SSH, a console): the terminal's, if it
		// shares it.
		return m.term.clip.start(m.work.grab(m.desktop, attachLimits(m.opts, &m.pics)), m.opts.Getenv("TERM"))
	case errors.Is(msg.err, desktop.ErrCancelled):
		cmd = m.notes.show("screenshot cancelled", toastInfo)
	case errors.Is(msg.err, desktop.ErrEmpty):
		cmd = m.notes.show(userSentence(msg.err), toastInfo)
	case msg.err != nil:
		cmd = m.notes.show(userSentence(msg.err), toastWarn)
	default:
		cmd = m.pasteText(msg.text)
	}
	m.work.arrived(m.eng, true)
	return cmd
}

// screenshotTaken says which screenshot the newest of the folder was and
// how old, so an old one taken by mistake is noticed.
func screenshotTaken(a api.Attachment, ago time.Duration) noticeResult {
	return noticeResult{fmt.Sprintf("attached the newest screenshot, %s, taken %s", cells.OneLine(filepath.Base(a.Name)), age(ago)), toastOK}
}

// age says how long ago something happened, the way people say it.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "1 minute ago", fmt.Sprintf("%d minutes ago", int(d/time.Minute)))
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "1 hour ago", fmt.Sprintf("%d hours ago", int(d/time.Hour)))
	}
	return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
}
