package columns

import (
	"time"

	"parley/conversation"
)

// Reply is what one column shows of one reply, read by the owner from
// the conversation (text, reasoning, state, error) and the engine (its
// figures). Text, Reasoning, Err and Model are untrusted: the view makes
// them safe.
type Reply struct {
	// ID is the reply's message id.
	ID    int
	Model string
	Text  string
	// Reasoning is the model's thinking, shown folded to one line.
	Reasoning string
	State     conversation.State
	Err       string
	// Elapsed is how long the reply took (so far); Thought how long it
	// thought.
	Elapsed, Thought time.Duration
	// Tokens are the completion tokens, reported or estimated (0:
	// unknown), Rate the tokens per second (0: unknown).
	Tokens int
	Rate   float64
	// Cost is the reply's cost as shown ("$0.0042"); "" when its price or
	// usage is not known (no cost is shown, never a zero).
	Cost string
}

// inFlight reports whether the reply still streams.
func (r Reply) inFlight() bool { return r.State == conversation.StateStreaming }
