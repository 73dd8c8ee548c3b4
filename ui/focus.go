package ui

// focus is the part of the chat that has the keys when no layer is open
// (an open layer always has them). The root holds it; components are told
// whether they have it when they are drawn and never keep it themselves.
type focus int

const (
	// focusComposer: keys edit the message; the chat's keys work.
	focusComposer focus = iota
	// focusPane: the side pane has the keys it binds; any other key gives
	// the focus back to the composer and is delivered there.
	focusPane
)
