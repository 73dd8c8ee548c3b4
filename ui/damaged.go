package ui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/conversation"
	"parley/session"
)

// goOnFromDamaged handles a session whose last messages were read (the
// chat shows them, as a window) but not the whole of it, most often
// because a page of the database is damaged. The chat would refuse every
// message while it waits for the rest ("still loading"); it goes on in a
// new session with what it read instead, written through the recorder
// before anything of it, and says so. The damaged session is left as it
// is. It reports false when msg is not such a failure.
func (m *Model) goOnFromDamaged(msg sessionLoadedMsg) (tea.Cmd, bool) {
	if !msg.full || msg.err == nil || m.conv.ID() != msg.id || !m.conv.Partial() || m.hist.rec == nil {
		return nil, false
	}
	snap := m.conv.Snapshot()
	snap.Partial = false
	id := conversation.NewID()
	m.hist.rec.Copy(id, snap)
	m.openConversation(snap, id)
	why := fmt.Sprintf("this session could not be read whole (%v)", msg.err)
	var se *session.Error
	if errors.As(msg.err, &se) && se.Kind == session.KindCorrupt {
		why = fmt.Sprintf("a page of the history database that holds this session is damaged (%v)", se.Err)
	}
	n := len(snap.Messages)
	text := fmt.Sprintf("%s; the chat goes on in a new session with the last %d %s that could be read, and the old session is left as it was",
		why, n, plural(n, "message", "messages"))
	cmds := []tea.Cmd{m.notify(text, toastWarn)}
	if m.turn.pendingSend {
		// A message sent while the session opened goes now.
		cmds = append(cmds, m.send())
	}
	return tea.Batch(cmds...), true
}
