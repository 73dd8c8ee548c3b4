package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

// comparable strips what storage does not keep the same way: the render
// version (a loaded message starts again at 1).
func comparable(msgs []conversation.Message) []conversation.Message {
	out := make([]conversation.Message, len(msgs))
	for i, m := range msgs {
		m.Version = 0
		m.Created = m.Created.UTC()
		out[i] = m
	}
	return out
}

// TestRoundTripOfEveryPart: a conversation recorded through its changes
// comes back from the database as it was: text, stored image (bytes,
// sizes, original sizes), linked image, usage, states, errors, title and
// system prompt.
func TestRoundTripOfEveryPart(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{ID: "0190aaaa", SystemPrompt: "be brief", Listeners: []conversation.Listener{r}, Now: c.now})
	img := imageAttachment(t, "shot.png", 40, 30, 1)
	link := linkAttachment("https://example.com/cat.png")
	answer(t, conv, c, "what is in these?", "a chart and a cat", img, link)
	// A failed turn and an interrupted one keep their text and state.
	conv.AddUser("and then?", nil)
	id, _ := conv.StartReply("gpt-4o-mini")
	conv.AppendDelta(id, "partial")
	conv.Fail(id, "the gateway answered 500")
	conv.AddUser("again", nil)
	id, _ = conv.StartReply("gpt-4o-mini")
	conv.AppendDelta(id, "cut")
	conv.Interrupt(id)
	conv.SetTitle("Charts")
	conv.SetSystemPrompt("be very brief")
	flush(t, r)

	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	want := conv.Snapshot()
	if got.Snapshot.Title != "Charts" || !got.Snapshot.Titled || got.Snapshot.SystemPrompt != "be very brief" {
		t.Fatalf("loaded %q titled=%v prompt %q", got.Snapshot.Title, got.Snapshot.Titled, got.Snapshot.SystemPrompt)
	}
	if !reflect.DeepEqual(comparable(got.Snapshot.Messages), comparable(want.Messages)) {
		t.Fatalf("messages differ:\n got %+v\nwant %+v", comparable(got.Snapshot.Messages), comparable(want.Messages))
	}
	if got.Model != "gpt-4o-mini" || got.Messages != 6 || got.Created.IsZero() || !got.Updated.After(got.Created) {
		t.Fatalf("meta %+v", got.Meta)
	}
	// The restored conversation goes on with the stored one's ids.
	again := conversation.Restore(conversation.Options{ID: got.ID}, got.Snapshot)
	if n, _ := again.AddUser("next", nil); n != 7 {
		t.Fatalf("next id after restore %d", n)
	}
}

// TestStreamingReplyIsSavedAsItArrives: progress changes (about once a
// second) write the partial reply, so a process killed mid-reply leaves
// the text so far, which loads as interrupted.
func TestStreamingReplyIsSavedAsItArrives(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("tell me a story", nil)
	flush(t, r)
	// The user message is committed before any reply exists.
	if got, err := s.Load(context.Background(), conv.ID()); err != nil || len(got.Snapshot.Messages) != 1 {
		t.Fatalf("after AddUser: %+v, %v", got.Snapshot.Messages, err)
	}
	id, _ := conv.StartReply("gpt-4o")
	for i := 0; i < 25; i++ {
		c.advance(100 * time.Millisecond)
		conv.AppendDelta(id, "word ")
	}
	flush(t, r)
	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	reply := got.Snapshot.Messages[1]
	// Progress came at 1 s and 2 s: twenty words are saved, the last five
	// (under a second) are not yet.
	if reply.Text != strings.Repeat("word ", 20) || reply.State != conversation.StateInterrupted {
		t.Fatalf("partial reply %q state %v", reply.Text, reply.State)
	}
	var raw string
	s.db.QueryRow("SELECT state FROM messages WHERE seq = ?", id).Scan(&raw)
	if raw != "streaming" {
		t.Fatalf("stored state %q, want streaming", raw)
	}
	conv.Finish(id, "stop", nil)
	flush(t, r)
	got, _ = s.Load(context.Background(), conv.ID())
	if m := got.Snapshot.Messages[1]; m.Text != strings.Repeat("word ", 25) || m.State != conversation.StateDone {
		t.Fatalf("final reply %q %v", m.Text, m.State)
	}
}

