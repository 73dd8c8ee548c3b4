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

// Message is one turn of the conversation.
type Message struct {
	// ID is unique within the conversation and never reused.
	ID   int
	Role string
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
