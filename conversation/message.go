package conversation

import (
	"fmt"
	"strconv"
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
	// id is larger than its parent's. It is the conversation's own
	// number: a store shared with other processes numbers messages
	// itself and maps these (see Change.Source).
	ID int
	// Parent is the id of the message this one follows, 0 for one that
	// opens the conversation. The messages with one parent are
	// alternatives of each other (an edited question, a regenerated
	// reply), oldest first.
	Parent int
	Role   string
	// Text is the message as typed or as received so far: a reply's answer
	// alone, without its reasoning, and what copying the reply (ctrl+y)
	// copies. Reply text is untrusted: sanitise it before it reaches a
	// terminal.
	Text string
	// Reasoning is a reply's thinking as received so far, apart from its
	// answer (api.StreamEvent.Reasoning): shown folded, stored and
	// exported, never copied with the reply and never sent back to the
	// model (BuildRequest leaves it out). Each alternative keeps its own.
	// Untrusted like Text.
	Reasoning string
	// ReasoningStart and ReasoningEnd are when the first and the last
	// reasoning delta arrived (zero without reasoning); see ThoughtFor.
	ReasoningStart, ReasoningEnd time.Time
	Attachments                  []api.Attachment
	// Model is the model that answered (assistant messages).
	Model        string
	State        State
	Err          string
	FinishReason string
	Usage        *api.Usage
	// Image says how an image turn's images were asked for (RoleImages
	// only).
	Image *ImageTurn
	// Tools are the rounds of tool calls a reply made, in order (see
	// ToolStep); nil for a reply that called none.
	Tools   []ToolStep
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

// ThoughtFor is how long the reasoning took to arrive: from its first
// delta to its last (0 without reasoning, or when it came in one piece).
// With the reasoning tokens (Usage.ReasoningTokens) it makes the folded
// line "Thought for 4.2 s · 380 tokens".
//
// Reasoning that came in one piece (a <think> block read in one frame
// with the start of the answer, or a reply that was not streamed) has no
// span of its own; its time is then counted from when the reply was asked
// for, so every reasoning folds the same way ("Thought for 0.2 s"), never
// as a bare "Reasoning".
func (m Message) ThoughtFor() time.Duration {
	if m.ReasoningStart.IsZero() || m.ReasoningEnd.Before(m.ReasoningStart) {
		return 0
	}
	start := m.ReasoningStart
	if !m.ReasoningEnd.After(start) && !m.Created.IsZero() && m.Created.Before(start) {
		start = m.Created
	}
	return m.ReasoningEnd.Sub(start)
}

// ThoughtText says a reasoning's duration as the chat and the export both
// show it: "0.2 s" (to a tenth, 150 ms rounds up), "42 s", "3 min 5 s",
// "1 h 2 min".
func ThoughtText(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d.Round(100*time.Millisecond) < 10*time.Second:
		return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', 1, 64) + " s"
	case d.Round(time.Second) < time.Minute:
		return strconv.Itoa(int(d.Round(time.Second)/time.Second)) + " s"
	case d.Round(time.Second) < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%d min %d s", d/time.Minute, d%time.Minute/time.Second)
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %d min", d/time.Hour, d%time.Hour/time.Minute)
}

func (m Message) clone() Message {
	if m.Attachments != nil {
		m.Attachments = append([]api.Attachment(nil), m.Attachments...)
	}
	m.Usage = m.Usage.Clone()
	m.Tools = cloneSteps(m.Tools)
	if m.Image != nil {
		t := *m.Image
		t.Notes = append([]string(nil), t.Notes...)
		m.Image = &t
	}
	return m
}
