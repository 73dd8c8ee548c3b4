package conversation

import (
	"context"
	"errors"
	"io"
	"reflect"
	"testing"

	"parley/api"
	"parley/api/apitest"
)

// ids lists the ids of messages.
func ids(ms []Message) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// texts lists the texts of messages.
func texts(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Text
	}
	return out
}

// reply streams answer into the turn and ends it as done.
func reply(t *testing.T, c *Conversation, tn *Turn, answer string) {
	t.Helper()
	c.Receive(tn, answer, nil, "stop")
	if err := c.Close(tn, nil); err != nil {
		t.Fatal(err)
	}
}

// ask sends question and answers it.
func ask(t *testing.T, c *Conversation, question, answer string) {
	t.Helper()
	tn, err := c.Begin(&UserInput{Text: question}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	reply(t, c, tn, answer)
}

// TestRegenerateKeepsTheEarlierReply: ctrl+r on a finished reply makes a
// new reply beside it; switching back to the first one makes the next
// request carry it, and nothing of the other branch.
func TestRegenerateKeepsTheEarlierReply(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}})
	ask(t, c, "name a colour", "red")
	first := c.Leaf()
	n := len(rec.changes)
	tn, err := c.Begin(nil, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sent(tn.Built); !reflect.DeepEqual(got, []string{"user:name a colour"}) {
		t.Fatalf("the regenerated turn sends %q", got)
	}
	reply(t, c, tn, "blue")
	if k := rec.kinds()[n:]; !reflect.DeepEqual(k[:2], []ChangeKind{ChangeSwitch, ChangeAppend}) || rec.changes[n].Leaf != c.At(0).ID {
		t.Fatalf("changes of the regenerate: %v", k)
	}
	if got := texts(c.Messages()); !reflect.DeepEqual(got, []string{"name a colour", "blue"}) {
		t.Fatalf("path %q", got)
	}
	if r := c.At(1); r.AltIndex != 1 || r.AltCount != 2 || r.Parent != c.At(0).ID {
		t.Fatalf("new reply %+v, want 2/2 under the question", r)
	}
	n = len(rec.changes)
	if got, err := c.SwitchAlternative(c.Leaf(), -1); err != nil || got != first {
		t.Fatalf("SwitchAlternative = %d, %v; want %d", got, err, first)
	}
	if k := rec.kinds()[n:]; !reflect.DeepEqual(k, []ChangeKind{ChangeSwitch}) || rec.changes[n].Leaf != first {
		t.Fatalf("changes of the switch: %v", k)
	}
	// At the first alternative, one more step back changes nothing.
	n = len(rec.changes)
	if got, err := c.SwitchAlternative(first, -1); err != nil || got != first || len(rec.changes) != n {
		t.Fatalf("switching before the first: %d, %v, %d changes", got, err, len(rec.changes)-n)
	}
	next, err := c.Begin(&UserInput{Text: "another"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"user:name a colour", "assistant:red", "user:another"}
	if got := sent(next.Built); !reflect.DeepEqual(got, want) {
		t.Fatalf("request after choosing the first reply %q, want %q", got, want)
	}
}

// TestRegenerateAReplyInTheMiddle: regenerating an earlier reply makes
// the path end at the new reply; the later messages stay in the old
// branch and come back, to the leaf they were on, when it is chosen.
func TestRegenerateAReplyInTheMiddle(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q1", "a1")
	a1 := c.Leaf()
	ask(t, c, "q2", "a2")
	ask(t, c, "q3", "a3")
	a3 := c.Leaf()
	tn, err := c.Regenerate(a1, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sent(tn.Built); !reflect.DeepEqual(got, []string{"user:q1"}) {
		t.Fatalf("request %q", got)
	}
	reply(t, c, tn, "a1'")
	if got := texts(c.Messages()); !reflect.DeepEqual(got, []string{"q1", "a1'"}) {
		t.Fatalf("path after regenerating %q", got)
	}
	if err := c.SwitchTo(a1); err != nil {
		t.Fatal(err)
	}
	if got := texts(c.Messages()); !reflect.DeepEqual(got, []string{"q1", "a1", "q2", "a2", "q3", "a3"}) || c.Leaf() != a3 {
		t.Fatalf("path back through the first reply %q (leaf %d)", got, c.Leaf())
	}
	// A message of the path: nothing changes.
	if err := c.SwitchTo(c.At(2).ID); err != nil || c.Leaf() != a3 {
		t.Fatalf("SwitchTo on the path: %v, leaf %d", err, c.Leaf())
	}
	if err := c.SwitchTo(99); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("SwitchTo(99) = %v", err)
	}
	if _, err := c.SwitchAlternative(99, 1); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("SwitchAlternative(99) = %v", err)
	}
	if i, n := c.Tree().Alternatives(99); i != 0 || n != 0 || c.Tree().Siblings(99) != nil || c.Tree().PathTo(99) != nil {
		t.Fatalf("an unknown id: alternatives %d/%d", i, n)
	}
	if _, err := c.Regenerate(c.At(0).ID, TurnOptions{Model: "m"}); !errors.Is(err, ErrNotAReply) {
		t.Fatalf("Regenerate of a question: %v", err)
	}
	if _, err := c.Regenerate(99, TurnOptions{Model: "m"}); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("Regenerate(99): %v", err)
	}
}

