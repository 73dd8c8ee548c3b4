package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/sidepane"
)

// The side pane's contract is ui/sidepane's: a pane beside the
// transcript is a uictx.Component that is told what the chat shows
// (Show) before each draw, drawn in Update (composeFrame) into exactly
// its w×h cells and cached by its own inputs; a pane that takes the keys
// is a sidepane.Focusable, one that shows a picture made in the
// background a sidepane.PictureWanter. The root holds the one open pane,
// gives it the keys it binds while it has the focus, and acts on its
// results by their types (handleResult). Adding a pane is a type
// implementing sidepane.Pane, plus the line that opens it (togglePane).
//
// paneInput gathers what the panes read, in one place.
func (m *Model) paneInput() sidepane.Input {
	in := sidepane.Input{Conv: m.eng.Conv(), Pending: m.comp.attachments, Notices: m.notes.log, Now: m.now()}
	if m.hist.Store != nil {
		in.Stored = m.hist.Store.BlobPath
	}
	return in
}

// togglePane opens p, or closes the side pane when a pane of that name is
// open already. A pane that can take the keys gets them when it opens, and
// when it is open without them (it keeps what it shows; p is dropped).
func (m *Model) togglePane(p sidepane.Pane) tea.Cmd {
	_, takesKeys := m.pane.(sidepane.Focusable)
	switch {
	case m.pane != nil && m.pane.Name() == p.Name() && takesKeys && m.focus.on != focusPane:
		m.focus.toPane()
		return nil
	case m.pane != nil && m.pane.Name() == p.Name():
		m.pane = nil
		m.focus.toComposer()
		return nil
	}
	m.pane = p
	if _, ok := p.(sidepane.Focusable); ok {
		m.focus.toPane()
	}
	return nil
}
