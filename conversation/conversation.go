// Package conversation holds the state of one chat: its messages and their
// life cycle (sent, streaming, done, interrupted, failed). Every change goes
// through the methods of Conversation, and each change is reported to a
// Recorder, so durable storage plugs in without the UI knowing about it.
package conversation

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"parley/api"
)

// Conversation is an ordered list of messages with one reply at most in
// flight. It is not safe for concurrent use: the UI owns it and changes it
// only from Update.
type Conversation struct {
	id    string
	title string
	// titled: the title was set with SetTitle, so it no longer follows the
	// first message.
	titled   bool
	messages []Message
	nextID   int
	rec      Recorder
	now      func() time.Time
	// reply accumulates the text of the reply in flight; appending to it is
	// amortised O(len(delta)) and its String does not copy, which keeps a
	// delta cheap even when the reply is long.
	reply strings.Builder
}

// Options configure a new conversation.
type Options struct {
	// ID names the conversation for the recorder ("" for an unsaved one).
	ID string
	// Recorder receives every change; nil records nothing.
	Recorder Recorder
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// New returns an empty conversation.
func New(opts Options) *Conversation {
	c := &Conversation{id: opts.ID, rec: opts.Recorder, now: opts.Now, nextID: 1}
	if c.rec == nil {
		c.rec = NopRecorder{}
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// ErrBusy is returned when a change needs the reply in flight to end first.
var ErrBusy = errors.New("a reply is still streaming; press esc to stop it first")

// ErrNothingToRetry is returned by PrepareRetry when there is no user message.
var ErrNothingToRetry = errors.New("there is no message to send again yet; type one and press enter")

// ID returns the conversation's identifier.
func (c *Conversation) ID() string { return c.id }

// Title returns the conversation's title: the beginning of its first user
// message, or "" while it has none.
func (c *Conversation) Title() string { return c.title }

// Len returns the number of messages.
func (c *Conversation) Len() int { return len(c.messages) }

// At returns a copy of the i-th message.
func (c *Conversation) At(i int) Message { return c.messages[i].clone() }

// Messages returns copies of all messages in order.
func (c *Conversation) Messages() []Message {
	out := make([]Message, len(c.messages))
	for i := range c.messages {
		out[i] = c.messages[i].clone()
	}
	return out
}

// ByID returns a copy of the message with the given id.
func (c *Conversation) ByID(id int) (Message, bool) {
	i := c.index(id)
	if i < 0 {
		return Message{}, false
	}
	return c.messages[i].clone(), true
}

// Streaming returns the id of the reply in flight, or 0.
func (c *Conversation) Streaming() int {
	if n := len(c.messages); n > 0 && c.messages[n-1].State == StateStreaming {
		return c.messages[n-1].ID
	}
	return 0
}

// LastUser returns a copy of the last user message.
func (c *Conversation) LastUser() (Message, bool) {
	for i := len(c.messages) - 1; i >= 0; i-- {
		if c.messages[i].Role == api.RoleUser {
			return c.messages[i].clone(), true
		}
	}
	return Message{}, false
}

// LastReply returns a copy of the last assistant message.
func (c *Conversation) LastReply() (Message, bool) {
	for i := len(c.messages) - 1; i >= 0; i-- {
		if c.messages[i].Role == api.RoleAssistant {
			return c.messages[i].clone(), true
		}
	}
	return Message{}, false
}

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
	if c.title == "" {
		c.title = MakeTitle(text)
	}
	return m.ID, c.record(ChangeAppend, len(c.messages)-1)
}

// ReplaceLastUser swaps the last user message for new text and attachments,
// dropping everything after it (its reply), so the edited message can be
// sent again. It returns the id of the new message. When the edited message
// is the first one, the title follows the edit (unless SetTitle named the
// conversation). A recorder error is returned with the id: the change is
// made all the same.
func (c *Conversation) ReplaceLastUser(text string, attachments []api.Attachment) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	i := c.lastIndex(api.RoleUser)
	if i < 0 {
		return c.AddUser(text, attachments)
	}
	first := c.firstIndex(api.RoleUser) == i
	rerr := c.truncate(i)
	if first && !c.titled {
		c.title = "" // AddUser makes it from the new text
	}
	id, err := c.AddUser(text, attachments)
	return id, errors.Join(rerr, err)
}

// StartReply appends an empty assistant message in the streaming state.
func (c *Conversation) StartReply(model string) (int, error) {
	if c.Streaming() != 0 {
		return 0, ErrBusy
	}
	m := Message{
		ID:      c.takeID(),
		Role:    api.RoleAssistant,
		Model:   model,
		State:   StateStreaming,
		Created: c.now(),
	}
	c.messages = append(c.messages, m)
	c.reply = strings.Builder{}
	return m.ID, c.record(ChangeAppend, len(c.messages)-1)
}

// AppendDelta adds streamed text to the reply in flight. Text for any other
// message (a late delta of a cancelled stream) is ignored and reports false.
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
	// Deltas are not recorded one by one: the finished, interrupted or
	// failed state carries the whole text.
	return true
}

// Finish closes the reply in flight as done.
func (c *Conversation) Finish(id int, finishReason string, usage *api.Usage) error {
	return c.end(id, StateDone, func(m *Message) {
		m.FinishReason = finishReason
		if usage != nil {
			u := *usage
			m.Usage = &u
		}
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
	var err error
	if u+1 < len(c.messages) {
		// A recorder error is returned with the message: the reply is
		// dropped all the same, and the caller must not lose track of it.
		err = c.truncate(u + 1)
	}
	return c.messages[u].clone(), err
}

// SetTitle renames the conversation. From then on the title no longer
// follows edits of the first message.
func (c *Conversation) SetTitle(title string) error {
	c.title = strings.TrimSpace(title)
	c.titled = true
	return c.rec.Record(Change{Kind: ChangeTitle, ConversationID: c.id, Title: c.title})
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
	if apply != nil {
		apply(m)
	}
	return c.record(ChangeUpdate, i)
}

func (c *Conversation) truncate(from int) error {
	removed := make([]int, 0, len(c.messages)-from)
	for _, m := range c.messages[from:] {
		removed = append(removed, m.ID)
	}
	c.messages = c.messages[:from]
	return c.rec.Record(Change{Kind: ChangeRemove, ConversationID: c.id, Removed: removed})
}

func (c *Conversation) record(kind ChangeKind, i int) error {
	m := c.messages[i].clone()
	return c.rec.Record(Change{Kind: kind, ConversationID: c.id, Title: c.title, Message: &m})
}

func (c *Conversation) takeID() int {
	id := c.nextID
	c.nextID++
	return id
}

func (c *Conversation) index(id int) int {
	// Replies are appended at the end and looked up most, so search backwards.
	for i := len(c.messages) - 1; i >= 0; i-- {
		if c.messages[i].ID == id {
			return i
		}
	}
	return -1
}

func (c *Conversation) firstIndex(role string) int {
	for i := range c.messages {
		if c.messages[i].Role == role {
			return i
		}
	}
	return -1
}

func (c *Conversation) lastIndex(role string) int {
	for i := len(c.messages) - 1; i >= 0; i-- {
		if c.messages[i].Role == role {
			return i
		}
	}
	return -1
}

// MakeTitle derives a one-line title of at most 60 characters from text.
func MakeTitle(text string) string {
	line := strings.Join(strings.Fields(text), " ")
	const max = 60
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)[:max-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
