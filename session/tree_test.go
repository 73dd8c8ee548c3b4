package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"parley/api"
	"parley/conversation"
)

// branchy records a conversation with branches: q1/a1, q2/a2; a2
// regenerated (a2'), q2 edited (q2'/b2), which is the active path. a2'
// and b2 think first, each its own reasoning.
//
//	1 q1 ─ 2 a1 ┬ 3 q2 ┬ 4 a2
//	            │      └ 5 a2'
//	            └ 6 q2' ─ 7 b2
func branchy(t *testing.T, r *Recorder, c *clock, id string) *conversation.Conversation {
	t.Helper()
	conv := chat(t, r, c, id, "q1 about otters", "a1 otters swim", "q2 about beavers", "a2 beavers build dams")
	opts := conversation.TurnOptions{Model: "gpt-4o"}
	tn, err := conv.Begin(nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Each alternative thinks on its own.
	conv.ReceiveReasoning(tn, "Beavers again,")
	conv.ReceiveReasoning(tn, " from the other side.")
	conv.Receive(tn, "a2' beavers gnaw wood, like a capybara would not", nil, "stop")
	conv.Close(tn, nil)
	tn, err = conv.Begin(&conversation.UserInput{Text: "q2' about badgers", EditOf: 3}, opts)
	if err != nil {
		t.Fatal(err)
	}
	conv.ReceiveReasoning(tn, "Badgers: setts.")
	conv.Receive(tn, "b2 badgers dig setts", nil, "stop")
	conv.Close(tn, nil)
	return conv
}

// TestLoadTailOfATree: the first window of a session is the end of its
// active path, with the alternatives of each message counted in the
// whole tree; the whole load holds every branch.
func TestLoadTailOfATree(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := branchy(t, r, c, "")
	for i := range 10 {
		answer(t, conv, c, fmt.Sprintf("more %d", i), fmt.Sprintf("reply %d", i))
	}
	// The last reply regenerated: its alternative is at the very end.
	tn, _ := conv.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	conv.Receive(tn, "reply 9 again", nil, "stop")
	conv.Close(tn, nil)
	flush(t, r)
	ctx := context.Background()
	tail, err := s.LoadTail(ctx, conv.ID(), 22)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shape(tail.Snapshot.Messages), shape(conv.Messages()[2:]); !reflect.DeepEqual(got, want) {
		t.Fatalf("tail\n%q\nwant\n%q", got, want)
	}
	if !tail.Snapshot.Partial || tail.Messages != 28 || tail.Snapshot.Leaf != conv.Leaf() {
		t.Fatalf("partial %v, %d messages, leaf %d", tail.Snapshot.Partial, tail.Messages, tail.Snapshot.Leaf)
	}
	window := conversation.Restore(conversation.Options{}, tail.Snapshot)
	if got := shape(window.Messages()); !reflect.DeepEqual(got, shape(conv.Messages()[2:])) || !window.Partial() {
		t.Fatalf("restored window %q", got)
	}
	before, err := s.LoadBefore(ctx, conv.ID(), tail.Snapshot.Messages[0].ID, 5)
	if err != nil || !reflect.DeepEqual(shape(before), shape(conv.Messages()[:2])) {
		t.Fatalf("LoadBefore %q, %v", shape(before), err)
	}
	if _, err := s.LoadBefore(ctx, conv.ID(), 999, 5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("LoadBefore of an unknown message: %v", err)
	}
	// A window of the whole path still lacks the other branches; one of
	// a session without branches is whole.
	if all, _ := s.LoadTail(ctx, conv.ID(), 1000); !all.Snapshot.Partial || len(all.Snapshot.Messages) != 24 {
		t.Fatalf("a window longer than the path: partial %v, %d messages", all.Snapshot.Partial, len(all.Snapshot.Messages))
	}
	line := chat(t, r, c, "", "one", "two")
	flush(t, r)
	if all, _ := s.LoadTail(ctx, line.ID(), 1000); all.Snapshot.Partial || len(all.Snapshot.Messages) != 2 {
		t.Fatalf("a window of a whole line: partial %v, %d messages", all.Snapshot.Partial, len(all.Snapshot.Messages))
	}
	whole, err := s.Load(ctx, conv.ID())
	if err != nil || len(whole.Snapshot.Messages) != 28 || whole.Snapshot.Partial {
		t.Fatalf("Load: %d messages, %v", len(whole.Snapshot.Messages), err)
	}
	again := conversation.Restore(conversation.Options{}, whole.Snapshot)
	if !reflect.DeepEqual(shape(again.Messages()), shape(conv.Messages())) || !reflect.DeepEqual(again.Tree().Branches(), conv.Tree().Branches()) {
		t.Fatalf("reopened %q", shape(again.Messages()))
	}
}

// TestSearchFindsAnotherBranchAndOpensIt: a word only in an alternative
// off the active path is found, and opening the hit shows that branch.
func TestSearchFindsAnotherBranchAndOpensIt(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := branchy(t, r, c, "")
	flush(t, r)
	ctx := context.Background()
	hits, err := s.Search(ctx, "capybara", 10)
	if err != nil || len(hits) != 1 || hits[0].MessageID != 5 || hits[0].SessionID != conv.ID() {
		t.Fatalf("search: %+v, %v", hits, err)
	}
	opened, err := s.OpenAt(ctx, hits[0].SessionID, hits[0].MessageID)
	if err != nil {
		t.Fatal(err)
	}
	shown := conversation.Restore(conversation.Options{ID: opened.ID}, opened.Snapshot)
	if got := ids(shown.Messages()); !reflect.DeepEqual(got, []int{1, 2, 3, 5}) {
		t.Fatalf("opened at the hit: path %v", got)
	}
	// The branch is the session's from now on.
	if again, _ := s.Load(ctx, conv.ID()); again.Snapshot.Leaf != 5 {
		t.Fatalf("stored leaf %d", again.Snapshot.Leaf)
	}
	// A hit in a message that leads on opens at the leaf below it.
	if got, _ := s.OpenAt(ctx, conv.ID(), 2); got.Snapshot.Leaf != 5 {
		t.Fatalf("open at a message on the path: leaf %d", got.Snapshot.Leaf)
	}
	if got, _ := s.OpenAt(ctx, conv.ID(), 6); got.Snapshot.Leaf != 7 {
		t.Fatalf("open at the edit: leaf %d", got.Snapshot.Leaf)
	}
	if _, err := s.OpenAt(ctx, conv.ID(), 99); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no message 99") {
		t.Fatalf("OpenAt an unknown message: %v", err)
	}
	if _, err := s.OpenAt(ctx, "feed", 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("OpenAt an unknown session: %v", err)
	}
}

