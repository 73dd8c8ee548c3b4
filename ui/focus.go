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
// a pane's Show), never from a Focus or Blur call at the place that moved it.
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

// mode is who has the keys now; exactly one part handles a key.
type mode int

const (
	// modeComposer: the composer has the keys (with the command list and
	// the compare's columns above it); the chat's keys work. esc goes to
	// what is most pressing (cancelKey): a reply, an image run,
	// attachments being read, an edit, a wait, then the banner or the
	// notice shown, which it dismisses and does nothing else.
	modeComposer mode = iota
	// modeMessages: the message cursor's keys act on the selected message;
	// app keys act; any other key goes back to the composer.
	modeMessages
	// modePane: the side pane takes the keys it binds; app keys act; any
	// other key goes back to the composer.
	modePane
	// modeOverlay: the top layer has every key but an app key it does
	// not use, which closes the layers and acts.
	modeOverlay
)

// keyMode is the mode the keys are in: an open layer, else the part the
// focus is on.
func keyMode(top *layer, f focus) mode {
	switch {
	case top != nil:
		return modeOverlay
	case f.on == focusMessages:
		return modeMessages
	case f.on == focusPane:
		return modePane
	}
	return modeComposer
}

// toMessage puts the message cursor on message id.
func (f *focus) toMessage(id int) { *f = focus{on: focusMessages, msg: id} }
