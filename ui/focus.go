package ui

// focusPart is the part of the chat that has the keys when no layer is
// open (an open layer always has them).
type focusPart int

const (
	// focusComposer: keys edit the message; the chat's keys work.
	focusComposer focusPart = iota
	// focusPane: the side pane has the keys it binds; any other key gives
	// the focus back to the composer and is delivered there.
	focusPane
	// focusMessages: the message cursor is on a message (msg); its keys act
	// on it, any other key goes back to the composer.
	focusMessages
)

// focus says which part has the keys; the root holds it, components are
// told whether they have it when they are drawn and never keep it.
// It changes only through its three moves, each a whole state (the
// composer's or the pane's focus never keeps a message of the cursor);
// the textarea and the panes learn it when they are drawn (composer.sync,
// paneInput), never from a Focus or Blur call at the place that moved it.
// One exception: a key delivered to the composer focuses the textarea
// first (composer.update), since a blurred textarea takes no key and the
// key that gave the composer the focus back is typed before the next
// sync.
type focus struct {
	on  focusPart
	msg int // the message the cursor is on (focusMessages)
}

// toComposer gives the keys to the composer.
func (f *focus) toComposer() { *f = focus{} }

// toPane gives the keys to the side pane.
func (f *focus) toPane() { *f = focus{on: focusPane} }

// toMessage puts the message cursor on message id.
func (f *focus) toMessage(id int) { *f = focus{on: focusMessages, msg: id} }
