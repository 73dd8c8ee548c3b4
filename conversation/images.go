package conversation

import (
	"fmt"

	"parley/api"
)

// RoleImages is the role of an image turn: images made (or edited) from a
// prompt in the chat. Its Text is the prompt, its Model the image model,
// its Attachments the images as saved (Name is the file's path), and Image
// says how they were asked for. An image turn is part of the transcript and
// the history but never of a chat request: it is the user's own tool, not
// something said to the model.
const RoleImages = "images"

// ImageTurn says how an image turn's images were asked for.
type ImageTurn struct {
	// Size is the size asked for ("1024x1024"), "" for the model's default.
	Size string `json:"size,omitempty"`
	// N is how many images were asked for.
	N int `json:"n,omitempty"`
	// From names the image an edit started from (its path or name); ""
	// for a generation.
	From string `json:"from,omitempty"`
	// Notes are what the saving had to say (another format's extension,
	// images the gateway sent beyond n).
	Notes []string `json:"notes,omitempty"`
}

// IsImages reports whether m is an image turn.
func (m Message) IsImages() bool { return m.Role == RoleImages }

// StartImages appends an image turn in progress (StateStreaming, so no
// other turn starts meanwhile) and returns its id.
func (c *Conversation) StartImages(prompt, model string, turn ImageTurn) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	m := Message{
		ID:      c.takeID(),
		Role:    RoleImages,
		Text:    prompt,
		Model:   model,
		State:   StateStreaming,
		Image:   &turn,
		Created: c.now(),
	}
	c.messages = append(c.messages, m)
	if c.title == "" && !c.titled {
		c.title = MakeTitle(prompt)
	}
	c.emitMessage(ChangeAppend, len(c.messages)-1)
	return m.ID, nil
}

// FinishImages closes the image turn in flight with the images saved.
func (c *Conversation) FinishImages(id int, images []api.Attachment, notes []string) error {
	if i := c.index(id); i < 0 || c.messages[i].Role != RoleImages {
		return fmt.Errorf("finish image turn %d: no such image turn", id)
	}
	return c.end(id, StateDone, func(m *Message) {
		m.Attachments = append([]api.Attachment(nil), images...)
		if len(notes) > 0 {
			t := *m.Image
			t.Notes = append([]string(nil), notes...)
			m.Image = &t
		}
	})
}

// RemoveLast drops the last message when it has the given id (a failed
// image turn about to be tried again).
func (c *Conversation) RemoveLast(id int) bool {
	n := len(c.messages)
	if n == 0 || c.messages[n-1].ID != id || c.messages[n-1].State == StateStreaming {
		return false
	}
	c.truncate(n - 1)
	return true
}
