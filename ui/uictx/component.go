package uictx

import tea "charm.land/bubbletea/v2"

// Action is what a component asks of whoever holds it (close it, open a
// session, use a model, …), as a value of the component's own types; nil
// asks nothing. The holder acts on it in one place, by its type: no type
// sits between a component's result and the holder to translate it.
type Action any

// Component is the one contract of the chat's overlays, panes and
// pickers: it handles a message routed to it and reports what it asks as
// an Action, draws into the rectangle it was given, and lists the keys
// that matter while it shows.
type Component interface {
	// Update handles a message: a key, a paste, or the result of work
	// the component started.
	Update(msg tea.Msg) (tea.Cmd, Action)
	// SetSize gives the component its rectangle, w×h cells.
	SetSize(w, h int)
	// Draw draws the component into its rectangle: its box and where
	// in the rectangle the box goes (a component that fills it returns
	// 0, 0).
	Draw() (box string, x, y int)
	// Hints are the keys that matter while the component shows.
	Hints() []Hint
}
