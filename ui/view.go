package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
	"parley/ui/keys"
)

// View returns the frame Update composed. It renders and joins nothing
// itself: Markdown, the status bar, the hint line and overlays were rendered
// in Update, and Update joined them into one string.
func (m *Model) View() tea.View {
	l := m.lay
	v := tea.NewView(m.screen)
	v.AltScreen = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.windowTitle
	if m.overlay == overlayNone && !m.quitting {
		if c := m.comp.cursor(); c != nil {
			c.Position.X += l.Composer.X
			c.Position.Y += l.Composer.Y
			if c.Position.Y < l.Composer.Y+l.Composer.H && c.Position.X < l.Composer.X+l.Composer.W {
				v.Cursor = c
			}
		}
	}
	return v
}

// composeFrame joins the cached parts into the frame View returns.
func (m *Model) composeFrame() {
	switch m.overlay {
	case overlayFull:
		m.screen = m.overlayView
	case overlayPanel:
		m.screen = joinParts(m.overlayView, m.statusView, m.comp.attachView, m.comp.view, m.hintView)
	default:
		m.screen = m.baseFrame()
	}
}

// baseFrame is the chat screen without an overlay.
func (m *Model) baseFrame() string {
	tr := ""
	if m.lay.Transcript.H > 0 {
		tr = m.transcriptView()
	}
	return joinParts(m.bannerView, tr, m.statusView, m.comp.attachView, m.comp.view, m.hintView)
}

// joinParts joins the non-empty parts with newlines in one allocation of
// exactly the frame's size.
func joinParts(parts ...string) string {
	size := 0
	for _, p := range parts {
		if p != "" {
			size += len(p) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, p := range parts {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	return b.String()
}

// renderOverlay refreshes the cached overlay area: a panel overlay's box is
// laid over the transcript (alone on the screen when the screen is too
// small for a panel); the setup screen takes the whole area.
func (m *Model) renderOverlay() {
	switch m.openKind {
	case openNone:
		m.overlayView = ""
		return
	case openSetup:
		m.overlayView = fitBlock(strings.Split(m.setup.View(), "\n"), m.lay.Overlay.W, m.lay.Overlay.H)
		return
	}
	var box string
	var x, y int
	switch m.openKind {
	case openHelp:
		box, x, y = m.help.Box()
	case openModels, openThemes:
		box, x, y = m.picker.Box()
	}
	var bg []string
	if m.overlay == overlayFull {
		// A small screen: the box alone, on a clear screen (fragments of
		// the chat around it would only look broken).
		bg = make([]string, m.lay.Overlay.H)
		blank := strings.Repeat(" ", m.lay.Overlay.W)
		for i := range bg {
			bg[i] = blank
		}
	} else {
		bg = m.panelBackground()
	}
	m.overlayView = composite(bg, box, x, y, m.lay.Overlay.W)
}

// panelBackground is what a panel overlay covers: the banner and the
// transcript.
func (m *Model) panelBackground() []string {
	var lines []string
	if m.bannerView != "" {
		lines = append(lines, strings.Split(m.bannerView, "\n")...)
	}
	if m.lay.Transcript.H > 0 {
		lines = append(lines, strings.Split(m.transcriptView(), "\n")...)
	}
	return lines
}

// composite lays box (lines of equal width) over bg at (x, y).
func composite(bg []string, box string, x, y, w int) string {
	if box == "" {
		return strings.Join(bg, "\n")
	}
	boxLines := strings.Split(box, "\n")
	out := make([]string, len(bg))
	copy(out, bg)
	for i, bl := range boxLines {
		row := y + i
		if row < 0 || row >= len(out) {
			continue
		}
		bw := ansi.StringWidth(bl)
		line := out[row]
		left := ansi.Cut(line, 0, x)
		if lw := ansi.StringWidth(left); lw < x {
			left += strings.Repeat(" ", x-lw)
		}
		right := ""
		if x+bw < w {
			right = ansi.Cut(line, x+bw, w)
		}
		out[row] = left + "\x1b[m" + bl + "\x1b[m" + right
	}
	return strings.Join(out, "\n")
}

// renderTitle sets the window title: the conversation's title, sanitised
// (it is the user's text, but a title must not carry control characters).
func (m *Model) renderTitle() {
	t := "parley"
	if ct := m.conv.Title(); ct != "" {
		t = oneLine(termsafe.Sanitize(ct)) + " — parley"
	}
	m.windowTitle = t
}

// transcriptView is the transcript's window; a conversation without
// messages shows a short welcome instead of an empty area.
func (m *Model) transcriptView() string {
	if m.tr.Len() == 0 && m.emptyView != "" {
		return m.emptyView
	}
	return m.tr.View()
}

// renderEmpty draws the welcome of an empty conversation: two muted lines
// in the middle of the transcript's area, saying how to start and where
// the keys are (with the keys of the live key map).
func (m *Model) renderEmpty() {
	w, h := m.lay.Transcript.W, m.lay.Transcript.H
	if w <= 0 || h <= 0 {
		m.emptyView = ""
		return
	}
	km := m.keyMap()
	text := []string{
		"Ask anything: type below, " + firstKey(km.Send, "enter") + " sends.",
	}
	if hk := keys.Short(km.Help); hk != "" {
		text = append(text, strings.ReplaceAll(hk, "/", " or ")+" shows every key.")
	}
	st := m.ctx.Styles.TurnMeta
	lines := make([]string, h)
	top := max((h-len(text))/2, 0)
	for i := range lines {
		k := i - top
		if k < 0 || k >= len(text) {
			lines[i] = strings.Repeat(" ", w)
			continue
		}
		t := text[k]
		if tw := ansi.StringWidth(t); tw < w {
			t = strings.Repeat(" ", (w-tw)/2) + t
		}
		lines[i] = fitLine(st.Render(fitLine(t, w)), w)
	}
	m.emptyView = strings.Join(lines, "\n")
}
