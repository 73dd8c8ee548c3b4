package conversation

import "parley/api"

// Snapshot is what a conversation is made of, without its listeners: what
// storage keeps and Restore rebuilds from.
type Snapshot struct {
	Title string
	// Titled: Title was given with SetTitle rather than made from the first
	// message.
	Titled       bool
	SystemPrompt string
	// Role and Params are the conversation's settings (Conversation.Role,
	// Conversation.Params).
	Role     string
	Params   api.Params
	Messages []Message
}

// Snapshot returns copies of the conversation's title, system prompt and
// messages.
func (c *Conversation) Snapshot() Snapshot {
	return Snapshot{Title: c.title, Titled: c.titled, SystemPrompt: c.system, Role: c.role, Params: c.Params(), Messages: c.Messages()}
}

// Restore rebuilds a conversation from stored messages. The title, system
// prompt, role, params and messages come from snap (opts.SystemPrompt is not used); the
// id, listeners, clock and progress interval from opts. Message ids are
// kept, and new messages continue after the largest. A reply stored while
// it was streaming (the process ended mid-reply) comes back interrupted,
// since nothing will ever finish it. Restoring emits no change.
func Restore(opts Options, snap Snapshot) *Conversation {
	opts.SystemPrompt = snap.SystemPrompt
	c := New(opts)
	c.title = snap.Title
	c.titled = snap.Titled
	c.role = snap.Role
	c.params = snap.Params.With(api.Params{})
	c.messages = make([]Message, len(snap.Messages))
	for i, m := range snap.Messages {
		m = m.clone()
		if m.State == StateStreaming {
			m.State = StateInterrupted
			m.Version++
		}
		c.messages[i] = m
		if m.ID >= c.nextID {
			c.nextID = m.ID + 1
		}
	}
	if c.title == "" && !c.titled {
		if i := c.firstIndex(api.RoleUser); i >= 0 {
			c.title = MakeTitle(c.messages[i].Text)
		}
	}
	return c
}
