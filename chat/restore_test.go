package chat

import (
	"testing"

	"parley/api"
	"parley/conversation"
)

// TestRestoreTakesTheSessionsMessages: the engine restores a session just
// read from the messages it was read into, not a copy of them (a
// 10,000-message session was held twice while it opened), with the run's
// system prompt in place of the session's when one overrides it.
func TestRestoreTakesTheSessionsMessages(t *testing.T) {
	e := New(t.Context(), Options{SystemOverride: "be brief"})
	snap := conversation.Snapshot{SystemPrompt: "the session's", Messages: []conversation.Message{
		{ID: 1, Role: api.RoleUser, Text: "q"},
		{ID: 2, Parent: 1, Role: api.RoleAssistant, Text: "a"},
	}}
	c := e.Restore("s", snap)
	i := 0
	for m := range c.PathMessages() {
		if m != &snap.Messages[i] {
			t.Fatalf("message %d of the opened session is a copy", m.ID)
		}
		i++
	}
	if i != 2 || c.ID() != "s" || c.SystemPrompt() != "be brief" {
		t.Fatalf("restored %d messages, id %q, system prompt %q", i, c.ID(), c.SystemPrompt())
	}
}
