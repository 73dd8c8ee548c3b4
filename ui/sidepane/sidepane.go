// Package sidepane is the contract of a pane beside the transcript (the
// image pane, the notices): the component it is (uictx.Component), what
// the chat tells it before each draw (Input), what a pane that takes the
// keys adds (Focusable), and how a pane asks for a picture made in the
// background and takes it when made (PictureWanter). A pane implements
// it in a package of its own; the root holds a Pane, tells it what the
// chat shows, draws it, and acts on the results it returns by their
// types.
//
// It is a package apart from uictx because Input carries the
// conversation: uictx is read by every part of the UI, down to the list
// and the line editor, which have no business importing the chat's state.
package sidepane

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/ui/preview"
	"parley/ui/uictx"
)

// Pane is a pane beside the transcript: it gets the right part of the
// transcript's rows when the screen is wide enough, and the transcript's
// whole area when it is not. A passive pane asks nothing and takes no
// keys; an interactive one also implements Focusable.
type Pane interface {
	uictx.Component
	// Name identifies the pane ("images", "notices"): opening a pane of
	// the name already open closes it.
	Name() string
	// Show tells the pane what the chat shows now (in) and whether it has
	// the keys, before it is drawn. A pane caches by its own inputs: a
	// Show that changed nothing makes it redo nothing.
	Show(in Input, focused bool)
}

// Focusable is a pane that can take the keys. While it has them it gets
// the keys (and pastes) it binds; any other key gives the focus back to
// the composer and is delivered there.
type Focusable interface {
	Pane
	// Binds reports whether the pane takes a key press or a paste now.
	Binds(msg tea.Msg) bool
}

// PictureWanter is a pane that shows a picture made in the background: it
// names the one it waits for after each draw (once: it is not named
// again while it is being made), and takes it when made.
type PictureWanter interface {
	WantedPicture() (PictureRequest, bool)
	TakePicture(p Picture)
}

// PictureRequest is a picture a pane waits for: Src drawn into W×H
// cells, named Key.
type PictureRequest struct {
	Key  string
	Src  preview.Source
	W, H int
}

// Picture is what became of a PictureRequest: its lines, or why it could
// not be made, or that the work was stopped before it ended.
type Picture struct {
	Key   string
	Lines []string
	// Failed says, in a sentence for the user, why the picture could not
	// be made ("" when it was).
	Failed string
	// Stopped: the work was stopped (its conversation was left); a pane
	// that still wants the picture names it again.
	Stopped bool
}

// Input is what a pane may read of the chat: the conversation on screen,
// the images waiting in the composer, the notices of this run, the clock.
// A pane reads it and keeps nothing of it beyond the next Show.
type Input struct {
	Conv    *conversation.Conversation
	Pending []api.Attachment
	// Notices are this run's notices, oldest first.
	Notices []Notice
	Now     time.Time
	// Stored is where the history keeps an image's bytes, by their hex
	// SHA-256 (nil without history): a file to open or point to.
	Stored func(hash string) string
}

// Notice is one notice of the run as the notices pane lists it: its text
// (folded to clean lines already), the icon of its kind, when it was
// shown, and its number (a notice shown again gets a new one).
type Notice struct {
	Text string
	Icon string
	At   time.Time
	Gen  int
}
