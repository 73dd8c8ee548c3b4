package conversation

import (
	"reflect"
	"testing"
	"time"

	"parley/api"
)

func TestRestoreRebuildsAStoredConversation(t *testing.T) {
	created := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	snap := Snapshot{
		Title:        "Cats",
		Titled:       true,
		SystemPrompt: "answer in French",
		Messages: []Message{
			{ID: 3, Role: api.RoleUser, Text: "look", Attachments: []api.Attachment{imgA}, Created: created, Version: 1},
			{ID: 4, Parent: 3, Role: api.RoleAssistant, Text: "un chat", Model: "gpt-4o", State: StateDone, FinishReason: "stop",
				Usage: &api.Usage{TotalTokens: 9}, Created: created, Version: 3},
			{ID: 7, Parent: 4, Role: api.RoleUser, Text: "more", Created: created},
			// The process was killed while this reply streamed.
			{ID: 9, Parent: 7, Role: api.RoleAssistant, Text: "il est", Model: "gpt-4o", State: StateStreaming, Created: created, Version: 5},
		},
	}
	rec := &recorded{}
	c := Restore(Options{ID: "s1", Listeners: []Listener{rec}, SystemPrompt: "ignored"}, snap)
	if len(rec.changes) != 0 {
		t.Fatalf("Restore emitted %v", rec.kinds())
	}
	if c.ID() != "s1" || c.Title() != "Cats" || c.SystemPrompt() != "answer in French" || c.Len() != 4 {
		t.Fatalf("restored %q %q %q len %d", c.ID(), c.Title(), c.SystemPrompt(), c.Len())
	}
	r := c.At(3)
	if r.State != StateInterrupted || r.Text != "il est" || r.ID != 9 || r.Version <= 5 {
		t.Fatalf("streaming reply restored as %+v, want interrupted", r)
	}
	if c.Streaming() != 0 {
		t.Fatal("a restored conversation has a reply in flight")
	}
	// The snapshot is not shared.
	snap.Messages[0].Attachments[0].Name = "changed"
	if c.At(0).Attachments[0].Name != "a.png" {
		t.Fatal("Restore shares the snapshot's attachments")
	}
	// New ids continue after the largest; listeners hear new changes.
	id, err := c.AddUser("next", nil)
	if err != nil || id != 10 {
		t.Fatalf("next id %d (%v), want 10", id, err)
	}
	if len(rec.changes) != 1 || rec.changes[0].ConversationID != "s1" {
		t.Fatalf("changes after restore: %+v", rec.changes)
	}
	// A named title survives an edit of the first message.
	c.SetTitle("Cats")
	got := c.Snapshot()
	if !got.Titled || got.Title != "Cats" || got.SystemPrompt != "answer in French" || len(got.Messages) != 5 {
		t.Fatalf("Snapshot() = %+v", got)
	}
	// The request is built from the restored messages: the interrupted
	// reply with its text, the conversation's own system prompt.
	if msgs := sent(c.BuildRequest(RequestOptions{})); msgs[0] != "system:answer in French" || msgs[4] != "assistant:il est" {
		t.Fatalf("request %q", msgs)
	}
}

func TestRestoreWithoutTitleMakesOne(t *testing.T) {
	c := Restore(Options{}, Snapshot{Messages: []Message{{ID: 1, Role: api.RoleUser, Text: "  first\nline  "}}})
	if c.Title() != "first" || len(c.ID()) != 32 {
		t.Fatalf("title %q id %q", c.Title(), c.ID())
	}
	empty := Restore(Options{}, Snapshot{})
	if id, _ := empty.AddUser("x", nil); id != 1 {
		t.Fatalf("first id of an empty restore: %d", id)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	c := New(Options{SystemPrompt: "sys"})
	turn(t, c, "q", "a", imgA)
	again := Restore(Options{ID: c.ID()}, c.Snapshot())
	if !reflect.DeepEqual(again.Snapshot(), c.Snapshot()) || again.Title() != "q" {
		t.Fatalf("round trip:\n%+v\n%+v", again.Snapshot(), c.Snapshot())
	}
}
