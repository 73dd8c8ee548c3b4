package ui

import (
	tea "charm.land/bubbletea/v2"
)

// sidePane is a pane beside the transcript: it gets the right part of the
// transcript's rows when the screen is wide enough, and the transcript's
// whole area when it is not. Adding a pane is one file with a type
// implementing sidePane, plus the line that opens it (togglePane).
type sidePane interface {
	// name identifies the pane ("notices", …).
	name() string
	// draw returns the pane drawn into exactly w×h cells. It runs in
	// Update (composeFrame) and caches by its own inputs.
	draw(m *Model, w, h int) string
}

// togglePane opens p, or closes the side pane when a pane of that name is
// open already.
func (m *Model) togglePane(p sidePane) tea.Cmd {
	if m.pane != nil && m.pane.name() == p.name() {
		m.pane = nil
		return nil
	}
	m.pane = p
	return nil
}

// aboveView is the pane above the composer (the command list), or "".
func (m *Model) aboveView() string {
	if !m.menuOpen() || m.lay.Above.H == 0 {
		return ""
	}
	return m.menuView(m.lay.Above.W, m.lay.Above.H)
}