// TestEndedRepliesWithAndWithoutText: making a reply again replaces one
// that failed or was interrupted before any text or reasoning (noise) and
// keeps one with text or reasoning, and one anything follows, as an
// alternative.
func TestEndedRepliesWithAndWithoutText(t *testing.T) {
	for _, tc := range []struct {
		name  string
		end   func(c *Conversation, tn *Turn)
		alts  int
		after func(c *Conversation)
	}{
		{"failed without text", func(c *Conversation, tn *Turn) { c.Close(tn, errors.New("500")) }, 1, nil},
		{"interrupted without text", func(c *Conversation, tn *Turn) { c.Interrupt(tn.ReplyID) }, 1, nil},
		{"failed with text", func(c *Conversation, tn *Turn) { c.Receive(tn, "half", nil, ""); c.Close(tn, errors.New("500")) }, 2, nil},
		{"interrupted with text", func(c *Conversation, tn *Turn) { c.Receive(tn, "half", nil, ""); c.Interrupt(tn.ReplyID) }, 2, nil},
		{"interrupted while thinking", func(c *Conversation, tn *Turn) { c.ReceiveReasoning(tn, "hm"); c.Interrupt(tn.ReplyID) }, 2, nil},
		{"failed while thinking", func(c *Conversation, tn *Turn) { c.ReceiveReasoning(tn, "hm"); c.Close(tn, errors.New("500")) }, 2, nil},
		{"done", func(c *Conversation, tn *Turn) { reply(t, c, tn, "whole") }, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New(Options{})
			tn, _ := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
			tc.end(c, tn)
			again, err := c.Regenerate(tn.ReplyID, TurnOptions{Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			if _, n := c.Tree().Alternatives(again.ReplyID); n != tc.alts {
				t.Fatalf("%d alternatives, want %d", n, tc.alts)
			}
			if _, kept := c.ByID(tn.ReplyID); kept != (tc.alts == 2) {
				t.Fatalf("the earlier reply kept: %v", kept)
			}
		})
	}
	// A reply without text that something follows is kept.
	c := New(Options{})
	tn, _ := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
	c.Close(tn, errors.New("500"))
	ask(t, c, "still there?", "yes")
	if _, err := c.Regenerate(tn.ReplyID, TurnOptions{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.ByID(tn.ReplyID); !ok || c.Len() != 2 {
		t.Fatalf("the failed reply with a follow-up was dropped (path %d)", c.Len())
	}
}

// TestSwitchingWhileAReplyStreamsIsRefused: the reply in flight is the
// active path's last message and stays there until it ends; leaving a
// turn out is allowed (it changes the next request only).
func TestSwitchingWhileAReplyStreamsIsRefused(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q", "a")
	tn, _ := c.Begin(nil, TurnOptions{Model: "m"})
	first := c.At(1).AltCount
	if first != 2 {
		t.Fatalf("alternatives %d", first)
	}
	for name, err := range map[string]error{
		"SwitchTo":          c.SwitchTo(1),
		"SwitchAlternative": func() error { _, err := c.SwitchAlternative(tn.ReplyID, -1); return err }(),
		"Regenerate":        func() error { _, err := c.Regenerate(2, TurnOptions{Model: "m"}); return err }(),
		"edit":              func() error { _, err := c.Begin(&UserInput{Text: "x", EditOf: 1}, TurnOptions{Model: "m"}); return err }(),
		"StartImagesAgain":  func() error { _, err := c.StartImagesAgain(2, "p", "m", ImageTurn{}); return err }(),
		"Fork":              func() error { _, err := c.Fork(tn.ReplyID); return err }(),
	} {
		if !errors.Is(err, ErrBusy) {
			t.Errorf("%s while streaming: %v, want ErrBusy", name, err)
		}
	}
	if c.Streaming() != tn.ReplyID || c.Leaf() != tn.ReplyID {
		t.Fatal("the reply in flight left the path")
	}
	if err := c.SetExcluded(1, true); err != nil || !c.At(1).Excluded {
		t.Fatalf("SetExcluded while streaming: %v", err)
	}
	if snap, err := c.Fork(1); err != nil || len(snap.Messages) != 1 {
		t.Fatalf("Fork of an earlier message while streaming: %v", err)
	}
}

// TestEditTheFirstMessage: an edit of the first message opens the
// conversation beside it; switching back brings the whole earlier path.
func TestEditTheFirstMessage(t *testing.T) {
	c := New(Options{})
	ask(t, c, "frist", "a1")
	ask(t, c, "q2", "a2")
	tn, err := c.Begin(&UserInput{Text: "first", EditOf: 1}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sent(tn.Built); !reflect.DeepEqual(got, []string{"user:first"}) {
		t.Fatalf("request of the edit %q", got)
	}
	reply(t, c, tn, "b1")
	if u := c.At(0); u.Parent != 0 || u.AltIndex != 1 || u.AltCount != 2 || c.Title() != "first" {
		t.Fatalf("edited first message %+v, title %q", u, c.Title())
	}
	if _, err := c.SwitchAlternative(c.At(0).ID, -1); err != nil {
		t.Fatal(err)
	}
	if got := texts(c.Messages()); !reflect.DeepEqual(got, []string{"frist", "a1", "q2", "a2"}) {
		t.Fatalf("earlier path %q", got)
	}
	// Refusals change nothing.
	before := c.Snapshot()
	if _, err := c.Begin(&UserInput{Text: "x", EditOf: 2}, TurnOptions{Model: "m"}); !errors.Is(err, ErrNotEditable) {
		t.Fatalf("edit of a reply: %v", err)
	}
	if _, err := c.Begin(&UserInput{Text: "x", EditOf: 42}, TurnOptions{Model: "m"}); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("edit of an unknown message: %v", err)
	}
	if !reflect.DeepEqual(before, c.Snapshot()) {
		t.Fatal("a refused edit changed the conversation")
	}
}

// TestExcludedTurnsAreLeftOutOfTheRequest: a turn left out stays on
// screen, marked, is not sent, and comes back when included again.
func TestExcludedTurnsAreLeftOutOfTheRequest(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}})
	ask(t, c, "q1", "a1")
	ask(t, c, "q2", "a2")
	a1 := c.At(1)
	n := len(rec.changes)
	if err := c.SetExcluded(a1.ID, true); err != nil { // by its reply: the whole turn
		t.Fatal(err)
	}
	ch := rec.changes[n]
	if ch.Kind != ChangeExclude || ch.Message.ID != 1 || !ch.Message.Excluded || !reflect.DeepEqual(ch.Turn, []int{1, 2}) {
		t.Fatalf("change %+v", ch)
	}
	ms := c.Messages()
	if !ms[0].Excluded || !ms[1].Excluded || ms[2].Excluded || ms[1].Version <= a1.Version {
		t.Fatalf("marks %v %v %v, version %d after %d", ms[0].Excluded, ms[1].Excluded, ms[2].Excluded, ms[1].Version, a1.Version)
	}
	req := c.BuildRequest(RequestOptions{})
	if got := sent(req); !reflect.DeepEqual(got, []string{"user:q2", "assistant:a2"}) || !reflect.DeepEqual(req.Excluded, []int{1}) {
		t.Fatalf("request %q, excluded %v", got, req.Excluded)
	}
	// Again: nothing to tell.
	n = len(rec.changes)
	if err := c.SetExcluded(1, true); err != nil || len(rec.changes) != n {
		t.Fatalf("excluding twice: %v, %d changes", err, len(rec.changes)-n)
	}
	// The last turn left out cannot be answered again.
	c.SetExcluded(4, true)
	if _, err := c.Begin(nil, TurnOptions{Model: "m"}); !errors.Is(err, ErrExcludedTurn) {
		t.Fatalf("retry of a turn left out: %v", err)
	}
	if _, err := c.Regenerate(4, TurnOptions{Model: "m"}); !errors.Is(err, ErrExcludedTurn) {
		t.Fatalf("regenerate in a turn left out: %v", err)
	}
	// A new question goes without both.
	tn, err := c.Begin(&UserInput{Text: "q3"}, TurnOptions{Model: "m"})
	if err != nil || !reflect.DeepEqual(sent(tn.Built), []string{"user:q3"}) {
		t.Fatalf("request %q, %v", sent(tn.Built), err)
	}
	reply(t, c, tn, "a3")
	c.SetExcluded(1, false)
	if got := sent(c.BuildRequest(RequestOptions{})); !reflect.DeepEqual(got, []string{"user:q1", "assistant:a1", "user:q3", "assistant:a3"}) {
		t.Fatalf("after including the first turn again %q", got)
	}
	// An image turn is never sent.
	id, _ := c.StartImages("a cat", "img", ImageTurn{N: 1})
	c.FinishImages(id, nil, nil)
	if err := c.SetExcluded(id, true); !errors.Is(err, ErrImagesNotSent) {
		t.Fatalf("excluding an image turn: %v", err)
	}
	if err := c.SetExcluded(77, true); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("excluding an unknown message: %v", err)
	}
	// The mark is kept by a snapshot, on the user message.
	again := Restore(Options{}, c.Snapshot())
	if ms := again.Messages(); ms[0].Excluded || !ms[2].Excluded || !ms[3].Excluded {
		t.Fatalf("restored marks %+v", ms)
	}
}

