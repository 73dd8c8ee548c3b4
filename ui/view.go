package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
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

// composeFrame joins the cached parts into the frame View returns: one
// allocation of exactly the frame's size.
func (m *Model) composeFrame() {
	l := m.lay
	var parts [6]string
	n := 0
	add := func(p string) {
		if p != "" {
			parts[n] = p
			n++
		}
	}
	switch m.overlay {
	case overlayFull:
		m.screen = m.overlayView
		return
	case overlayPanel:
		add(m.overlayView)
		add(m.statusView)
		add(m.comp.attachView)
		add(m.comp.view)
	default:
		add(m.bannerView)
		if l.Transcript.H > 0 {
			add(m.tr.View())
		}
		add(m.statusView)
		add(m.comp.attachView)
		add(m.comp.view)
	}
	add(m.hintView)
	// One allocation of exactly the frame.
	size := n
	for _, p := range parts[:n] {
		size += len(p)
	}
	var b strings.Builder
	b.Grow(size)
	for i, p := range parts[:n] {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}

	m.screen = b.String()
}

// renderOverlay refreshes the cached overlay area: a panel overlay's box is
// laid over the transcript; the setup screen takes the whole area.
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
	bg := m.panelBackground()
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
		lines = append(lines, strings.Split(m.tr.View(), "\n")...)
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
