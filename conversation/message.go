package conversation

import (
	"time"

	"parley/api"
)

// State is where a message is in its life cycle.
type State int

// Message states. User messages are always StateDone.
const (
	StateDone State = iota
	StateStreaming
	StateInterrupted
	StateFailed
)

// String names the state for the UI and for storage.
func (s State) String() string {
	switch s {
	case StateStreaming:
		return "streaming"
	case StateInterrupted:
		return "interrupted"
	case StateFailed:
		return "failed"
	default:
		return "done"
	}
}

// Message is one message of the conversation.
type Message struct {
	// ID is unique within the conversation and never reused. A message's
	// id is larger than its parent's.
	ID int
	// Parent is the id of the message this one follows, 0 for one that
	// opens the conversation. The messages with one parent are
	// alternatives of each other (an edited question, a regenerated
	// reply), oldest first.
	Parent int
	Role   string
	// Text is the message as typed or as received so far. Reply text is
	// untrusted: sanitise it before it reaches a terminal.
	Text        string
	Attachments []api.Attachment
	// Model is the model that answered (assistant messages).
	Model        string
	State        State
	Err          string
	FinishReason string
	Usage        *api.Usage
	// Image says how an image turn's images were asked for (RoleImages
	// only).
	Image   *ImageTurn
	Created time.Time
	// Excluded: the message's turn is left out of what the model sees
	// (SetExcluded). A turn is a user message and the replies that follow
	// it up to the next user message or image turn; the flag belongs to
	// the user message and its replies show it too.
	Excluded bool
	// AltIndex and AltCount place the message among its alternatives:
	// AltIndex counts from 0 (show AltIndex+1), AltCount is at least 1 on
	// every copy the conversation returns (1: no alternatives). They are
	// worked out from the tree, never stored; a snapshot loaded as a
	// window (Snapshot.Partial) carries the store's counts.
	AltIndex, AltCount int
	// Version grows with every change of the message, so views can cache
	// renderings per version.
	Version int
}

func (m Message) clone() Message {
	if m.Attachments != nil {
		m.Attachments = append([]api.Attachment(nil), m.Attachments...)
	}
	if m.Usage != nil {
		u := *m.Usage
		m.Usage = &u
	}
	if m.Image != nil {
		t := *m.Image
		t.Notes = append([]string(nil), t.Notes...)
		m.Image = &t
	}
	return m
}