// TestForkIsThePathToAMessage: a fork holds the path up to and including
// the message, with its ids and marks, and that message as the leaf, and
// the conversation's role and params.
func TestForkIsThePathToAMessage(t *testing.T) {
	c := New(Options{SystemPrompt: "sys"})
	temp, _ := api.ParseParam("temperature", "0.2")
	c.SetRole("pilot")
	c.SetParams(temp)
	ask(t, c, "q1", "a1")
	ask(t, c, "q2", "a2")
	c.Regenerate(2, TurnOptions{Model: "m"})
	reply(t, c, &Turn{ReplyID: c.Leaf()}, "a1'")
	c.SetExcluded(1, true)
	snap, err := c.Fork(2)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Leaf != 2 || !reflect.DeepEqual(ids(snap.Messages), []int{1, 2}) || snap.SystemPrompt != "sys" || snap.Title != "q1" ||
		!snap.Messages[0].Excluded || snap.Messages[1].AltCount != 1 {
		t.Fatalf("fork %+v", snap)
	}
	if snap.Role != "pilot" || snap.Params.Temperature == nil || *snap.Params.Temperature != 0.2 {
		t.Fatalf("the fork's settings: %q %+v", snap.Role, snap.Params)
	}
	f := Restore(Options{}, snap)
	if got := texts(f.Messages()); !reflect.DeepEqual(got, []string{"q1", "a1"}) || f.Leaf() != 2 || len(f.Tree().Branches()) != 1 {
		t.Fatalf("forked conversation %q", got)
	}
	if _, err := c.Fork(50); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("Fork(50) = %v", err)
	}
}

