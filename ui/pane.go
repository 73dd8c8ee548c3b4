package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/ui/uictx"
)

// sidePane is a pane beside the transcript: it gets the right part of the
// transcript's rows when the screen is wide enough, and the transcript's
// whole area when it is not. Its component is the UI's one contract
// (uictx.Component: a message in, an action out; drawn into its rectangle,
// exactly w×h cells, in Update (composeFrame), cached by its own inputs;
// its hints), told before each draw what the chat shows (show). A passive
// pane asks nothing and takes no keys; an interactive one (the notices,
// which scroll; the images) also implements focusablePane. Adding a pane is one file
// with a type implementing sidePane, plus the line that opens it
// (togglePane).
type sidePane interface {
	uictx.Component
	// name identifies the pane ("notices", …).
	name() string
	// show tells the pane what the chat shows now (in) and whether it has
	// the keys, before it is drawn.
	show(in paneInput, focused bool)
}

// focusablePane is a pane that can take the keys. While it has them it
// gets the keys it binds; any other key gives the focus back to the
// composer and is delivered there.
type focusablePane interface {
	sidePane
	// binds reports whether the pane takes a key press or a paste now.
	binds(msg tea.Msg) bool
}

// pictureWanter is a pane that shows a picture made in the background: it
// names the one it waits for after each draw, and takes it when made.
type pictureWanter interface {
	wantedPicture() (pictureRequest, bool)
	takePicture(msg panePictureMsg)
}

// paneInput is what a pane may read of the chat: the conversation on
// screen, the images waiting in the composer, the notices, the clock.
type paneInput struct {
	conv    *conversation.Conversation
	pending []api.Attachment
	notes   *notices
	now     time.Time
	// stored is where the history keeps an image's bytes, by its hash
	// (nil without history): a file to open or point to.
	stored func(hash string) string
}

// paneInput gathers what the panes read, in one place.
func (m *Model) paneInput() paneInput {
	in := paneInput{conv: m.eng.Conv(), pending: m.comp.attachments, notes: &m.notes, now: m.now()}
	if m.hist.Store != nil {
		in.stored = m.hist.Store.BlobPath
	}
	return in
}

// togglePane opens p, or closes the side pane when a pane of that name is
// open already. A pane that can take the keys gets them when it opens, and
// when it is open without them (it keeps what it shows; p is dropped).
func (m *Model) togglePane(p sidePane) tea.Cmd {
	_, takesKeys := m.pane.(focusablePane)
	switch {
	case m.pane != nil && m.pane.name() == p.name() && takesKeys && m.focus.on != focusPane:
		m.focus.toPane()
		return nil
	case m.pane != nil && m.pane.name() == p.name():
		m.pane = nil
		m.focus.toComposer()
		return nil
	}
	m.pane = p
	if _, ok := p.(focusablePane); ok {
		m.focus.toPane()
	}
	return nil
}
