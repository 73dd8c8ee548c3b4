package chat

import (
	"parley/api"
	"parley/conversation"
)

// State is where the chat's turn is: the engine's state machine, as its
// owner shows it.
type State int

// The turn's states. Idle, Failed and Cancelled are states of the last
// turn (a reply or an image turn) once nothing is in flight.
const (
	// Idle: nothing in flight, and the last turn (if any) ended well.
	Idle State = iota
	// Preparing: a send waits for something it needs (Waiting says what).
	Preparing
	// Sending: the request is out and nothing came back yet (an image run
	// stays here until its images are made).
	Sending
	// Streaming: the reply's text or reasoning is arriving.
	Streaming
	// Finishing: the gateway sent its finish reason; the stream's last
	// events (the usage) are still to come.
	Finishing
	// Failed: the last turn failed.
	Failed
	// Cancelled: the last turn was stopped.
	Cancelled
)

// String names the state.
func (s State) String() string {
	return [...]string{"idle", "preparing", "sending", "streaming", "finishing", "failed", "cancelled"}[s]
}

// Wait is what a send waits for before it can go.
type Wait int

// What a send can wait for.
const (
	WaitNone Wait = iota
	// WaitAttachments: attachments are still being read and scaled; the
	// message goes with them once they are on it.
	WaitAttachments
	// WaitClient: the model's gateway client is being built (api_key_cmd
	// may take seconds).
	WaitClient
	// WaitSession: the session is still being opened.
	WaitSession
)

// Hold keeps a send waiting for w (WaitNone: it waits for nothing).
func (e *Engine) Hold(w Wait) { e.waiting = w }

// Waiting is what a send waits for (WaitNone: none waits).
func (e *Engine) Waiting() Wait { return e.waiting }

// State is the turn's state: what is in flight, else how the last turn of
// the active path ended. A send waiting counts first, since it is what
// the user did last.
func (e *Engine) State() State {
	switch r := e.Reply(); {
	case e.waiting != WaitNone:
		return Preparing
	case r != nil && r.Finish != "":
		return Finishing
	case r != nil && !r.First.IsZero():
		return Streaming
	case r != nil, e.images != nil:
		return Sending
	}
	return lastTurnState(e.conv)
}

// lastTurnState is how the last turn of the active path ended: its last
// message when that is a reply or an image turn (a user message after it
// means a new turn that has no answer yet).
func lastTurnState(c *conversation.Conversation) State {
	n := c.Len()
	if n == 0 {
		return Idle
	}
	last := c.At(n - 1)
	if last.Role == api.RoleUser {
		return Idle
	}
	switch last.State {
	case conversation.StateFailed:
		return Failed
	case conversation.StateInterrupted:
		return Cancelled
	}
	return Idle
}