// TestBranchesAndSnapshots: every leaf is a branch, in the tree's order;
// a snapshot keeps the tree and the active leaf, and a restored branch
// not on the path opens at its newest leaf.
func TestBranchesAndSnapshots(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q1", "a1")                                                         // 1 2
	ask(t, c, "q2", "a2")                                                         // 3 4
	tn, _ := c.Begin(&UserInput{Text: "q2'", EditOf: 3}, TurnOptions{Model: "m"}) // 5 6
	reply(t, c, tn, "b2")
	tn, _ = c.Regenerate(6, TurnOptions{Model: "m"}) // 7
	reply(t, c, tn, "b2'")
	want := []Branch{{Leaf: 4, Len: 4, From: 3, FromAt: 2}, {Leaf: 6, Len: 4, Shared: 2, From: 6, FromAt: 3}, {Leaf: 7, Len: 4, Shared: 3, From: 7, FromAt: 3, Active: true}}
	if got := c.Tree().Branches(); !reflect.DeepEqual(got, want) {
		t.Fatalf("branches %+v, want %+v", got, want)
	}
	snap := c.Snapshot()
	if snap.Leaf != 7 || !reflect.DeepEqual(ids(snap.Messages), []int{1, 2, 3, 4, 5, 6, 7}) || !reflect.DeepEqual(ids(snap.Path()), []int{1, 2, 5, 7}) {
		t.Fatalf("snapshot leaf %d, messages %v, path %v", snap.Leaf, ids(snap.Messages), ids(snap.Path()))
	}
	r := Restore(Options{}, snap)
	if !reflect.DeepEqual(r.Messages(), c.Messages()) || !reflect.DeepEqual(r.Tree().Branches(), want) {
		t.Fatalf("restored path %v", ids(r.Messages()))
	}
	// Below the edit, the newest reply is the way in after a restore.
	r.SwitchTo(3)
	r.SwitchTo(5)
	if r.Leaf() != 7 {
		t.Fatalf("back to the edit: leaf %d, want the newest reply 7", r.Leaf())
	}
	if sib := r.Tree().Siblings(6); !reflect.DeepEqual(ids(sib), []int{6, 7}) || sib[1].AltIndex != 1 {
		t.Fatalf("siblings %+v", sib)
	}
	if got := r.Tree().PathTo(4); !reflect.DeepEqual(ids(got), []int{1, 2, 3, 4}) {
		t.Fatalf("PathTo(4) = %v", ids(got))
	}
	// A leaf unknown to the snapshot: the newest message.
	snap.Leaf = 99
	if r := Restore(Options{}, snap); r.Leaf() != 7 {
		t.Fatalf("leaf %d for an unknown one", r.Leaf())
	}
	// Unsorted messages are put in order.
	snap.Messages[0], snap.Messages[6] = snap.Messages[6], snap.Messages[0]
	if r := Restore(Options{}, snap); !reflect.DeepEqual(ids(r.Messages()), []int{1, 2, 5, 7}) {
		t.Fatalf("from unsorted messages: %v", ids(r.Messages()))
	}
}

