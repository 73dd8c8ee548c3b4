package conversation

import (
	"parley/api"
)

// RequestOptions shape the messages sent for the next reply.
type RequestOptions struct {
	// SystemPrompt, when not empty, is sent first as a system message.
	SystemPrompt string
	// MaxHistory limits how many conversation messages are sent (0: all).
	// The oldest go first; the system prompt does not count.
	MaxHistory int
}

// Request is what the next chat request carries.
type Request struct {
	Messages []api.Message
	// Trimmed is how many conversation messages were left out for MaxHistory.
	Trimmed int
	// HasImages says whether any message carries an image, so the caller can
	// check the model's vision capability before sending.
	HasImages bool
}

// BuildRequest returns the whole conversation so far as chat messages:
// user turns with their images, assistant replies as far as they got
// (interrupted and failed replies included when they have text), preceded by
// the system prompt. The reply in flight and empty replies are left out, and
// user messages that end up next to each other are sent as one.
func (c *Conversation) BuildRequest(opts RequestOptions) Request {
	var sendable []Message
	for _, m := range c.messages {
		if m.Role == api.RoleAssistant && (m.State == StateStreaming || m.Text == "") {
			continue
		}
		sendable = append(sendable, m)
	}
	trimmed := 0
	if opts.MaxHistory > 0 && len(sendable) > opts.MaxHistory {
		trimmed = len(sendable) - opts.MaxHistory
		// A conversation sent to a model should not open with a reply.
		for trimmed < len(sendable)-1 && sendable[trimmed].Role != api.RoleUser {
			trimmed++
		}
		sendable = sendable[trimmed:]
	}
	var r Request
	r.Trimmed = trimmed
	if opts.SystemPrompt != "" {
		r.Messages = append(r.Messages, api.TextMessage(api.RoleSystem, opts.SystemPrompt))
	}
	for _, m := range sendable {
		msg := apiMessage(m)
		if len(m.Attachments) > 0 {
			r.HasImages = true
		}
		// A user message whose reply failed is followed by the next user
		// message. Chat templates that need alternating roles reject two
		// user messages in a row, so they travel as one.
		if n := len(r.Messages); n > 0 && m.Role == api.RoleUser && r.Messages[n-1].Role == api.RoleUser {
			r.Messages[n-1] = mergeUser(r.Messages[n-1], msg)
			continue
		}
		r.Messages = append(r.Messages, msg)
	}
	return r
}

// apiMessage is m as the gateway sees it: plain text, or text and images
// as parts.
func apiMessage(m Message) api.Message {
	if len(m.Attachments) == 0 {
		return api.TextMessage(m.Role, m.Text)
	}
	parts := make([]api.Part, 0, len(m.Attachments)+1)
	if m.Text != "" {
		parts = append(parts, api.TextPart(m.Text))
	}
	for _, a := range m.Attachments {
		parts = append(parts, a.Part())
	}
	return api.Message{Role: m.Role, Content: api.Content{Parts: parts}}
}

// mergeUser joins two consecutive user messages into one, text separated by
// a blank line, images kept in order.
func mergeUser(a, b api.Message) api.Message {
	if a.Content.Parts == nil && b.Content.Parts == nil {
		return api.TextMessage(api.RoleUser, joinText(a.Content.Text, b.Content.Text))
	}
	parts := append(asParts(a.Content), asParts(b.Content)...)
	return api.Message{Role: api.RoleUser, Content: api.Content{Parts: parts}}
}

func asParts(c api.Content) []api.Part {
	if c.Parts != nil {
		return append([]api.Part(nil), c.Parts...)
	}
	if c.Text == "" {
		return nil
	}
	return []api.Part{api.TextPart(c.Text)}
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}
