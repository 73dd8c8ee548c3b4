package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"parley/internal/desktop"
	"parley/ui/termclip"
)

// termClipLimit bounds what a read through the terminal takes: far more
// than any screenshot, far less than would hold the chat up.
const termClipLimit = 64 << 20

// termClipExpired is the end of one wait of a read through the terminal.
type termClipExpired struct{ gen int }

// termClip reads the clipboard through the terminal when there is no
// desktop clipboard (over SSH, on a console): kitty's protocol in kitty
// (images too), else OSC 52's read (text). What it brings ends as the
// grabbedMsg every read of the desktop ends in. It lives with the
// terminal's state; the attaching work's context (esc) ends it.
type termClip struct {
	r   termclip.Reader
	g   grabber
	ctx context.Context
}

// start begins a read for g (made by Model.grab: counted as attaching
// work), through kitty's protocol when term names kitty.
func (c *termClip) start(g grabber, term string) tea.Cmd {
	c.g, c.ctx = g, g.base
	return c.step(c.r.Start(term == "xterm-kitty", termClipLimit))
}

// idle reports whether no read is in flight.
func (c *termClip) idle() bool { return c.r.Phase() == termclip.Idle }

// msg takes what the terminal answered and the ends of the waits; false
// for a message that is not the read's.
func (c *termClip) msg(msg tea.Msg) (tea.Cmd, bool) {
	if c.idle() {
		return nil, false
	}
	var st termclip.Step
	switch msg := msg.(type) {
	case uv.UnknownOscEvent:
		var ok bool
		if st, ok = c.r.Feed(string(msg)); !ok {
			return nil, false
		}
	case tea.ClipboardMsg:
		st = c.r.OSC52Text(msg.Content)
	case termClipExpired:
		st = c.r.Expire(msg.gen)
	default:
		return nil, false
	}
	if c.ctx.Err() != nil {
		c.r.Cancel() // esc stopped the attaching work
		return nil, true
	}
	return c.step(st), true
}

// step carries out what the read asks for.
func (c *termClip) step(st termclip.Step) tea.Cmd {
	var cmds []tea.Cmd
	if st.Write != "" {
		cmds = append(cmds, tea.Raw(st.Write))
	}
	if st.ReadOSC52 {
		cmds = append(cmds, tea.ReadClipboard)
	}
	if st.Wait > 0 {
		gen := st.Gen
		cmds = append(cmds, tea.Tick(st.Wait, func(time.Time) tea.Msg { return termClipExpired{gen} }))
	}
	if st.Done {
		cmds = append(cmds, c.result(st.Result))
	}
	return tea.Batch(cmds...)
}

// result turns what the read found into a grabbedMsg: an image prepared
// for sending (off Update), text to paste, or why there is neither.
func (c *termClip) result(res termclip.Result) tea.Cmd {
	g := c.g
	switch {
	case errors.Is(res.Err, termclip.ErrEmpty):
		return func() tea.Msg { return grabbedMsg{err: emptyTerminalClip{}} }
	case res.Err != nil:
		err := fmt.Errorf("cannot read the clipboard: there is no desktop clipboard here (SSH or a console), and %w; paste text with your terminal's paste key, or attach the image file", res.Err)
		return func() tea.Msg { return grabbedMsg{err: err} }
	case res.Image != nil:
		return func() tea.Msg { return g.attachBytes("clipboard.png", res.Image) }
	}
	return func() tea.Msg { return grabbedMsg{text: res.Text} }
}

// emptyTerminalClip is an empty clipboard read through the terminal: a
// hint, like the desktop's (desktop.ErrEmpty).
type emptyTerminalClip struct{}

func (emptyTerminalClip) Error() string        { return termclip.ErrEmpty.Error() }
func (emptyTerminalClip) Is(target error) bool { return target == desktop.ErrEmpty }