// TestPartialSnapshot: a window of the active path shows the counts the
// store gave and refuses what needs the whole tree.
func TestPartialSnapshot(t *testing.T) {
	snap := Snapshot{Partial: true, Leaf: 9, Messages: []Message{
		{ID: 7, Parent: 6, Role: api.RoleUser, Text: "q", AltIndex: 1, AltCount: 3},
		{ID: 9, Parent: 7, Role: api.RoleAssistant, Text: "a", AltIndex: 0, AltCount: 1},
	}}
	c := Restore(Options{}, snap)
	if !c.Partial() || c.Len() != 2 || c.At(0).AltIndex != 1 || c.At(0).AltCount != 3 {
		t.Fatalf("partial %v, len %d, first %+v", c.Partial(), c.Len(), c.At(0))
	}
	if _, err := c.Begin(&UserInput{Text: "x"}, TurnOptions{Model: "m"}); !errors.Is(err, ErrPartial) {
		t.Fatalf("Begin: %v", err)
	}
	if err := c.SwitchTo(7); !errors.Is(err, ErrPartial) {
		t.Fatalf("SwitchTo: %v", err)
	}
	if _, err := c.Fork(9); !errors.Is(err, ErrPartial) {
		t.Fatalf("Fork: %v", err)
	}
	if p := snap.Path(); !reflect.DeepEqual(ids(p), []int{7, 9}) {
		t.Fatalf("Path %v", ids(p))
	}
}