// TestRegenerateAndEditKeepBranches: a regenerated reply and an edited
// question are stored beside the earlier ones, with their parents and the
// active leaf; a reply that failed before any text is replaced, in the
// database too.
func TestRegenerateAndEditKeepBranches(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "first", "one", "second", "two")
	opts := conversation.TurnOptions{Model: "m"}
	tn, _ := conv.Begin(nil, opts)
	conv.Close(tn, errors.New("500")) // no text: noise
	tn, _ = conv.Begin(nil, opts)
	conv.Receive(tn, "two again", nil, "stop")
	conv.Close(tn, nil)
	tn, _ = conv.Begin(&conversation.UserInput{Text: "second, edited", EditOf: 3}, opts)
	conv.Receive(tn, "edited answer", nil, "stop")
	conv.Close(tn, nil)
	flush(t, r)
	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range got.Snapshot.Messages {
		rows = append(rows, fmt.Sprintf("%d<%d %s %d/%d", m.ID, m.Parent, m.Text, m.AltIndex+1, m.AltCount))
	}
	want := []string{"1<0 first 1/1", "2<1 one 1/1", "3<2 second 1/2", "4<3 two 1/2", "6<3 two again 2/2",
		"7<2 second, edited 2/2", "8<7 edited answer 1/1"}
	if !reflect.DeepEqual(rows, want) || got.Messages != 7 || got.Snapshot.Leaf != 8 {
		t.Fatalf("stored %q (count %d, leaf %d)", rows, got.Messages, got.Snapshot.Leaf)
	}
	again := conversation.Restore(conversation.Options{ID: conv.ID()}, got.Snapshot)
	if a, b := shape(again.Messages()), shape(conv.Messages()); !reflect.DeepEqual(a, b) || !reflect.DeepEqual(again.Tree().Branches(), conv.Tree().Branches()) {
		t.Fatalf("reopened path %q, want %q", a, b)
	}
	// A switch is stored: the next open shows that branch.
	if err := conv.SwitchTo(4); err != nil {
		t.Fatal(err)
	}
	flush(t, r)
	if got, _ := s.Load(context.Background(), conv.ID()); got.Snapshot.Leaf != 4 {
		t.Fatalf("leaf after switching %d, want 4", got.Snapshot.Leaf)
	}
}

// shape describes messages by what the tree says of them.
func shape(ms []conversation.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = fmt.Sprintf("%d<%d %s %d/%d excluded=%v", m.ID, m.Parent, m.Text, m.AltIndex+1, m.AltCount, m.Excluded)
	}
	return out
}

// TestExcludedTurnIsStored: leaving a turn out is stored on its user
// message and undone the same way.
func TestExcludedTurnIsStored(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "first", "one", "second", "two")
	ctx := context.Background()
	load := func() []conversation.Message {
		t.Helper()
		flush(t, r)
		got, err := s.Load(ctx, conv.ID())
		if err != nil {
			t.Fatal(err)
		}
		return conversation.Restore(conversation.Options{}, got.Snapshot).Messages()
	}
	conv.SetExcluded(2, true)
	if ms := load(); !ms[0].Excluded || !ms[1].Excluded || ms[2].Excluded {
		t.Fatalf("stored marks %v %v %v", ms[0].Excluded, ms[1].Excluded, ms[2].Excluded)
	}
	var n int
	s.db.QueryRow("SELECT count(*) FROM messages WHERE excluded = 1").Scan(&n)
	if n != 1 {
		t.Fatalf("%d rows marked, want the user message only", n)
	}
	conv.SetExcluded(1, false)
	if ms := load(); ms[0].Excluded || ms[1].Excluded {
		t.Fatal("the turn is still left out after bringing it back")
	}
}

