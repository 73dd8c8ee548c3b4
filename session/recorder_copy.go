package session

import (
	"parley/conversation"
)

// copied is a conversation to be written as a new session (see
// Recorder.Copy).
type copied struct {
	sessionID string
	held      *heldSession
}

// Copy enqueues writing snap as a new session, sessionID, in order with
// the changes recorded: the chat goes on in it, so its messages are
// written before any change of the conversation restored from snap. The
// messages keep their ids (the conversation's, and the new session's
// numbers); one whose parent is not in snap opens the session. It is how
// the chat goes on from what it could read of a damaged session (the
// window it opened first) without waiting on the disk.
func (r *Recorder) Copy(sessionID string, snap conversation.Snapshot) {
	msgs := make([]conversation.Message, len(snap.Messages))
	ids := make(map[int]bool, len(snap.Messages))
	for _, m := range snap.Messages {
		ids[m.ID] = true
	}
	for i, m := range snap.Messages {
		if !ids[m.Parent] {
			m.Parent = 0
		}
		msgs[i] = m
	}
	h := &heldSession{title: snap.Title, titled: snap.Titled, system: snap.SystemPrompt, role: snap.Role, params: snap.Params, leaf: snap.Leaf, msgs: msgs}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.queue = append(r.queue, item{copy: &copied{sessionID: sessionID, held: h}})
	r.mu.Unlock()
	r.poke()
}
