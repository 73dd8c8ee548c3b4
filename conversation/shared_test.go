package conversation

import (
	"reflect"
	"slices"
	"testing"

	"parley/api"
)

// pathOf collects what PathMessages yields.
func pathOf(c *Conversation) []*Message { return slices.Collect(c.PathMessages()) }

// TestPathMessagesStayWhatTheyWere: the messages PathMessages shares with
// a view (the transcript keeps them, as the conversation's own, instead of
// copies) are never changed afterwards, whatever the conversation does: a
// turn left out, an alternative made beside a reply, a reply streamed
// with reasoning, tool calls, their results and images, then finished.
// The path is read after each step, the reply in flight too; each change
// shows in the messages the next PathMessages yields.
func TestPathMessagesStayWhatTheyWere(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q1", "a1")
	ask(t, c, "q2", "a2")
	var held []*Message
	var want []Message
	read := func() {
		for _, m := range pathOf(c) {
			held, want = append(held, m), append(want, m.clone())
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	read()
	must(c.SetExcluded(1, true))
	read()
	tn, err := c.Regenerate(4, TurnOptions{Model: "m"})
	must(err)
	read()
	c.AppendReasoning(tn.ReplyID, "thinking")
	read()
	c.AppendDelta(tn.ReplyID, "a2 again")
	read()
	step, err := c.AddToolCalls(tn, []ToolCallMade{{ID: "c1", Name: "read"}})
	must(err)
	read()
	must(c.SetToolResult(tn, step, 0, ToolCallMade{ID: "c1", Name: "read", Result: "text"}))
	read()
	if !c.AddReplyImages(tn, []api.Attachment{{Name: "image 1", Data: []byte{1}}}) {
		t.Fatal("the reply in flight took no images")
	}
	read()
	must(c.Finish(tn.ReplyID, "stop", &api.Usage{CompletionTokens: 3}))

	for i, m := range held {
		if !reflect.DeepEqual(*m, want[i]) {
			t.Fatalf("message %d changed after it was shared:\n%+v\nwas:\n%+v", m.ID, *m, want[i])
		}
	}
	now := pathOf(c)
	if !reflect.DeepEqual(derefs(now), c.Messages()) {
		t.Fatalf("PathMessages after the changes:\n%+v\nMessages:\n%+v", derefs(now), c.Messages())
	}
	last := now[len(now)-1]
	if !now[0].Excluded || !now[1].Excluded || last.AltCount != 2 || last.AltIndex != 1 ||
		last.Text != "a2 again" || last.Reasoning != "thinking" || len(last.Tools) != 1 || !last.Tools[0].Calls[0].Done ||
		len(last.Attachments) != 1 || last.State != StateDone {
		t.Fatalf("the path after the changes: %+v", derefs(now))
	}
	if held[3].AltCount != 1 || now[2] != held[2] || now[2] != held[6] {
		t.Fatalf("a message that did not change is not shared as it was: %+v", derefs(now))
	}
}

// TestRestoredMessagesAreSharedAsTheyAre: a conversation restored from a
// store (alternatives, a turn left out, a partial window with the store's
// counts) shares its messages as they are: PathMessages yields equal
// messages to Messages without making a new one for any of them, so a
// long session is held once.
func TestRestoredMessagesAreSharedAsTheyAre(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q1", "a1")
	ask(t, c, "q2", "a2")
	tn, err := c.Regenerate(2, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	reply(t, c, tn, "a1 again")
	ask(t, c, "q3", "a3")
	if err := c.SetExcluded(5, true); err != nil {
		t.Fatal(err)
	}
	whole := c.Snapshot()
	partial := Snapshot{Messages: c.Messages()[1:], Partial: true}
	for _, snap := range []Snapshot{whole, partial} {
		r := Restore(Options{}, snap)
		before := make([]*Message, len(r.tree.path))
		for i, n := range r.tree.path {
			before[i] = n.msg
		}
		got := pathOf(r)
		if !reflect.DeepEqual(derefs(got), r.Messages()) {
			t.Fatalf("partial %v: PathMessages:\n%+v\nMessages:\n%+v", snap.Partial, derefs(got), r.Messages())
		}
		for i, m := range got {
			if m != before[i] {
				t.Fatalf("partial %v: message %d was copied to be shared", snap.Partial, m.ID)
			}
		}
	}
}

func derefs(ms []*Message) []Message {
	out := make([]Message, len(ms))
	for i, m := range ms {
		out[i] = *m
	}
	return out
}

// TestRestoreTakingHoldsTheSnapshotsMessages: RestoreTaking makes the
// conversation Restore makes, holding the snapshot's messages themselves
// (a session just read is not copied whole to be restored); Restore
// copies them, so the caller's snapshot stays its own.
func TestRestoreTakingHoldsTheSnapshotsMessages(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q1", "a1")
	tn, err := c.Regenerate(2, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	reply(t, c, tn, "a1 again")
	ask(t, c, "q2", "a2")
	want := Restore(Options{}, c.Snapshot())
	snap := c.Snapshot()
	taken := RestoreTaking(Options{}, snap)
	if !reflect.DeepEqual(taken.Snapshot(), want.Snapshot()) || !reflect.DeepEqual(derefs(pathOf(taken)), want.Messages()) {
		t.Fatalf("RestoreTaking:\n%+v\nRestore:\n%+v", taken.Snapshot(), want.Snapshot())
	}
	at := map[*Message]bool{}
	for i := range snap.Messages {
		at[&snap.Messages[i]] = true
	}
	for _, m := range pathOf(taken) {
		if !at[m] {
			t.Fatalf("message %d was copied, not taken", m.ID)
		}
	}
	copied := c.Snapshot()
	for _, m := range pathOf(Restore(Options{}, copied)) {
		for i := range copied.Messages {
			if m == &copied.Messages[i] {
				t.Fatalf("Restore holds the caller's message %d", m.ID)
			}
		}
	}
}
