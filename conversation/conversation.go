// Package conversation holds the state of one chat: its messages as a tree
// (edits and regenerated replies kept as alternatives, one active path from
// the first message to a leaf), their life cycle (sent, streaming, done,
// interrupted, failed), its title, its system prompt, its role and its
// parameters. It is the one source of truth: every change goes through the
// methods of Conversation and is reported to listeners as a Change, so the
// transcript on screen and the durable store follow the same events
// without knowing about each other. A message the conversation holds is
// never changed (a change makes a new one), so the path can be shared
// with a view (PathMessages) instead of copied: a long session is held
// once.
package conversation

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"iter"
	mrand "math/rand/v2"
	"time"

	"github.com/google/uuid"

	"parley/api"
)

// Conversation is a tree of messages (see tree.go) with one turn at
// most in flight: one reply at the end of the active path, or the
// replies of a compare (BeginCompare), siblings of which one ends the
// active path. It is not safe
// for concurrent use: the UI owns it and changes it only from Update.
type Conversation struct {
	id     string
	title  string
	system string
	// titled: the title was set with SetTitle, so it no longer follows the
	// first message.
	titled bool
	// tree holds the messages and the active path.
	tree tree
	// source and firstOwn are what every Change carries as Source and
	// FirstOwnID.
	source    uint64
	firstOwn  int
	listeners []Listener
	now       func() time.Time
	// progressEvery throttles ChangeProgress.
	progressEvery time.Duration
	// flying holds the messages in flight (replies, an image turn), in
	// the order they started: one, or the replies of a compare, which
	// are alternatives of each other (siblings under one user message).
	flying []*node
	// role and params are the conversation's settings (SetRole, SetParams).
	role   string
	params api.Params
}

// ReasoningProgressEvery and ReasoningProgressBytes: reasoning alone is
// reported less often than the answer, because a save costs the database
// pages it touches (three, 3 KB with the store's 1 KB pages) whatever it
// adds, and the write-ahead log writes everything twice: reasoning at 1
// KB a second saved every second would write 8 times itself, every 15 s
// (or 16 KB) 3.04 times in a new data folder, every 30 s (or 32 KB) 2.9
// times (BENCHMARKS.md, "Slow reasoning on disk"); a model thinking at
// 300 bytes a second pays the page cost on 9 KB a save instead of 4.5.
// A crash loses at most that much of the thinking (30 s, or 32 KB), and
// never more of the answer than before.
const (
	ReasoningProgressEvery = 30 * time.Second
	ReasoningProgressBytes = 32 << 10
)

// DefaultProgressEvery is how often a streaming reply is reported with
// ChangeProgress when Options.ProgressEvery is zero.
const DefaultProgressEvery = time.Second

// Options configure a conversation.
type Options struct {
	// ID names the conversation; "" makes a new time-sortable id.
	ID string
	// SystemPrompt is the conversation's own system prompt (New only:
	// Restore takes it from the snapshot).
	SystemPrompt string
	// Listeners hear every change, in order (nil ones are skipped).
	Listeners []Listener
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ProgressEvery is the least time between two ChangeProgress of a
	// streaming reply; zero or less means DefaultProgressEvery.
	ProgressEvery time.Duration
}

