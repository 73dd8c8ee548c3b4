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

// Foreign reports a message of a role parley never writes ("system",
// "tool", anything but user, assistant and an image turn): it can only
// come from a store edited by hand. It is shown for what it is and never
// sent, so a row cannot become a system prompt behind the user's back.
func (m Message) Foreign() bool {
	return m.Role != api.RoleUser && m.Role != api.RoleAssistant && m.Role != RoleImages
}

// StartImages appends an image turn in progress (StateStreaming, so no
// other turn starts meanwhile) and returns its id.
func (c *Conversation) StartImages(prompt, model string, turn ImageTurn) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	m := Message{
		ID:      c.tree.takeID(),
		Role:    RoleImages,
		Text:    prompt,
		Model:   model,
		State:   StateStreaming,
		Image:   &turn,
		Created: c.now(),
	}
	if c.title == "" && !c.titled {
		c.title = MakeTitle(prompt)
	}
	n := c.tree.attach(m)
	c.emitNode(ChangeAppend, n)
	c.flying = append(c.flying, n)
	return m.ID, nil
}

// StartImagesAgain makes the image turn of (anywhere in the tree) again:
// a new image turn in progress beside it, as its alternative, with the
// active path switched to the new one. An image turn that ended without
// any image is replaced instead (see noise), when nothing follows it.
func (c *Conversation) StartImagesAgain(of int, prompt, model string, turn ImageTurn) (int, error) {
	if err := c.canBranch(); err != nil {
		return 0, err
	}
	n := c.tree.node(of)
	if n == nil || n.msg.Role != RoleImages {
		return 0, fmt.Errorf("make images again: %w", unknownMessage(of))
	}
	c.branchUnder(n.parent, n)
	return c.StartImages(prompt, model, turn)
}

// FinishImages closes the image turn in flight with the images saved.
func (c *Conversation) FinishImages(id int, images []api.Attachment, notes []string) error {
	if n := c.tree.node(id); n == nil || n.msg.Role != RoleImages {
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

// RemoveLast drops the active path's last message when it has the given
// id, is not in flight and nothing follows it in any branch (a failed
// image turn about to be tried again). Listeners hear ChangeRemove.
func (c *Conversation) RemoveLast(id int) bool {
	n := c.tree.leaf()
	if n.depth < 0 || n.msg.ID != id || n.msg.State == StateStreaming || len(n.children) > 0 {
		return false
	}
	c.tree.detach(n)
	c.emit(Change{Kind: ChangeRemove, Removed: []int{n.msg.ID}})
	return true
}
