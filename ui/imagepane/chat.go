package imagepane

import (
	"path/filepath"
	"strings"
	"time"

	"parley/api"
	"parley/conversation"
	"parley/ui/sidepane"
)

// source is the state of what the chat shows that the items are made
// from: it changes whenever an image may have come or gone (a message
// added, removed or finished, a switch of branch, another conversation,
// the composer's images), and a frame that changed none of it makes no
// items.
type source struct {
	conv       *conversation.Conversation
	n          int
	lastID     int
	lastState  conversation.State
	lastImages int
	pending    int
	lastHash   string
}

// sourceOf reads the source of conv and pending without walking the
// conversation: one message, the last, is read (and copied).
func sourceOf(conv *conversation.Conversation, pending []api.Attachment) source {
	s := source{conv: conv, pending: len(pending)}
	if conv != nil {
		if s.n = conv.Len(); s.n > 0 {
			last := conv.At(s.n - 1)
			s.lastID, s.lastState, s.lastImages = last.ID, last.State, len(last.Attachments)
		}
	}
	if c := len(pending); c > 0 {
		s.lastHash = pending[c-1].SHA256
	}
	return s
}

// Show takes what the chat shows before a draw: the items are made from
// the conversation and the composer's images when those changed, and
// focused says whether the pane has the keys.
func (p *Pane) Show(in sidepane.Input, focused bool) {
	p.conv, p.pending, p.focused = in.Conv, in.Pending, focused
	if s := sourceOf(in.Conv, in.Pending); s != p.src {
		p.src = s
		p.setItems(itemsOf(in.Conv, in.Pending, in.Now, in.Stored))
	}
}

// itemsOf lists every image of the conversation and of the composer (not
// the text files). It walks the conversation's own messages, copying
// none.
func itemsOf(conv *conversation.Conversation, pending []api.Attachment, now time.Time, stored func(string) string) []Item {
	var out []Item
	if conv != nil {
		for msg := range conv.PathMessages() {
			for _, a := range msg.Attachments {
				if len(a.Data) == 0 || a.IsText() {
					continue
				}
				it := itemFor(msg, a)
				if it.Path == "" && stored != nil && a.SHA256 != "" {
					// A sent image's file is the one the history keeps,
					// named by its hash; the image keeps its own name.
					it.Path, it.Kept = stored(a.SHA256), true
				}
				out = append(out, it)
			}
		}
	}
	next := &conversation.Message{Role: api.RoleUser, Created: now}
	for _, a := range pending {
		if len(a.Data) == 0 || a.IsText() {
			continue
		}
		it := itemFor(next, a)
		it.Name = "next message: " + a.Name
		out = append(out, it)
	}
	return out
}

// itemFor is the item of image a of msg: attached by the user, made by a
// chat model with its reply, or made (or edited) by an image turn.
func itemFor(msg *conversation.Message, a api.Attachment) Item {
	it := Item{
		Key: a.SHA256, Origin: Attached, Name: a.Name,
		Width: a.Width, Height: a.Height, Bytes: len(a.Data), MIME: a.MIME, Created: msg.Created,
		// An attached file keeps its own path: o opens it, c copies it.
		Path: a.Path,
	}
	if msg.Role == api.RoleAssistant {
		// Made by a chat model with its reply: saved like /image's when
		// its name is the file's path.
		it.Origin, it.Model = Generated, msg.Model
		if filepath.IsAbs(a.Name) {
			it.Path, it.Name = a.Name, ""
		}
	}
	if msg.IsImages() {
		it.Origin, it.Path, it.Name = Generated, a.Name, ""
		it.Prompt, it.Model = msg.Text, msg.Model
		if t := msg.Image; t != nil {
			it.Size = t.Size
			if t.From != "" {
				it.Origin, it.From = Edited, t.From
			}
		}
	}
	return it
}

// SelectedImage is the selected image itself (its bytes), found by its
// key among what the chat last showed the pane; false when nothing is
// selected or its bytes are not at hand.
func (p *Pane) SelectedImage() (api.Attachment, bool) {
	it, ok := p.Selected()
	if !ok {
		return api.Attachment{}, false
	}
	return findImage(p.conv, p.pending, it.Key)
}

// findImage finds an image of the composer or of the conversation by the
// hex SHA-256 of its bytes: the composer's first, then the newest of the
// conversation's. It walks the conversation's own messages, copying none.
func findImage(conv *conversation.Conversation, pending []api.Attachment, key string) (api.Attachment, bool) {
	for _, a := range pending {
		if a.SHA256 == key && !a.IsText() {
			return a, true
		}
	}
	var found api.Attachment
	ok := false
	if conv != nil {
		for msg := range conv.PathMessages() {
			for _, a := range msg.Attachments {
				if strings.EqualFold(a.SHA256, key) && len(a.Data) > 0 && !a.IsText() {
					found, ok = a, true
				}
			}
		}
	}
	return found, ok
}
