package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/session"
)

// Another parley (an ask --session, a second chat) may add to the session
// the chat records. The store keeps both: the chat's next message goes
// beside what the other added, as another branch, and the recorder says
// how many messages it found (session.Added). The chat does not hold
// them until the session is opened again, so it says so.

// othersAddedMsg is a report of the recorder: another process added
// messages to a session.
type othersAddedMsg struct {
	rec   *session.Recorder
	added session.Added
}

// waitOthers returns the recorder's next report; it ends when the
// recorder stops.
func waitOthers(rec *session.Recorder) tea.Cmd {
	return func() tea.Msg {
		a, ok := <-rec.Added()
		if !ok {
			return nil
		}
		return othersAddedMsg{rec: rec, added: a}
	}
}

// othersAdded words a report about the conversation on screen ("" for
// another conversation, or a report of an earlier recorder) and waits
// for the next one; sessionsKey opens the sessions browser.
func (h *history) othersAdded(msg othersAddedMsg, convID, sessionsKey string) (string, tea.Cmd) {
	if msg.rec != h.rec {
		return "", nil
	}
	wait := waitOthers(msg.rec)
	if msg.added.SessionID != convID {
		return "", wait
	}
	n := msg.added.Messages
	return fmt.Sprintf("another parley added %d %s to this session meanwhile; %s kept, and your message went on beside %s as another branch (open the session again with %s to see %s)",
		n, plural(n, "message", "messages"), plural(n, "it is", "they are"), plural(n, "it", "them"), sessionsKey, plural(n, "it", "them")), wait
}
