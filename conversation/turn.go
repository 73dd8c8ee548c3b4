package conversation

import (
	"fmt"
	"slices"
	"strings"

	"parley/api"
)

// AddUser appends a user message to the active path and returns its id.
func (c *Conversation) AddUser(text string, attachments []api.Attachment) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	m := Message{
		ID:          c.tree.takeID(),
		Role:        api.RoleUser,
		Text:        text,
		Attachments: append([]api.Attachment(nil), attachments...),
		State:       StateDone,
		Created:     c.now(),
	}
	if c.title == "" && !c.titled {
		c.title = MakeTitle(text)
	}
	c.emitNode(ChangeAppend, c.tree.attach(m))
	return m.ID, nil
}

// StartReply appends an empty assistant message in the streaming state.
func (c *Conversation) StartReply(model string) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	return c.startReply(model), nil
}

// startReply appends an empty reply in flight at the end of the active
// path (a compare's siblings are started one after the other, the path
// moved back to their user message in between).
func (c *Conversation) startReply(model string) int {
	now := c.now()
	m := Message{
		ID:      c.tree.takeID(),
		Role:    api.RoleAssistant,
		Model:   model,
		State:   StateStreaming,
		Created: now,
	}
	n := c.tree.attach(m)
	c.emitNode(ChangeAppend, n)
	n.fl = &flight{lastProgress: now}
	c.flying = append(c.flying, n)
	return m.ID
}

// AppendDelta adds streamed text to the reply in flight and reports it as a
// ChangeDelta (and, once per ProgressEvery, a ChangeProgress). Text for any
// other message (a late delta of a cancelled stream) is ignored and reports
// false.
func (c *Conversation) AppendDelta(id int, text string) bool {
	n := c.tree.node(id)
	if n == nil || n.msg.State != StateStreaming {
		return false
	}
	if text == "" {
		return true
	}
	fl := n.flight()
	fl.text.WriteString(text)
	n.edit(func(m *Message) {
		m.Text = fl.text.String()
		m.Version++
	})
	if len(c.listeners) == 0 {
		return true
	}
	// The copy shares the text's bytes: a reply in flight has neither
	// attachments nor usage, so nothing else needs cloning.
	cp := *n.msg
	cp.AltIndex, cp.AltCount = c.tree.alternatives(n)
	cp.Excluded = excludedNode(n)
	c.emit(Change{Kind: ChangeDelta, Message: &cp, Delta: text, OffPath: !c.tree.onPath(n)})
	fl.unsavedText = true
	c.flushProgress(n)
	return true
}

// AppendReasoning adds streamed reasoning to the reply in flight and
// reports it as a ChangeReasoning (and, once per ProgressEvery, a
// ChangeProgress, so storage saves the reasoning too). The first and the
// last reasoning delta set ReasoningStart and ReasoningEnd. Reasoning for
// any other message (a late delta of a cancelled stream) is ignored and
// reports false.
func (c *Conversation) AppendReasoning(id int, text string) bool {
	n := c.tree.node(id)
	if n == nil || n.msg.State != StateStreaming {
		return false
	}
	if text == "" {
		return true
	}
	now := c.now()
	fl := n.flight()
	fl.reasoning.WriteString(text)
	n.edit(func(m *Message) {
		if m.ReasoningStart.IsZero() {
			m.ReasoningStart = now
		}
		m.ReasoningEnd = now
		m.Reasoning = fl.reasoning.String()
		m.Version++
	})
	if len(c.listeners) == 0 {
		return true
	}
	cp := *n.msg // shares the strings, as AppendDelta's copy does
	cp.AltIndex, cp.AltCount = c.tree.alternatives(n)
	cp.Excluded = excludedNode(n)
	c.emit(Change{Kind: ChangeReasoning, Message: &cp, Delta: text, OffPath: !c.tree.onPath(n)})
	fl.unsavedReasoning += len(text)
	c.flushProgress(n)
	return true
}

// FlushProgress reports the reply in flight as a ChangeProgress when text
// arrived since the last one and ProgressEvery has passed (reasoning
// alone: ReasoningProgressEvery, or ReasoningProgressBytes of it). AppendDelta
// calls it; a caller with a clock of its own (the chat's frame tick) calls
// it too, so text that arrived right before a silence is still reported
// within ProgressEvery, not only when the next delta comes.
func (c *Conversation) FlushProgress() {
	for _, n := range c.flying {
		c.flushProgress(n)
	}
}

