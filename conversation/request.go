package conversation

import (
	"parley/api"
)

// RequestOptions shape the messages sent for the next reply.
type RequestOptions struct {
	// SystemPrompt, when not empty, is sent first as a system message in
	// place of the conversation's own (Conversation.SystemPrompt).
	SystemPrompt string
	// MaxHistory limits how many messages before the one being answered
	// are sent (0: all). The oldest go first, and a turn goes whole (a
	// request never opens with a reply, so an odd limit carries one
	// fewer); the system prompt does not count.
	MaxHistory int
	// WithoutImages sends earlier turns without images: the images of
	// every user message but the last one stay out of the request (for a
	// model without vision); text files go all the same. The last user
	// message is sent as it is.
	WithoutImages bool
}

// Request is what the next chat request carries.
type Request struct {
	Messages []api.Message
	// Trimmed is how many conversation messages were left out for MaxHistory.
	Trimmed int
	// Dropped lists the ids of user messages left out because their turn
	// failed (the reply failed, or was stopped before any text, or never
	// came, and another message followed; a reply that finished with only
	// reasoning keeps its question),
	// so the caller can say on screen that they were not sent. A failed
	// reply goes with its message. Messages already trimmed by MaxHistory
	// are not listed.
	Dropped []int
	// HasImages says whether the request carries an image, so the caller can
	// check the model's vision capability before sending.
	HasImages bool
	// ImagesFrom lists the ids of the messages whose images are carried.
	ImagesFrom []int
	// Excluded lists the ids of the user messages whose turns were left
	// out on purpose (SetExcluded).
	Excluded []int
}

// imageOmitted stands in for a user message that was only images when
// those are not sent, so the reply that follows still answers a message.
const imageOmitted = "[image omitted]"

// BuildRequest returns the active path as chat messages: user turns with
// their images and text files, assistant replies as far as they got
// (interrupted replies included when they have text, never their
// reasoning), preceded by the system prompt. Nothing from other branches
// is sent, nor a message of a role parley does not write (Foreign). The reply in flight and empty replies are left out, and so are
// turns left out with SetExcluded (listed in Excluded). A failed turn is
// left out whole and listed in Dropped: what one message on screen says is
// never merged into another (ctrl+r resends the last message instead).
func (c *Conversation) BuildRequest(opts RequestOptions) Request {
	return buildRequest(c.tree.path, c.system, opts)
}

// buildRequest is BuildRequest for path, with system as the
// conversation's own prompt.
func buildRequest(path []*node, system string, opts RequestOptions) Request {
	sendable, dropped, excluded := sendable(path)
	var r Request
	keep := opts.MaxHistory
	if keep > 0 && len(sendable) > 0 && sendable[len(sendable)-1].msg.Role == api.RoleUser {
		keep++ // the message being answered is not an earlier one
	}
	if keep > 0 && len(sendable) > keep {
		trimmed := len(sendable) - keep
		// A conversation sent to a model should not open with a reply.
		for trimmed < len(sendable)-1 && sendable[trimmed].msg.Role != api.RoleUser {
			trimmed++
		}
		first := sendable[trimmed].msg.ID
		sendable = sendable[trimmed:]
		r.Trimmed = trimmed
		for _, id := range dropped {
			if id > first {
				r.Dropped = append(r.Dropped, id)
			}
		}
	} else {
		r.Dropped = dropped
	}
	r.Excluded = excluded
	if opts.SystemPrompt != "" {
		system = opts.SystemPrompt
	}
	lastUser := -1
	for i := len(sendable) - 1; i >= 0; i-- {
		if sendable[i].msg.Role == api.RoleUser {
			lastUser = i
			break
		}
	}
	if system != "" {
		r.Messages = make([]api.Message, 0, 1+len(sendable))
		r.Messages = append(r.Messages, api.TextMessage(api.RoleSystem, system))
	} else if len(sendable) > 0 {
		r.Messages = make([]api.Message, 0, len(sendable))
	}
	for i, n := range sendable {
		m := n.msg
		// A reply's own images (a model that makes images) go back as
		// its text alone: no gateway takes images from the assistant.
		withImages := m.Role == api.RoleUser && hasImages(m.Attachments) && (!opts.WithoutImages || i == lastUser)
		if withImages {
			r.HasImages = true
			r.ImagesFrom = append(r.ImagesFrom, m.ID)
		}
		if m.Role == api.RoleAssistant && len(m.Tools) > 0 {
			r.Messages = appendReply(r.Messages, m)
			continue
		}
		r.Messages = append(r.Messages, apiMessage(m, withImages))
	}
	return r
}

