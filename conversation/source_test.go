package conversation

import (
	"testing"

	"parley/api"
)

// TestChangesSayWhoseIdsTheyCarry: every change carries the Source of the
// conversation value that made it (another for each New and Restore) and
// the first id it gave a message itself, so a store that numbers
// messages itself can map them. A restored conversation numbers its next
// message from the snapshot's NextID when the store gave one past its
// largest id (a window, a removed last message).
func TestChangesSayWhoseIdsTheyCarry(t *testing.T) {
	var got []Change
	listen := ListenerFunc(func(ch Change) { got = append(got, ch) })
	a := New(Options{Listeners: []Listener{listen}})
	a.AddUser("hello", nil)
	snap := Snapshot{Messages: []Message{{ID: 1, Role: api.RoleUser, Text: "hi"}, {ID: 2, Parent: 1, Role: api.RoleAssistant, Text: "hello"}}, NextID: 7}
	b := Restore(Options{ID: a.ID(), Listeners: []Listener{listen}}, snap)
	id, _ := b.AddUser("again", nil)
	c := Restore(Options{ID: a.ID(), Listeners: []Listener{listen}}, Snapshot{Messages: snap.Messages})
	idC, _ := c.AddUser("once more", nil)

	if len(got) != 3 {
		t.Fatalf("%d changes", len(got))
	}
	if got[0].Source == 0 || got[0].Source == got[1].Source || got[1].Source == got[2].Source {
		t.Fatalf("sources %d, %d, %d: want three different, none 0", got[0].Source, got[1].Source, got[2].Source)
	}
	if got[0].FirstOwnID != 1 || got[1].FirstOwnID != 7 || id != 7 || got[2].FirstOwnID != 3 || idC != 3 {
		t.Fatalf("first own ids %d, %d, %d; ids %d, %d", got[0].FirstOwnID, got[1].FirstOwnID, got[2].FirstOwnID, id, idC)
	}
	if b.Snapshot().NextID != 8 {
		t.Fatalf("the snapshot's next id %d, want 8", b.Snapshot().NextID)
	}
}