func ids(ms []conversation.Message) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// TestForkMakesANewSession: a fork holds the path up to the message, its
// images, reasoning and left-out turns, under the original's title marked
// as a fork, with its role and params; the original is unchanged.
func TestForkMakesANewSession(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now, SystemPrompt: "be brief"})
	img := imageAttachment(t, "chart.png", 10, 8, 5)
	temp, _ := api.ParseParam("temperature", "0.2")
	conv.SetRole("analyst")
	conv.SetParams(temp)
	answer(t, conv, c, "what is this chart?", "a rising line", img)
	tn, err := conv.Begin(&conversation.UserInput{Text: "and the next?"}, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	conv.ReceiveEvent(tn, api.StreamEvent{Reasoning: "It goes down."})
	conv.ReceiveEvent(tn, api.StreamEvent{Text: "a falling one", FinishReason: "stop"})
	conv.Close(tn, nil)
	conv.SetExcluded(2, true)
	flush(t, r)
	ctx := context.Background()
	snap, err := conv.Fork(4)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Fork(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "what is this chart? (fork)" || !got.Titled || got.SystemPrompt != "be brief" || got.Model != "gpt-4o" ||
		got.Snapshot.Leaf != 4 || !reflect.DeepEqual(ids(got.Snapshot.Messages), []int{1, 2, 3, 4}) {
		t.Fatalf("fork %+v / %v", got.Meta, ids(got.Snapshot.Messages))
	}
	// A fork of the fork, and a fork of that, count up.
	for _, want := range []string{"what is this chart? (fork 2)", "what is this chart? (fork 3)"} {
		fsnap := conversation.Restore(conversation.Options{ID: got.ID}, got.Snapshot)
		fs, err := fsnap.Fork(4)
		if err != nil {
			t.Fatal(err)
		}
		fid, err := s.Fork(ctx, fs)
		if err != nil {
			t.Fatal(err)
		}
		if got, err = s.Load(ctx, fid); err != nil || got.Title != want {
			t.Fatalf("fork of a fork titled %q (%v), want %q", got.Title, err, want)
		}
	}
	if got.Role != "analyst" || got.Params.Temperature == nil || *got.Params.Temperature != 0.2 {
		t.Fatalf("the fork's settings: %q %+v", got.Role, got.Params)
	}
	if r := got.Snapshot.Messages[3]; r.Reasoning != "It goes down." || r.Text != "a falling one" {
		t.Fatalf("the fork's last reply %q / %q", r.Reasoning, r.Text)
	}
	m := got.Snapshot.Messages[0]
	if !m.Excluded || len(m.Attachments) != 1 || m.Attachments[0].SHA256 != HashBytes(img.Data) || len(m.Attachments[0].Data) != len(img.Data) {
		t.Fatalf("forked first message %+v", m)
	}
	if n := len(blobFiles(t, dir)); n != 1 {
		t.Fatalf("%d blobs: the image is stored once", n)
	}
	if orig, _ := s.Load(ctx, conv.ID()); len(orig.Snapshot.Messages) != 4 || orig.Title != "what is this chart?" {
		t.Fatalf("original after the fork: %+v", orig.Meta)
	}
	// Deleting the original keeps the fork's image.
	s.Delete(ctx, conv.ID())
	if again, _ := s.Load(ctx, id); len(again.Snapshot.Messages[0].Attachments[0].Data) != len(img.Data) {
		t.Fatal("the fork lost its image with the original")
	}
	if _, err := s.Fork(ctx, conversation.Snapshot{}); err == nil || !strings.Contains(err.Error(), "nothing to fork") {
		t.Fatalf("fork of nothing: %v", err)
	}
	// An untitled conversation's fork is named from its first message.
	plain := conversation.Snapshot{Messages: []conversation.Message{{ID: 1, Role: api.RoleUser, Text: "# Plain question"}}}
	if id, err := s.Fork(ctx, plain); err != nil {
		t.Fatal(err)
	} else if m, _ := s.Get(ctx, id); m.Title != "Plain question (fork)" {
		t.Fatalf("title %q", m.Title)
	}
}

// TestRecorderDroppedWhileARegeneratedReplyStreams: the process dies
// (the recorder is never closed) after progress writes of a regenerated
// reply: the session opens with the earlier reply as an alternative and
// the partial new one on the path, interrupted.
func TestRecorderDroppedWhileARegeneratedReplyStreams(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	ctx, stop := context.WithCancel(context.Background())
	r := s.NewRecorder(ctx)
	conv := chat(t, r, c, "", "tell me a story", "Once upon a time.")
	tn, err := conv.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	for _, piece := range []string{"In a land ", "far away, ", "a wombat "} {
		c.advance(conversation.DefaultProgressEvery)
		conv.Receive(tn, piece, nil, "")
		flush(t, r)
	}
	conv.Receive(tn, "never saved", nil, "") // within the second: not written
	// The process dies: the writer stops, nothing more is written, and the
	// recorder is never closed.
	stop()
	<-r.done
	other := openIn(t, dir, c)
	got, err := other.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1<0 tell me a story 1/1 excluded=false", "2<1 Once upon a time. 1/2 excluded=false",
		"3<1 In a land far away, a wombat  2/2 excluded=false"}
	if got := shape(got.Snapshot.Messages); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the crash\n%q\nwant\n%q", got, want)
	}
	reopened := conversation.Restore(conversation.Options{}, got.Snapshot)
	if last := reopened.At(1); last.ID != 3 || last.State != conversation.StateInterrupted {
		t.Fatalf("the path ends at %+v", last)
	}
}