// TestWriteFailureIsReportedOnce: a failing database is reported on
// Errors once per run of failures, never blocks the conversation, and
// Flush returns the failure.
func TestWriteFailureIsReportedOnce(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "q", "a")
	flush(t, r)
	if _, err := s.db.Exec(`CREATE TRIGGER broken BEFORE INSERT ON messages BEGIN SELECT RAISE(ABORT, 'disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	answer(t, conv, c, "q2", "a2")
	conv.AddUser("q3", nil)
	err := r.Flush(context.Background())
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "disk is full") || !strings.Contains(err.Error(), s.Path()) {
		t.Fatalf("Flush = %v, want the failure with the path", err)
	}
	select {
	case e := <-r.Errors():
		if !strings.Contains(e.Error(), "could not save the conversation") {
			t.Fatalf("reported %v", e)
		}
	default:
		t.Fatal("nothing on Errors")
	}
	select {
	case e := <-r.Errors():
		t.Fatalf("reported twice: %v", e)
	default:
	}
	// Once writes succeed again, the next failure is news.
	s.db.Exec("DROP TRIGGER broken")
	conv.SetTitle("works")
	flush(t, r)
	s.db.Exec(`CREATE TRIGGER broken BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'disk is full'); END`)
	conv.SetTitle("fails")
	r.Flush(context.Background())
	select {
	case <-r.Errors():
	case <-time.After(5 * time.Second):
		t.Fatal("the second run of failures was not reported")
	}
}

func TestRecorderCloseAndCancel(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := s.NewRecorder(context.Background())
	conv := chat(t, r, c, "", "q", "a")
	// Close writes what is queued.
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(context.Background(), conv.ID()); err != nil || len(got.Snapshot.Messages) != 2 {
		t.Fatalf("after Close: %v, %v", got.Snapshot.Messages, err)
	}
	if _, ok := <-r.Errors(); ok {
		t.Fatal("Errors is not closed after Close")
	}
	if err := r.Flush(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Flush after Close = %v", err)
	}
	conv.AddUser("dropped", nil) // no panic, no write
	r.Close()                    // twice is fine

	// A cancelled context stops the writer; waiting flushes return.
	ctx, cancel := context.WithCancel(context.Background())
	r2 := s.NewRecorder(ctx)
	cancel()
	if _, ok := <-r2.Errors(); ok {
		t.Fatal("Errors is not closed after cancel")
	}
	if err := r2.Flush(context.Background()); err == nil {
		t.Fatal("Flush on a stopped recorder returned nil")
	}
	r2.Close()
}

// TestProgressIsCoalesced: a writer that fell behind writes each message
// once per batch.
func TestProgressIsCoalesced(t *testing.T) {
	conv := conversation.Change{Kind: conversation.ChangeProgress, ConversationID: "a", Message: &conversation.Message{ID: 2}}
	later := []item{{change: conversation.Change{Kind: conversation.ChangeUpdate, ConversationID: "a", Message: &conversation.Message{ID: 2}}}}
	if !superseded(later, conv) {
		t.Fatal("a progress before the final state is written")
	}
	other := []item{{change: conversation.Change{Kind: conversation.ChangeProgress, ConversationID: "b", Message: &conversation.Message{ID: 2}}}}
	if superseded(other, conv) || superseded(later, later[0].change) {
		t.Fatal("a change of another conversation, or a final state, was skipped")
	}
}

// TestNewSessionKeepsItsModelAndPrompt: the session row follows the
// conversation's latest reply model and prompt; a title given by name is
// kept against later changes from a conversation that still has the old
// one (another process renamed it).
func TestRenamedTitleSurvivesLaterChanges(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "original question", "answer")
	flush(t, r)
	if err := s.Rename(context.Background(), conv.ID(), "  Renamed  "); err != nil {
		t.Fatal(err)
	}
	answer(t, conv, c, "more", "yes")
	flush(t, r)
	m, _ := s.Get(context.Background(), conv.ID())
	if m.Title != "Renamed" || !m.Titled || m.Model != "gpt-4o" {
		t.Fatalf("meta %+v", m)
	}
	if err := s.Rename(context.Background(), "feed", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Rename of an unknown session: %v", err)
	}
}

var _ conversation.Listener = (*Recorder)(nil)

// TestSwitchIsSupersededByALaterMoveOfThePath: the changes that move
// the path (a switch, an append, a removal) write the active leaf, so a
// queued switch is skipped when one of them follows in its conversation
// (a writer that fell behind writes the leaf once); the others no longer
// write the leaf (a late one must not undo another process's turn), so
// they do not replace it, nor do a flush, a draft or another
// conversation.
func TestSwitchIsSupersededByALaterMoveOfThePath(t *testing.T) {
	sw := conversation.Change{Kind: conversation.ChangeSwitch, ConversationID: "a", Leaf: 2}
	later := func(ch conversation.Change) []item { return []item{{change: ch}} }
	cases := []struct {
		name  string
		after []item
		want  bool
	}{
		{"another switch", later(conversation.Change{Kind: conversation.ChangeSwitch, ConversationID: "a", Leaf: 4}), true},
		{"an append", later(conversation.Change{Kind: conversation.ChangeAppend, ConversationID: "a", Message: &conversation.Message{ID: 5}}), true},
		{"a removal", later(conversation.Change{Kind: conversation.ChangeRemove, ConversationID: "a", Removed: []int{3}}), true},
		{"a title", later(conversation.Change{Kind: conversation.ChangeTitle, ConversationID: "a"}), false},
		{"the end of a reply", later(conversation.Change{Kind: conversation.ChangeUpdate, ConversationID: "a", Message: &conversation.Message{ID: 2}}), false},
		{"another conversation", later(conversation.Change{Kind: conversation.ChangeSwitch, ConversationID: "b"}), false},
		{"a flush", []item{{flush: make(chan error, 1)}}, false},
		{"a draft", []item{{draft: &draft{sessionID: "a"}}}, false},
		{"nothing", nil, false},
	}
	for _, c := range cases {
		if got := superseded(c.after, sw); got != c.want {
			t.Errorf("a switch before %s: superseded %v, want %v", c.name, got, c.want)
		}
	}
}