// New returns an empty conversation.
func New(opts Options) *Conversation {
	c := &Conversation{
		id:            opts.ID,
		system:        opts.SystemPrompt,
		now:           opts.Now,
		progressEvery: opts.ProgressEvery,
		firstOwn:      1,
		source:        newSource(),
		tree:          newTree(),
	}
	for _, l := range opts.Listeners {
		c.Listen(l)
	}
	if c.id == "" {
		c.id = NewID()
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.progressEvery <= 0 {
		c.progressEvery = DefaultProgressEvery
	}
	return c
}

// NewID returns a new conversation id: 32 lower-case hex digits of a UUID
// version 7, so ids sort by creation time.
func NewID() string {
	u, err := uuid.NewV7()
	if err != nil {
		// NewV7 fails only when the system's random source does; fall back
		// to random bytes, which are unique all the same.
		var b [16]byte
		_, _ = rand.Read(b[:])
		return hex.EncodeToString(b[:])
	}
	return hex.EncodeToString(u[:])
}

// newSource returns a Change.Source: random, so two conversations (in one
// process or in two) practically never share one, and never 0.
func newSource() uint64 {
	for {
		if v := mrand.Uint64(); v != 0 {
			return v
		}
	}
}

// ErrBusy is returned when a change needs the reply in flight to end first.
var ErrBusy = errors.New("a reply is still streaming; press esc to stop it first")

// ErrNothingToRetry is returned by Begin without a user message when the
// active path has no user message to answer.
var ErrNothingToRetry = errors.New("there is no message to send again yet; type one and press enter")

// Listen adds a listener that hears every change from now on.
func (c *Conversation) Listen(l Listener) {
	if l != nil {
		c.listeners = append(c.listeners, l)
	}
}

// ID returns the conversation's identifier.
func (c *Conversation) ID() string { return c.id }

// Title returns the conversation's title: the name given with SetTitle, or
// else the beginning of its first user message ("" while it has none).
func (c *Conversation) Title() string { return c.title }

// SystemPrompt returns the conversation's own system prompt ("" for none).
func (c *Conversation) SystemPrompt() string { return c.system }

// Role returns the name of the conversation's role ("" for none): kept
// with the conversation so a reopened session has it again. What a role
// does (its system prompt, model and params) is the config's; the
// conversation only remembers which one was chosen.
func (c *Conversation) Role() string { return c.role }

// Params returns the conversation's own parameters, those /set set (the
// layer api.ChatParamLayer takes), kept with it like the role.
func (c *Conversation) Params() api.Params { return c.params.With(api.Params{}) }

// Len returns the number of messages on the active path.
func (c *Conversation) Len() int { return len(c.tree.path) }

// At returns a copy of the i-th message of the active path.
func (c *Conversation) At(i int) Message {
	n := c.tree.path[i]
	return c.tree.copyOf(n, excludedNode(n))
}

// Messages returns copies of the messages of the active path, in order.
func (c *Conversation) Messages() []Message { return c.tree.copies(c.tree.path) }

// PathMessages yields the messages of the active path one at a time,
// equal to the copies Messages returns but not copies: the conversation's
// own, shared with the caller, so that a view of a long path (the
// transcript) holds no second copy of it (Len says how many). A message
// the conversation holds is never changed, a change makes a new one, so
// what the caller keeps stays what it read; the caller must not change
// it either, nor what its slices and pointers hold. The conversation must
// not change while it runs.
func (c *Conversation) PathMessages() iter.Seq[*Message] { return c.tree.eachShared(c.tree.path) }

// ByID returns a copy of the message with the given id, on the active
// path or not.
func (c *Conversation) ByID(id int) (Message, bool) {
	n := c.tree.node(id)
	if n == nil {
		return Message{}, false
	}
	return c.tree.copyOf(n, excludedNode(n)), true
}

// Streaming returns the id of the reply (or image turn) in flight, or 0:
// the active path's last message when it is in flight, else the first
// reply of a compare still in flight (the others are its siblings).
func (c *Conversation) Streaming() int {
	if l := c.tree.leaf(); l.depth >= 0 && l.msg.State == StateStreaming {
		return l.msg.ID
	}
	if len(c.flying) > 0 {
		return c.flying[0].msg.ID
	}
	return 0
}

// InFlight returns the ids of every message in flight, in the order they
// started (one, or the replies of a compare still streaming).
func (c *Conversation) InFlight() []int {
	out := make([]int, len(c.flying))
	for i, n := range c.flying {
		out[i] = n.msg.ID
	}
	return out
}

// Partial reports whether the conversation holds only a window of its
// active path (restored from a partial snapshot): what needs the whole
// tree (Begin, Regenerate, switching, Fork) waits for the whole session.
func (c *Conversation) Partial() bool { return c.tree.partial }

// LastUser returns a copy of the last user message of the active path.
func (c *Conversation) LastUser() (Message, bool) {
	if i := c.tree.lastIndex(api.RoleUser); i >= 0 {
		return c.At(i), true
	}
	return Message{}, false
}

// LastReply returns a copy of the last assistant message of the active
// path.
func (c *Conversation) LastReply() (Message, bool) {
	if i := c.tree.lastIndex(api.RoleAssistant); i >= 0 {
		return c.At(i), true
	}
	return Message{}, false
}