// sendable returns the nodes of path whose messages a request may carry,
// in order, the ids of the user messages left out because their turn
// failed, and those of the user messages whose turns were left out on
// purpose. It returns nodes, not copies of their messages: a long
// conversation's request is built without a second copy of the path.
func sendable(path []*node) (out []*node, dropped, excluded []int) {
	out = make([]*node, 0, len(path))
	skip := len(path) > 0 && excludedNode(path[0])
	for i := 0; i < len(path); i++ {
		m := path[i].msg
		switch m.Role {
		case api.RoleUser:
			skip = path[i].excluded
			if skip {
				excluded = append(excluded, m.ID)
			}
		case RoleImages:
			skip = false
		}
		if skip || m.Role == RoleImages || m.Foreign() {
			continue
		}
		if m.Role == api.RoleAssistant && (m.State == StateStreaming || m.Text == "" && len(m.Tools) == 0) {
			continue
		}
		if m.Role != api.RoleUser {
			out = append(out, path[i])
			continue
		}
		switch reply := replyTo(path, i); {
		case reply >= 0 && path[reply].msg.State == StateFailed:
			// The failed reply goes with it; the loop skips it below.
			dropped = append(dropped, m.ID)
			i = reply
		case reply < 0 && answeredWithoutText(path, i):
			// The model finished, with only reasoning (or nothing): the
			// question was asked and answered, so it stays; the reply has
			// no text to send.
			out = append(out, path[i])
		case reply < 0 && nextUser(path, i) >= 0:
			dropped = append(dropped, m.ID)
		default:
			out = append(out, path[i])
		}
	}
	return out, dropped, excluded
}

// replyTo returns the index of the reply to the user message at i: the
// first assistant message after it, before the next user message, that is
// not an empty interrupted or streaming one; -1 when there is none.
func replyTo(path []*node, i int) int {
	for j := i + 1; j < len(path); j++ {
		m := path[j].msg
		if m.Role == api.RoleUser {
			return -1
		}
		if m.Role != api.RoleAssistant || m.State == StateStreaming {
			continue
		}
		if m.Text != "" || len(m.Tools) > 0 || m.State == StateFailed {
			return j
		}
	}
	return -1
}

// answeredWithoutText reports whether the user message at i has a reply
// that finished (not stopped, not failed) without any text: a model that
// only reasoned, or said nothing.
func answeredWithoutText(path []*node, i int) bool {
	for j := i + 1; j < len(path); j++ {
		m := path[j].msg
		if m.Role == api.RoleUser {
			return false
		}
		if m.Role == api.RoleAssistant && m.State == StateDone && m.Text == "" {
			return true
		}
	}
	return false
}

// nextUser returns the index of the next user message after i, or -1.
func nextUser(path []*node, i int) int {
	for j := i + 1; j < len(path); j++ {
		if path[j].msg.Role == api.RoleUser {
			return j
		}
	}
	return -1
}

// apiMessage is m as the gateway sees it: plain text, or text, text files
// and images as parts (images only withImages). The reasoning of a reply
// is never sent: it was the model's, and models are trained without it in
// the history.
func apiMessage(m *Message, withImages bool) api.Message {
	files := hasTextFiles(m.Attachments)
	if !withImages && !files {
		text := m.Text
		if text == "" && len(m.Attachments) > 0 {
			text = imageOmitted
		}
		return api.TextMessage(m.Role, text)
	}
	parts := make([]api.Part, 0, len(m.Attachments)+1)
	if m.Text != "" {
		parts = append(parts, api.TextPart(m.Text))
	}
	for _, a := range m.Attachments {
		if a.IsText() || withImages {
			parts = append(parts, a.Part())
		}
	}
	return api.Message{Role: m.Role, Content: api.Content{Parts: parts}}
}

// hasImages reports whether atts hold an image (a text file is no image).
func hasImages(atts []api.Attachment) bool {
	for _, a := range atts {
		if !a.IsText() {
			return true
		}
	}
	return false
}

func hasTextFiles(atts []api.Attachment) bool {
	for _, a := range atts {
		if a.IsText() {
			return true
		}
	}
	return false
}