// flushProgress reports n, a message in flight, as FlushProgress says.
func (c *Conversation) flushProgress(n *node) {
	fl := n.fl
	if fl == nil || (!fl.unsavedText && fl.unsavedReasoning == 0) || len(c.listeners) == 0 {
		return
	}
	now := c.now()
	every := c.progressEvery
	if !fl.unsavedText && fl.unsavedReasoning < ReasoningProgressBytes {
		every = max(every, ReasoningProgressEvery)
	}
	if now.Sub(fl.lastProgress) < every {
		return
	}
	fl.lastProgress, fl.unsavedText, fl.unsavedReasoning = now, false, 0
	c.emitNode(ChangeProgress, n)
}

// flight is what n gathers in flight, made on first use for a message
// that came in flight another way (an image turn's).
func (n *node) flight() *flight {
	if n.fl == nil {
		n.fl = &flight{}
	}
	return n.fl
}

// Finish closes the reply in flight as done.
func (c *Conversation) Finish(id int, finishReason string, usage *api.Usage) error {
	return c.end(id, StateDone, func(m *Message) {
		m.FinishReason = finishReason
		m.Usage = usage.Clone()
	})
}

// Interrupt closes the reply in flight as interrupted by the user; the text
// received so far is kept.
func (c *Conversation) Interrupt(id int) error {
	return c.end(id, StateInterrupted, nil)
}

// Fail closes the reply in flight as failed with a user-facing message; the
// text received so far is kept.
func (c *Conversation) Fail(id int, message string) error {
	return c.end(id, StateFailed, func(m *Message) { m.Err = message })
}

// SetTitle renames the conversation. From then on the title no longer
// follows edits of the first message.
func (c *Conversation) SetTitle(title string) {
	c.title = strings.TrimSpace(title)
	c.titled = true
	c.emit(Change{Kind: ChangeTitle})
}

// SetRole records the conversation's role by name ("" for none), so it
// is stored with it and comes back when it is reopened. The caller applies
// what the role does (its system prompt, model and params).
func (c *Conversation) SetRole(name string) {
	if name == c.role {
		return
	}
	c.role = name
	c.emit(Change{Kind: ChangeSettings})
}

// SetParams replaces the conversation's own parameters (what /set set;
// the zero Params clears them all), stored with it like the role.
func (c *Conversation) SetParams(p api.Params) {
	c.params = p.With(api.Params{})
	c.emit(Change{Kind: ChangeSettings})
}

// SetSystemPrompt changes the conversation's system prompt ("" for none);
// the next request carries it.
func (c *Conversation) SetSystemPrompt(prompt string) {
	if prompt == c.system {
		return
	}
	c.system = prompt
	c.emit(Change{Kind: ChangeSystem})
}

func (c *Conversation) end(id int, state State, apply func(*Message)) error {
	n := c.tree.node(id)
	if n == nil {
		return fmt.Errorf("end reply %d: no such message", id)
	}
	if n.msg.State != StateStreaming {
		return nil
	}
	n.edit(func(m *Message) {
		m.State = state
		m.Version++
		if apply != nil {
			apply(m)
		}
	})
	n.fl = nil
	c.flying = slices.DeleteFunc(c.flying, func(x *node) bool { return x == n })
	c.emitNode(ChangeUpdate, n)
	return nil
}

// emitNode reports a change of one message with a copy of it.
func (c *Conversation) emitNode(kind ChangeKind, n *node) {
	if len(c.listeners) == 0 {
		return
	}
	m := c.tree.copyOf(n, excludedNode(n))
	c.emit(Change{Kind: kind, Message: &m, OffPath: !c.tree.onPath(n)})
}

// emit fills in what every change carries and tells each listener.
func (c *Conversation) emit(ch Change) {
	ch.ConversationID = c.id
	ch.Title = c.title
	ch.SystemPrompt = c.system
	ch.Leaf = c.Leaf()
	ch.Role = c.role
	ch.Params = c.params
	ch.Source = c.source
	ch.FirstOwnID = c.firstOwn
	for _, l := range c.listeners {
		l.OnChange(ch)
	}
}
