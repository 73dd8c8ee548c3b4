package imagepane

import (
	"path/filepath"
	"time"
)

// Origin says how an image came into the conversation.
type Origin int

// The origins, each with its own marker in the list.
const (
	// Attached images were added by the user (a file, a paste).
	Attached Origin = iota
	// Generated images were made by an image model from a prompt.
	Generated
	// Edited images were made by an image model from another image.
	Edited
)

// String names the origin as the details block shows it.
func (o Origin) String() string {
	switch o {
	case Generated:
		return "Generated"
	case Edited:
		return "Edited"
	}
	return "Attached"
}

// marker is the origin's one-cell sign in the list. The characters are
// of neutral East Asian width, so every terminal gives them one cell.
func (o Origin) marker() string {
	switch o {
	case Generated:
		return "✦"
	case Edited:
		return "✎"
	}
	return "+"
}

// Item is one image of the conversation.
type Item struct {
	// Key identifies the image (the hex SHA-256 of its bytes).
	Key    string
	Origin Origin
	// Path is the file on disk; "" for a pasted image that was never saved.
	Path string
	// Name is what to call the image when Path is "" or Kept.
	Name string
	// Kept says Path is the history's copy of the image, a file named by
	// its hash: the image is called by Name, as it was when it was sent.
	Kept bool
	// Prompt, Model and Size are the generation's details ("" when
	// attached); Size is the requested size ("1024x1024").
	Prompt, Model, Size string
	// From is, for an edited image, the path or name of the image it was
	// made from.
	From string
	// Width and Height are in pixels, Bytes the encoded size.
	Width, Height, Bytes int
	MIME                 string
	Created              time.Time
}

// DisplayName is the name the pane shows: the base name of Path (Name
// when Path is the history's copy), else Name, else "image". It is not
// sanitised; the pane sanitises it before drawing.
func (it Item) DisplayName() string {
	if it.Kept && it.Name != "" {
		return it.Name
	}
	if it.Path != "" {
		return filepath.Base(it.Path)
	}
	if it.Name != "" {
		return it.Name
	}
	return "image"
}

// Action is what the pane asks the chat to do with the selected image
// (Chosen carries it).
type Action int

// The actions of Chosen. The zero Action is none of them.
const (
	// Attach the selected image to the next message.
	Attach Action = iota + 1
	// Open the selected image in the system viewer.
	Open
	// CopyPath copies the selected image's path to the clipboard.
	CopyPath
	// CopyImage copies the image itself to the clipboard.
	CopyImage
	// Save a copy of the selected image to Chosen.SavePath.
	Save
	// Edit the selected image (start an /edit).
	Edit
)

// String names the action (for tests and logs).
func (a Action) String() string {
	switch a {
	case Attach:
		return "attach"
	case Open:
		return "open"
	case CopyPath:
		return "copy path"
	case CopyImage:
		return "copy image"
	case Save:
		return "save"
	case Edit:
		return "edit"
	}
	return "none"
}
