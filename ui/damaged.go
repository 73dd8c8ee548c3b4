package ui

import (
	"errors"
	"fmt"

	"parley/conversation"
	"parley/session"
)

// damagedWindow looks at a failed read of a whole session: when the
// chat holds that session's last messages (conv, a window, read first)
// but the rest could not be read, most often because a page of the
// database is damaged, the chat would refuse every message while it
// waits for the rest ("still loading"). It returns the window as a whole
// conversation for the chat to go on with in a new session, and the
// notice that says so; ok is false when msg is not such a failure. The
// damaged session is left as it is.
func damagedWindow(msg sessionLoadedMsg, conv *conversation.Conversation) (snap conversation.Snapshot, notice string, ok bool) {
	if !msg.full || msg.err == nil || conv.ID() != msg.id || !conv.Partial() {
		return conversation.Snapshot{}, "", false
	}
	snap = conv.Snapshot()
	snap.Partial = false
	why := fmt.Sprintf("this session could not be read whole (%v)", msg.err)
	var se *session.Error
	if errors.As(msg.err, &se) && se.Kind == session.KindCorrupt {
		why = fmt.Sprintf("a page of the history database that holds this session is damaged (%v)", se.Err)
	}
	n := len(snap.Messages)
	notice = fmt.Sprintf("%s; the chat goes on in a new session with the last %d %s that could be read, and the old session is left as it was",
		why, n, plural(n, "message", "messages"))
	return snap, notice, true
}
