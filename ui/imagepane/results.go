package imagepane

import "parley/api"

// The pane's results: what Update asks of the chat, each its own type,
// which the chat acts on by type. Nothing else comes out of the pane.

// Closed asks the chat to take the keys back (esc): the composer gets
// them, the pane stays open.
type Closed struct{}

// Said is a sentence the pane has for the user about the key just
// pressed (no image to act on, a pasted image without a file); the chat
// shows it with its other notices.
type Said struct{ Text string }

// Chosen asks the chat to act on the selected image.
type Chosen struct {
	Action Action
	Item   Item
	// Image is the image itself, found by Item.Key among what the chat
	// showed the pane (the conversation, the composer's images); its Data
	// is empty when the bytes are not at hand any more.
	Image api.Attachment
	// SavePath is where Save writes the copy: the absolute (when the
	// folders are known), cleaned path the user chose in the save prompt;
	// "~" expanded, a relative path started in Dirs.Work, a path ending
	// in "/" given the image's name.
	SavePath string
}