// TestImageTurnsInTheTree: an image turn is made again beside itself
// (StartImagesAgain), not regenerated as a reply; one that ended without
// images is replaced; none is ever sent.
func TestImageTurnsInTheTree(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q", "a")
	id, _ := c.StartImages("a lighthouse", "gpt-image-1", ImageTurn{N: 1})
	c.FinishImages(id, []api.Attachment{imgA}, nil)
	if _, err := c.Regenerate(id, TurnOptions{Model: "m"}); !errors.Is(err, ErrNotAReply) {
		t.Fatalf("Regenerate of an image turn: %v", err)
	}
	again, err := c.StartImagesAgain(id, "a lighthouse", "gpt-image-1", ImageTurn{N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.At(2); m.ID != again || m.AltIndex != 1 || m.AltCount != 2 || m.State != StateStreaming {
		t.Fatalf("again %+v", m)
	}
	c.end(again, StateFailed, nil)
	third, _ := c.StartImagesAgain(again, "a lighthouse at dusk", "gpt-image-1", ImageTurn{N: 1})
	if _, ok := c.ByID(again); ok {
		t.Fatal("the image turn without images was kept")
	}
	if _, n := c.Tree().Alternatives(third); n != 2 {
		t.Fatalf("%d alternatives", n)
	}
	if _, err := c.StartImagesAgain(1, "x", "m", ImageTurn{}); err == nil {
		// Finish first: the turn in flight refuses anything else.
		t.Fatal("StartImagesAgain while an image turn runs")
	}
	c.FinishImages(third, []api.Attachment{imgA}, nil)
	if _, err := c.StartImagesAgain(1, "x", "m", ImageTurn{}); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("StartImagesAgain of a question: %v", err)
	}
	tn, _ := c.Begin(&UserInput{Text: "next"}, TurnOptions{Model: "m"})
	if got := sent(tn.Built); !reflect.DeepEqual(got, []string{"user:q", "assistant:a", "user:next"}) {
		t.Fatalf("request %q", got)
	}
}

// TestVisionFollowsTheBranch: the images a request would carry are those
// of the path it follows, not of other branches.
func TestVisionFollowsTheBranch(t *testing.T) {
	cat := api.NewCatalog(nil)
	c := New(Options{})
	tn, _ := c.Begin(&UserInput{Text: "what is it?", Attachments: []api.Attachment{imgA}}, TurnOptions{Model: "gpt-4o", Catalog: cat})
	reply(t, c, tn, "a dot")
	tn, err := c.Begin(&UserInput{Text: "describe a dot", EditOf: 1}, TurnOptions{Model: "llama3", Catalog: cat})
	if err != nil {
		t.Fatalf("an edit without the image, to a model without vision: %v", err)
	}
	reply(t, c, tn, "a dot is small")
	if _, err := c.Begin(&UserInput{Text: "more"}, TurnOptions{Model: "llama3", Catalog: cat}); err != nil {
		t.Fatalf("a branch without images: %v", err)
	}
	c.Close(&Turn{ReplyID: c.Leaf()}, nil)
	c.SwitchTo(1)
	var ve *VisionError
	if _, err := c.Begin(&UserInput{Text: "more"}, TurnOptions{Model: "llama3", Catalog: cat}); !errors.As(err, &ve) || !ve.Earlier {
		t.Fatalf("the branch with the image: %v", err)
	}
	if _, err := c.Regenerate(2, TurnOptions{Model: "llama3", Catalog: cat}); !errors.As(err, &ve) || ve.Earlier {
		t.Fatalf("regenerating the answer about the image: %v", err)
	}
}

// TestAppendsFollowThePathListenersSee: a listener that keeps the active
// path from the changes alone (Append adds, Remove drops, Switch brings
// the path)
// always has Messages(), through every operation; a restored snapshot has
// the same path and the same request.
func TestAppendsFollowThePathListenersSee(t *testing.T) {
	var c *Conversation
	var view []int
	mirror := ListenerFunc(func(ch Change) {
		switch ch.Kind {
		case ChangeAppend:
			if want := 0; len(view) > 0 {
				want = view[len(view)-1]
				if ch.Message.Parent != want {
					t.Fatalf("append of %d under %d, the view ends at %d", ch.Message.ID, ch.Message.Parent, want)
				}
			}
			view = append(view, ch.Message.ID)
		case ChangeRemove:
			for _, id := range ch.Removed {
				for i, v := range view {
					if v == id {
						view = append(view[:i:i], view[i+1:]...)
						break
					}
				}
			}
		case ChangeSwitch:
			if !reflect.DeepEqual(ch.Path, c.Messages()) {
				t.Fatalf("a switch carries the path %v, the conversation has %v", ids(ch.Path), ids(c.Messages()))
			}
			view = ids(ch.Path)
		}
		if ch.Leaf != c.Leaf() {
			t.Fatalf("change %v carries leaf %d, the conversation has %d", ch.Kind, ch.Leaf, c.Leaf())
		}
	})
	c = New(Options{Listeners: []Listener{mirror}})
	check := func(step string) {
		t.Helper()
		if !reflect.DeepEqual(view, ids(c.Messages())) {
			t.Fatalf("%s: the listener shows %v, the path is %v", step, view, ids(c.Messages()))
		}
		r := Restore(Options{}, c.Snapshot())
		if !reflect.DeepEqual(ids(r.Messages()), ids(c.Messages())) ||
			!reflect.DeepEqual(sent(r.BuildRequest(RequestOptions{})), sent(c.BuildRequest(RequestOptions{}))) {
			t.Fatalf("%s: restored path %v", step, ids(r.Messages()))
		}
	}
	ask(t, c, "q1", "a1")
	ask(t, c, "q2", "a2")
	check("two turns")
	tn, _ := c.Begin(nil, TurnOptions{Model: "m"})
	c.Close(tn, errors.New("500"))
	check("a failed retry")
	tn, _ = c.Begin(nil, TurnOptions{Model: "m"})
	reply(t, c, tn, "a2''")
	check("a retry replacing it")
	tn, _ = c.Begin(&UserInput{Text: "q1'", EditOf: 1}, TurnOptions{Model: "m"})
	reply(t, c, tn, "b1")
	check("an edit of the first message")
	c.SwitchTo(4)
	check("back to the first branch")
	tn, _ = c.Regenerate(2, TurnOptions{Model: "m"})
	c.Interrupt(tn.ReplyID)
	check("an interrupted regenerate")
	id, _ := c.StartImages("p", "img", ImageTurn{})
	c.end(id, StateFailed, nil)
	c.RemoveLast(id)
	check("an image turn removed")
	if _, err := c.SwitchAlternative(c.At(0).ID, 1); err != nil {
		t.Fatal(err)
	}
	check("the other first message")
	c.SetExcluded(c.At(0).ID, true)
	check("a turn left out")
}

// TestRequestOverTheWireCarriesTheChosenBranch: through a real gateway,
// after regenerating a reply and choosing the first one again, the next
// request carries the first reply and nothing of the other branch; after
// an edit, only the edited question.
func TestRequestOverTheWireCarriesTheChosenBranch(t *testing.T) {
	gw := apitest.New(t)
	client, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	c := New(Options{})
	stream := func(tn *Turn, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		s, err := client.ChatStream(context.Background(), tn.Chat)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for {
			ev, err := s.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				c.Close(tn, err)
				return
			}
			c.Receive(tn, ev.Text, ev.Usage, ev.FinishReason)
		}
	}
	lastSent := func() []string {
		t.Helper()
		req, ok := gw.LastRequest()
		if !ok {
			t.Fatal("no request reached the gateway")
		}
		var out []string
		for _, m := range req.Chat.Messages {
			out = append(out, m.Role+":"+m.Content.PlainText())
		}
		return out
	}
	opts := TurnOptions{Model: "gpt-4o"}
	gw.Enqueue(apitest.Reply{Text: "red"}, apitest.Reply{Text: "blue"}, apitest.Reply{Text: "ok"}, apitest.Reply{Text: "fine"})
	stream(c.Begin(&UserInput{Text: "name a colour"}, opts))
	stream(c.Begin(nil, opts))
	if r, _ := c.LastReply(); r.Text != "blue" || r.AltCount != 2 || r.State != StateDone {
		t.Fatalf("regenerated reply %+v", r)
	}
	if _, err := c.SwitchAlternative(c.Leaf(), -1); err != nil {
		t.Fatal(err)
	}
	stream(c.Begin(&UserInput{Text: "why?"}, opts))
	if got, want := lastSent(), []string{"user:name a colour", "assistant:red", "user:why?"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sent %q, want %q", got, want)
	}
	stream(c.Begin(&UserInput{Text: "name a fruit", EditOf: 1}, opts))
	if got, want := lastSent(), []string{"user:name a fruit"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sent after the edit %q, want %q", got, want)
	}
}

