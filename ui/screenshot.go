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

// Screenshots come two ways: /screenshot (and its key) runs the desktop's
// region capture and attaches what the user drew; /attach latest attaches
// the newest image of the screenshots folder. Both read the image with the
// budgets every image has, in a command, and esc stops them (the capture
// tool's process group is killed).

// screenshotMsg brings a region capture, attached (or why not).
type screenshotMsg struct {
	att *api.Attachment
	err error
}

// latestMsg brings the newest screenshot of the folder, attached (or why
// not), and when it was taken.
type latestMsg struct {
	att   *api.Attachment
	taken time.Time
	err   error
}

// takeScreenshot runs the region capture and attaches the result.
func (m *Model) takeScreenshot() tea.Cmd {
	sys, lim, base := m.desktop, attachLimits(m.opts, &m.pics), m.work.startAttaching()
	name := "screenshot-" + m.now().Format("20060102-150405")
	capture := func() tea.Msg {
		shot, err := sys.CaptureRegion(base)
		if err != nil {
			return screenshotMsg{err: err}
		}
		a, err := api.AttachBytesContext(base, name+shot.Info.Format.Ext(), shot.Image, lim)
		if err != nil {
			media.Reclaim(int64(len(shot.Image)))
			return screenshotMsg{err: err}
		}
		return screenshotMsg{att: &a}
	}
	return tea.Batch(capture, m.notify("draw the region to capture; esc here stops the capture", toastInfo))
}

// screenshotTaken attaches a capture, or says why there is none.
func (m *Model) screenshotTaken(msg screenshotMsg) tea.Cmd {
	m.work.done()
	switch {
	case stopped(msg.err):
		return nil
	case errors.Is(msg.err, desktop.ErrCancelled):
		return m.notify("screenshot cancelled", toastInfo)
	case msg.err != nil:
		return m.notify(userSentence(msg.err), toastWarn)
	}
	return m.addAttachments([]api.Attachment{*msg.att})
}

// attachLatest attaches the newest image of the screenshots folder
// (screenshots_dir, else the desktop's own).
func (m *Model) attachLatest() tea.Cmd {
	sys, lim, base := m.desktop, attachLimits(m.opts, &m.pics), m.work.startAttaching()
	dir := ""
	if m.opts.Config != nil {
		dir = m.opts.Config.ScreenshotsDir()
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(base, clipboardTimeout)
		shot, err := sys.LatestScreenshot(ctx, dir)
		cancel()
		if err != nil {
			return latestMsg{err: err}
		}
		a, err := api.AttachContext(base, shot.Path, lim)
		if err != nil {
			return latestMsg{err: err}
		}
		return latestMsg{att: &a, taken: shot.ModTime}
	}
}

// latestAttached attaches the newest screenshot and says which it is and
// how old, so an old one taken by mistake is noticed.
func (m *Model) latestAttached(msg latestMsg) tea.Cmd {
	m.work.done()
	switch {
	case stopped(msg.err):
		return nil
	case msg.err != nil:
		return m.notify(userSentence(msg.err), toastWarn)
	}
	before := len(m.comp.attachments)
	cmd := m.addAttachments([]api.Attachment{*msg.att})
	if len(m.comp.attachments) == before {
		return cmd
	}
	said := fmt.Sprintf("attached the newest screenshot, %s, taken %s", cells.OneLine(filepath.Base(msg.att.Name)), age(m.now().Sub(msg.taken)))
	return tea.Batch(cmd, m.notify(said, toastOK))
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
