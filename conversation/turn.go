package conversation

import (
	"fmt"
	"strings"

	"parley/api"
)

// AddUser appends a user message and returns its id.
func (c *Conversation) AddUser(text string, attachments []api.Attachment) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	m := Message{
		ID:          c.takeID(),
		Role:        api.RoleUser,
		Text:        text,
		Attachments: append([]api.Attachment(nil), attachments...),
		State:       StateDone,
		Created:     c.now(),
	}
	c.messages = append(c.messages, m)
	if c.title == "" && !c.titled {
		c.title = MakeTitle(text)
	}
	c.emitMessage(ChangeAppend, len(c.messages)-1)
	return m.ID, nil
}

// ReplaceLastUser swaps the last user message for new text and attachments,
// dropping everything after it (its reply), so the edited message can be
// sent again. It returns the id of the new message. When the edited message
// is the first one, the title follows the edit (unless SetTitle named the
// conversation). Listeners hear a ChangeRemove, then a ChangeAppend.
func (c *Conversation) ReplaceLastUser(text string, attachments []api.Attachment) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	i := c.lastIndex(api.RoleUser)
	if i < 0 {
		return c.AddUser(text, attachments)
	}
	first := c.firstIndex(api.RoleUser) == i
	c.truncate(i)
	if first && !c.titled {
		c.title = "" // AddUser makes it from the new text
	}
	return c.AddUser(text, attachments)
}

// StartReply appends an empty assistant message in the streaming state.
func (c *Conversation) StartReply(model string) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	now := c.now()
	m := Message{
		ID:      c.takeID(),
		Role:    api.RoleAssistant,
		Model:   model,
		State:   StateStreaming,
		Created: now,
	}
	c.messages = append(c.messages, m)
	c.reply = strings.Builder{}
	c.reasoning = strings.Builder{}
	c.lastProgress = now
	c.emitMessage(ChangeAppend, len(c.messages)-1)
	return m.ID, nil
}

// AppendDelta adds streamed text to the reply in flight and reports it as a
// ChangeDelta (and, once per ProgressEvery, a ChangeProgress). Text for any
// other message (a late delta of a cancelled stream) is ignored and reports
// false.
func (c *Conversation) AppendDelta(id int, text string) bool {
	i := c.index(id)
	if i < 0 || c.messages[i].State != StateStreaming {
		return false
	}
	if text == "" {
		return true
	}
	m := &c.messages[i]
	c.reply.WriteString(text)
	m.Text = c.reply.String()
	m.Version++
	if len(c.listeners) == 0 {
		return true
	}
	// The copy shares the text's bytes: a reply in flight has neither
	// attachments nor usage, so nothing else needs cloning.
	cp := *m
	c.emit(Change{Kind: ChangeDelta, Message: &cp, Delta: text})
	c.unsaved = true
	c.FlushProgress()
	return true
}

// AppendReasoning adds streamed reasoning to the reply in flight and
// reports it as a ChangeReasoning (and, once per ProgressEvery, a
// ChangeProgress, so storage saves the reasoning too). The first and the
// last reasoning delta set ReasoningStart and ReasoningEnd. Reasoning for
// any other message (a late delta of a cancelled stream) is ignored and
// reports false.
func (c *Conversation) AppendReasoning(id int, text string) bool {
	i := c.index(id)
	if i < 0 || c.messages[i].State != StateStreaming {
		return false
	}
	if text == "" {
		return true
	}
	m := &c.messages[i]
	now := c.now()
	if m.ReasoningStart.IsZero() {
		m.ReasoningStart = now
	}
	m.ReasoningEnd = now
	c.reasoning.WriteString(text)
	m.Reasoning = c.reasoning.String()
	m.Version++
	if len(c.listeners) == 0 {
		return true
	}
	cp := *m // shares the strings, as AppendDelta's copy does
	c.emit(Change{Kind: ChangeReasoning, Message: &cp, Delta: text})
	c.unsaved = true
	c.FlushProgress()
	return true
}

// FlushProgress reports the reply in flight as a ChangeProgress when text
// arrived since the last one and ProgressEvery has passed. AppendDelta
// calls it; a caller with a clock of its own (the chat's frame tick) calls
// it too, so text that arrived right before a silence is still reported
// within ProgressEvery, not only when the next delta comes.
func (c *Conversation) FlushProgress() {
	if !c.unsaved || len(c.listeners) == 0 {
		return
	}
	now := c.now()
	if now.Sub(c.lastProgress) < c.progressEvery {
		return
	}
	i := len(c.messages) - 1
	if i < 0 || c.messages[i].State != StateStreaming {
		return
	}
	c.lastProgress, c.unsaved = now, false
	pc := c.messages[i]
	c.emit(Change{Kind: ChangeProgress, Message: &pc})
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

// PrepareRetry removes the last reply (whatever its state) so the last user
// message can be answered again, and returns that user message.
func (c *Conversation) PrepareRetry() (Message, error) {
	if c.Streaming() != 0 {
		return Message{}, ErrBusy
	}
	u := c.lastIndex(api.RoleUser)
	if u < 0 {
		return Message{}, ErrNothingToRetry
	}
	if u+1 < len(c.messages) {
		c.truncate(u + 1)
	}
	return c.messages[u].clone(), nil
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
	i := c.index(id)
	if i < 0 {
		return fmt.Errorf("end reply %d: no such message", id)
	}
	m := &c.messages[i]
	if m.State != StateStreaming {
		return nil
	}
	m.State = state
	m.Version++
	c.reply = strings.Builder{}
	c.reasoning = strings.Builder{}
	if apply != nil {
		apply(m)
	}
	c.emitMessage(ChangeUpdate, i)
	return nil
}

func (c *Conversation) truncate(from int) {
	removed := make([]int, 0, len(c.messages)-from)
	for _, m := range c.messages[from:] {
		removed = append(removed, m.ID)
	}
	clear(c.messages[from:]) // let the dropped texts and images go
	c.messages = c.messages[:from]
	c.emit(Change{Kind: ChangeRemove, Removed: removed})
}

func (c *Conversation) emitMessage(kind ChangeKind, i int) {
	if len(c.listeners) == 0 {
		return
	}
	m := c.messages[i].clone()
	c.emit(Change{Kind: kind, Message: &m})
}

// emit fills in what every change carries and tells each listener.
func (c *Conversation) emit(ch Change) {
	ch.ConversationID = c.id
	ch.Title = c.title
	ch.SystemPrompt = c.system
	ch.Role = c.role
	ch.Params = c.params
	for _, l := range c.listeners {
		l.OnChange(ch)
	}
}

func (c *Conversation) takeID() int {
	id := c.nextID
	c.nextID++
	return id
}
