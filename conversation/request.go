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
// the system prompt. The reply in flight and empty replies are left out.
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
		if len(m.Attachments) == 0 {
			r.Messages = append(r.Messages, api.TextMessage(m.Role, m.Text))
			continue
		}
		r.HasImages = true
		parts := make([]api.Part, 0, len(m.Attachments)+1)
		if m.Text != "" {
			parts = append(parts, api.TextPart(m.Text))
		}
		for _, a := range m.Attachments {
			parts = append(parts, a.Part())
		}
		r.Messages = append(r.Messages, api.Message{Role: m.Role, Content: api.Content{Parts: parts}})
	}
	return r
}