// BenchmarkSwitchLongConversation: switches in a 10,000-message
// conversation whose alternatives are near its start, each followed by
// the Messages() a transcript re-reads: one op is a switch to the short
// branch (6 messages) and back to the long one (10,000), which replaces
// the path almost whole.
func BenchmarkSwitchLongConversation(b *testing.B) {
	c := New(Options{})
	for i := range 5000 {
		c.AddUser("question", nil)
		id, _ := c.StartReply("m")
		c.AppendDelta(id, "an answer of some length, as replies are")
		c.Finish(id, "stop", nil)
		if i == 2 {
			// An alternative of the third reply: its branch holds the
			// rest of the conversation.
			c.Begin(nil, TurnOptions{Model: "m"})
			c.Finish(c.Leaf(), "stop", nil)
		}
	}
	branches := c.Tree().Siblings(6)
	if len(branches) != 2 || c.Len() != 10_000 {
		b.Fatalf("%d alternatives, path of %d", len(branches), c.Len())
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, want := range []int{6, 10_000} {
			if err := c.SwitchTo(branches[i].ID); err != nil {
				b.Fatal(err)
			}
			if n := len(c.Messages()); n != want {
				b.Fatalf("path of %d, want %d", n, want)
			}
		}
	}
}

// TestPathMessagesAreMessages: PathMessages yields what Messages returns,
// alternatives and exclusion worked out the same, and stops when asked.
func TestPathMessagesAreMessages(t *testing.T) {
	c := New(Options{})
	ask(t, c, "q1", "a1")
	ask(t, c, "q2", "a2")
	ask(t, c, "q3", "a3")
	tn, err := c.Regenerate(6, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	reply(t, c, tn, "a3 again")
	if err := c.SetExcluded(3, true); err != nil {
		t.Fatal(err)
	}
	want := c.Messages()
	var got []Message
	for m := range c.PathMessages() {
		got = append(got, *m)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("PathMessages:\n%+v\nMessages:\n%+v", got, want)
	}
	if len(got) != c.Len() || !got[2].Excluded || !got[3].Excluded || got[4].Excluded || got[5].AltCount != 2 || got[5].Text != "a3 again" {
		t.Fatalf("the path: %+v", got)
	}
	n := 0
	for range c.PathMessages() {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Fatalf("stopped after %d", n)
	}
}
