package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
)

// View returns the frame Update composed. It renders and joins nothing
// itself: Markdown, the status bar, the hint line and the layers were
// rendered in Update, and Update joined them into one string.
func (m *Model) View() tea.View {
	l := m.screen.lay
	v := tea.NewView(m.screen.frame)
	v.AltScreen = true
	if m.term.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.screen.chrome.title
	if m.layers.top() == nil && !m.quitting {
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

// composeFrame draws every part into its rectangle and joins them into the
// frame View returns; the top layer is laid over its area.
func (m *Model) composeFrame() {
	l := m.screen.lay
	f := frame{w: l.Width, h: l.Height}
	kind := l.OverlayKind
	if kind != overlayFull {
		f.place(l.Banner, m.screen.chrome.banner)
		if l.Transcript.H > 0 && l.Transcript.W > 0 {
			// A conversation without messages shows a short welcome.
			view := m.screen.chrome.empty
			if m.tr.List().Len() > 0 || view == "" {
				view = m.tr.List().View()
			}
			if cv, ok := m.cmp.draw(m.ctx, m.eng, m.eng.Catalog(), l.Transcript.W, l.Transcript.H, m.now()); ok {
				view = cv
			}
			f.place(l.Transcript, view)
		}
		if m.pane != nil {
			m.pane.SetSize(l.Side.W, l.Side.H)
			m.pane.Show(m.paneInput(), m.layers.top() == nil && m.focus.on == focusPane)
			box, _, _ := m.pane.Draw()
			f.place(l.Side, box)
		}
		if m.menu.IsOpen() && l.Above.H > 0 {
			f.place(l.Above, m.menu.View(l.Above.W, l.Above.H))
		}
		f.place(l.Status, m.screen.chrome.status)
		f.place(l.Attach, m.comp.attachView)
		f.place(l.Composer, m.comp.view)
		f.place(l.Hint, m.screen.chrome.hint)
	}
	defer func() {
		if !m.term.graphemes {
			m.screen.frame = cells.ForWcWidth(m.screen.frame)
		}
	}()
	top := m.layers.top()
	if top == nil {
		m.screen.frame = f.String()
		return
	}
	box, x, y := top.Draw()
	area := l.Overlay
	if kind == overlayFull {
		// A small screen (or a full-screen layer): the box alone, on a
		// clear screen; fragments of the chat around it would only look
		// broken.
		m.screen.frame = layOver("", l.Width, l.Height, box, x, y)
		return
	}
	// A panel stays in its area: the status bar and the composer below it
	// stay whole.
	if rows := strings.Split(box, "\n"); len(rows) > area.H-y {
		box = strings.Join(rows[:max(area.H-y, 0)], "\n")
	}
	m.screen.frame = layOver(f.String(), l.Width, l.Height, box, area.X+x, area.Y+y)
}
