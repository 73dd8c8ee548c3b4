package conversation

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/api"
)

// recorded collects the changes a conversation reports.
type recorded struct{ changes []Change }

func (r *recorded) OnChange(c Change) { r.changes = append(r.changes, c) }

func (r *recorded) kinds() []ChangeKind {
	var k []ChangeKind
	for _, c := range r.changes {
		k = append(k, c.Kind)
	}
	return k
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time          { return f.t }
func (f *fakeClock) advance(d time.Duration) { f.t = f.t.Add(d) }
func newClock() *fakeClock                   { return &fakeClock{t: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)} }

func TestNewMakesTimeSortableIDs(t *testing.T) {
	a := New(Options{}).ID()
	// Version 7 ids carry the time and a counter, so even two made in the
	// same millisecond sort in creation order.
	b := New(Options{}).ID()
	for _, id := range []string{a, b} {
		if len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Fatalf("id %q is not 32 lower-case hex digits", id)
		}
	}
	if !(a < b) {
		t.Fatalf("ids do not sort by creation: %s then %s", a, b)
	}
	if got := New(Options{ID: "given"}).ID(); got != "given" {
		t.Fatalf("ID() = %q, want the given one", got)
	}
}

func TestTurnLifecycleEmitsChangesInOrder(t *testing.T) {
	rec := &recorded{}
	clock := newClock()
	c := New(Options{ID: "c1", Listeners: []Listener{rec}, Now: clock.now, SystemPrompt: "be brief"})
	uid, err := c.AddUser("What is Go?", nil)
	if err != nil {
		t.Fatal(err)
	}
	rid, err := c.StartReply("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	if c.Streaming() != rid {
		t.Fatalf("Streaming() = %d, want %d", c.Streaming(), rid)
	}
	for _, d := range []string{"Go is ", "a ", "language."} {
		if !c.AppendDelta(rid, d) {
			t.Fatalf("delta %q refused", d)
		}
	}
	if _, err := c.AddUser("too soon", nil); !errors.Is(err, ErrBusy) {
		t.Fatalf("AddUser while streaming: %v, want ErrBusy", err)
	}
	usage := &api.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}
	if err := c.Finish(rid, "stop", usage); err != nil {
		t.Fatal(err)
	}
	usage.TotalTokens = 99 // the conversation keeps its own copy
	m, _ := c.ByID(rid)
	if m.Text != "Go is a language." || m.State != StateDone || m.Usage.TotalTokens != 7 || m.FinishReason != "stop" {
		t.Fatalf("reply = %+v", m)
	}
	if c.Title() != "What is Go?" || uid == rid {
		t.Fatalf("title %q, ids %d %d", c.Title(), uid, rid)
	}
	want := []ChangeKind{ChangeAppend, ChangeAppend, ChangeDelta, ChangeDelta, ChangeDelta, ChangeUpdate}
	if !reflect.DeepEqual(rec.kinds(), want) {
		t.Fatalf("changes = %v, want %v", rec.kinds(), want)
	}
	for _, ch := range rec.changes {
		if ch.ConversationID != "c1" || ch.Title != "What is Go?" || ch.SystemPrompt != "be brief" {
			t.Fatalf("change without the conversation's id, title and prompt: %+v", ch)
		}
	}
	if u := rec.changes[0].Message; u.ID != uid || u.Role != api.RoleUser || u.Text != "What is Go?" {
		t.Fatalf("append user = %+v", u)
	}
	if r := rec.changes[1].Message; r.ID != rid || r.State != StateStreaming || r.Model != "gpt-4o" || r.Text != "" {
		t.Fatalf("append reply = %+v", r)
	}
	var deltas []string
	lastVersion := rec.changes[1].Message.Version
	for _, ch := range rec.changes[2:5] {
		deltas = append(deltas, ch.Delta)
		if ch.Message.ID != rid || ch.Message.Version <= lastVersion {
			t.Fatalf("delta change %+v (version must grow past %d)", ch.Message, lastVersion)
		}
		lastVersion = ch.Message.Version
	}
	if !reflect.DeepEqual(deltas, []string{"Go is ", "a ", "language."}) || rec.changes[4].Message.Text != "Go is a language." {
		t.Fatalf("deltas %q, text so far %q", deltas, rec.changes[4].Message.Text)
	}
	last := rec.changes[5]
	if last.Message.Text != "Go is a language." || last.Message.State != StateDone || last.Message.Usage.TotalTokens != 7 {
		t.Fatalf("final change = %+v", last.Message)
	}
}

// TestChangesAreCopies: a listener that keeps a change keeps what it was
// told, whatever happens to the conversation later.
func TestChangesAreCopies(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}})
	img := api.Attachment{Name: "a.png", MIME: "image/png", Data: []byte{1, 2, 3}}
	c.AddUser("look", []api.Attachment{img})
	r, _ := c.StartReply("m")
	c.AppendDelta(r, "one")
	c.AppendDelta(r, " two")
	c.Finish(r, "stop", &api.Usage{TotalTokens: 5})
	rec.changes[0].Message.Attachments[0].Name = "changed.png"
	rec.changes[4].Message.Usage.TotalTokens = 1
	if c.At(0).Attachments[0].Name != "a.png" || c.At(1).Usage.TotalTokens != 5 {
		t.Fatal("a listener's change reached into the conversation")
	}
	if rec.changes[2].Message.Text != "one" || rec.changes[3].Message.Text != "one two" {
		t.Fatalf("delta texts %q, %q", rec.changes[2].Message.Text, rec.changes[3].Message.Text)
	}
}

func TestListenAddsAListenerLater(t *testing.T) {
	first, later := &recorded{}, &recorded{}
	c := New(Options{Listeners: []Listener{first, nil}})
	c.AddUser("one", nil)
	c.Listen(later)
	c.Listen(nil) // ignored
	c.AddUser("two", nil)
	var heard []string
	c.Listen(ListenerFunc(func(ch Change) { heard = append(heard, ch.Kind.String()+" "+ch.Title) }))
	c.SetTitle("  Named  ")
	if len(first.changes) != 3 || len(later.changes) != 2 || later.changes[0].Message.Text != "two" {
		t.Fatalf("first heard %v, later heard %v", first.kinds(), later.kinds())
	}
	if !reflect.DeepEqual(heard, []string{"title Named"}) {
		t.Fatalf("ListenerFunc heard %q", heard)
	}
}

// TestProgressIsThrottled: while a reply streams, a progress change with
// the text so far comes at most once per ProgressEvery (measured on the
// injected clock), however many deltas arrive.
func TestProgressIsThrottled(t *testing.T) {
	rec := &recorded{}
	clock := newClock()
	c := New(Options{Listeners: []Listener{rec}, Now: clock.now})
	c.AddUser("q", nil)
	rid, _ := c.StartReply("m")
	// 25 deltas, 100 ms apart: 2.5 s of streaming.
	for i := 0; i < 25; i++ {
		clock.advance(100 * time.Millisecond)
		c.AppendDelta(rid, "x")
	}
	var progress []Change
	deltas := 0
	for _, ch := range rec.changes {
		switch ch.Kind {
		case ChangeProgress:
			progress = append(progress, ch)
		case ChangeDelta:
			deltas++
		}
	}
	if deltas != 25 || len(progress) != 2 {
		t.Fatalf("%d deltas and %d progress changes, want 25 and 2", deltas, len(progress))
	}
	// The first comes one second after the reply started, with ten deltas
	// of text; the second one second later.
	if progress[0].Message.Text != strings.Repeat("x", 10) || progress[1].Message.Text != strings.Repeat("x", 20) {
		t.Fatalf("progress texts %q, %q", progress[0].Message.Text, progress[1].Message.Text)
	}
	if progress[0].Message.State != StateStreaming || progress[0].Message.ID != rid {
		t.Fatalf("progress message %+v", progress[0].Message)
	}
	// Each progress change follows the delta that crossed the second.
	for i, ch := range rec.changes {
		if ch.Kind == ChangeProgress && (i == 0 || rec.changes[i-1].Kind != ChangeDelta) {
			t.Fatalf("progress at %d does not follow a delta: %v", i, rec.kinds())
		}
	}
	// A custom interval, and a new reply restarts the count.
	rec2 := &recorded{}
	c2 := New(Options{Listeners: []Listener{rec2}, Now: clock.now, ProgressEvery: 250 * time.Millisecond})
	c2.AddUser("q", nil)
	r2, _ := c2.StartReply("m")
	clock.advance(200 * time.Millisecond)
	c2.AppendDelta(r2, "a")
	clock.advance(100 * time.Millisecond)
	c2.AppendDelta(r2, "b")
	if k := rec2.kinds(); !reflect.DeepEqual(k, []ChangeKind{ChangeAppend, ChangeAppend, ChangeDelta, ChangeDelta, ChangeProgress}) {
		t.Fatalf("changes %v", k)
	}
}

func TestLateDeltasOfAnEndedReplyAreIgnored(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}})
	c.AddUser("q", nil)
	rid, _ := c.StartReply("m")
	c.AppendDelta(rid, "part")
	if err := c.Interrupt(rid); err != nil {
		t.Fatal(err)
	}
	n := len(rec.changes)
	if c.AppendDelta(rid, " more") {
		t.Fatal("a delta after the interrupt was accepted")
	}
	m, _ := c.ByID(rid)
	if m.Text != "part" || m.State != StateInterrupted {
		t.Fatalf("reply = %+v", m)
	}
	// A second end is a no-op, not a state change, and tells no one.
	if err := c.Fail(rid, "boom"); err != nil || c.At(1).State != StateInterrupted {
		t.Fatalf("Fail after Interrupt: %v, state %v", err, c.At(1).State)
	}
	if len(rec.changes) != n {
		t.Fatalf("changes after the end: %v", rec.kinds()[n:])
	}
	if err := c.Finish(42, "stop", nil); err == nil {
		t.Fatal("Finish of an unknown message: no error")
	}
}

func TestFailedReplyKeepsTextAndUserMessage(t *testing.T) {
	c := New(Options{})
	c.AddUser("question", nil)
	rid, _ := c.StartReply("m")
	c.AppendDelta(rid, "half")
	c.Fail(rid, "the gateway answered 500")
	if c.Len() != 2 || c.At(0).Text != "question" {
		t.Fatalf("user message lost: %+v", c.Messages())
	}
	m := c.At(1)
	if m.State != StateFailed || m.Err != "the gateway answered 500" || m.Text != "half" {
		t.Fatalf("reply = %+v", m)
	}
	if r, ok := c.LastReply(); !ok || r.ID != rid {
		t.Fatalf("LastReply = %+v, %v", r, ok)
	}
}

// TestRetryReplacesAReplyWithoutText: answering the last message again
// drops a reply that failed before any text (noise) instead of keeping it
// as an alternative; listeners hear ChangeRemove, then the new reply.
func TestRetryReplacesAReplyWithoutText(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}})
	if _, err := c.Begin(nil, TurnOptions{Model: "m"}); !errors.Is(err, ErrNothingToRetry) {
		t.Fatalf("empty conversation: %v", err)
	}
	turn1, _ := c.Begin(&UserInput{Text: "one"}, TurnOptions{Model: "m"})
	if _, err := c.Begin(nil, TurnOptions{Model: "m"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("retry while streaming: %v", err)
	}
	c.Fail(turn1.ReplyID, "500")
	n := len(rec.changes)
	turn2, err := c.Begin(nil, TurnOptions{Model: "m"})
	if err != nil || c.Len() != 2 || c.At(1).ID != turn2.ReplyID {
		t.Fatalf("retry = %v; len %d", err, c.Len())
	}
	if _, ok := c.ByID(turn1.ReplyID); ok {
		t.Fatal("the failed reply without text is still in the tree")
	}
	got := rec.changes[n:]
	if len(got) != 2 || got[0].Kind != ChangeRemove || !reflect.DeepEqual(got[0].Removed, []int{turn1.ReplyID}) ||
		got[1].Kind != ChangeAppend || got[1].Message.Parent != c.At(0).ID {
		t.Fatalf("changes of the retry: %+v", got)
	}
	if _, n := c.Tree().Alternatives(turn2.ReplyID); n != 1 {
		t.Fatalf("the new reply has %d alternatives, want 1", n)
	}
}

func TestEditKeepsTheEarlierBranch(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}})
	turn(t, c, "first", "")
	u2, _ := c.AddUser("second", nil)
	r2, _ := c.StartReply("m")
	c.Finish(r2, "stop", nil)
	n := len(rec.changes)
	tn, err := c.Begin(&UserInput{Text: "second, edited", Replace: true}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range c.Messages() {
		texts = append(texts, m.Text)
	}
	if !reflect.DeepEqual(texts, []string{"first", "", "second, edited", ""}) || c.At(3).ID != tn.ReplyID {
		t.Fatalf("messages = %q", texts)
	}
	edit := c.At(2)
	if edit.Parent != c.At(1).ID || edit.AltIndex != 1 || edit.AltCount != 2 {
		t.Fatalf("edit %+v: want the second of two alternatives under the first reply", edit)
	}
	if old, ok := c.ByID(u2); !ok || old.AltIndex != 0 || old.AltCount != 2 {
		t.Fatalf("the edited message %+v, %v", old, ok)
	}
	if _, ok := c.ByID(r2); !ok {
		t.Fatal("the earlier reply left the tree")
	}
	got := rec.changes[n:]
	if k := rec.kinds()[n:]; !reflect.DeepEqual(k, []ChangeKind{ChangeSwitch, ChangeAppend, ChangeAppend}) ||
		got[0].Leaf != c.At(1).ID || got[1].Message.ID != edit.ID {
		t.Fatalf("changes of the edit: %v %+v", k, got)
	}
	// On an empty conversation it is a plain new message.
	c2 := New(Options{})
	if _, err := c2.Begin(&UserInput{Text: "hello", Replace: true}, TurnOptions{Model: "m"}); err != nil || c2.Len() != 2 || c2.At(0).Parent != 0 {
		t.Fatalf("Replace on empty: %v, len %d", err, c2.Len())
	}
}

func TestMakeTitle(t *testing.T) {
	if got := MakeTitle("  hello\tworld  \nmore"); got != "hello world" {
		t.Fatalf("got %q", got)
	}
	long := MakeTitle(strings.Repeat("word ", 40))
	if n := len([]rune(long)); n > maxTitle || n < maxTitle-10 || !strings.HasSuffix(long, "…") {
		t.Fatalf("long title %q (%d runes)", long, n)
	}
}

func BenchmarkAppendDeltaLongReply(b *testing.B) {
	c := New(Options{Listeners: []Listener{ListenerFunc(func(Change) {})}})
	c.AddUser("q", nil)
	id, _ := c.StartReply("m")
	c.AppendDelta(id, strings.Repeat("x", 100<<10))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.AppendDelta(id, "abcd")
	}
}

// TestEditingTheFirstMessageRetitles: the title is made from the first
// message, so editing that message (edit and resend) makes it again; editing
// a later message, or a title set with SetTitle, leaves it alone.
func TestEditingTheFirstMessageRetitles(t *testing.T) {
	rec := &recorded{}
	c := New(Options{ID: "c", Listeners: []Listener{rec}})
	c.AddUser("frist question", nil)
	r, _ := c.StartReply("m")
	c.Finish(r, "stop", nil)
	if c.Title() != "frist question" {
		t.Fatalf("title %q", c.Title())
	}
	if _, err := c.Begin(&UserInput{Text: "first question", EditOf: 1}, TurnOptions{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	if c.Title() != "first question" {
		t.Fatalf("title after editing the first message: %q", c.Title())
	}
	// Listeners learn the new title with the new message, which opens the
	// conversation beside the first one.
	last := rec.changes[len(rec.changes)-2]
	if last.Kind != ChangeAppend || last.Title != "first question" || last.Message.Text != "first question" ||
		last.Message.Parent != 0 || last.Message.AltIndex != 1 || last.Message.AltCount != 2 {
		t.Fatalf("change of the edit %+v", last)
	}
	// A later message: the title stays.
	c.Finish(c.Leaf(), "stop", nil)
	c.AddUser("second", nil)
	if _, err := c.Begin(&UserInput{Text: "second, edited", Replace: true}, TurnOptions{Model: "m"}); err != nil || c.Title() != "first question" {
		t.Fatalf("title after editing the second message: %q (%v)", c.Title(), err)
	}
	// A title given by name is kept whatever is edited.
	c2 := New(Options{})
	c2.AddUser("draft", nil)
	c2.SetTitle("My topic")
	c2.Begin(&UserInput{Text: "final", Replace: true}, TurnOptions{Model: "m"})
	if c2.Title() != "My topic" {
		t.Fatalf("named title replaced: %q", c2.Title())
	}
}

func TestSystemPromptIsTheConversations(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Listeners: []Listener{rec}, SystemPrompt: "one"})
	c.AddUser("hi", nil)
	first := c.BuildRequest(RequestOptions{})
	if first.Messages[0].Role != api.RoleSystem || first.Messages[0].Content.Text != "one" {
		t.Fatalf("first request %+v", first.Messages)
	}
	c.SetSystemPrompt("two")
	c.SetSystemPrompt("two") // unchanged: no change reported
	if c.SystemPrompt() != "two" {
		t.Fatalf("SystemPrompt() = %q", c.SystemPrompt())
	}
	if k := rec.kinds(); !reflect.DeepEqual(k, []ChangeKind{ChangeAppend, ChangeSystem}) || rec.changes[1].SystemPrompt != "two" {
		t.Fatalf("changes %v / %+v", k, rec.changes)
	}
	if m := c.BuildRequest(RequestOptions{}).Messages[0]; m.Content.Text != "two" {
		t.Fatalf("system message %q", m.Content.Text)
	}
	// The caller's prompt, when given, wins.
	if m := c.BuildRequest(RequestOptions{SystemPrompt: "override"}).Messages[0]; m.Content.Text != "override" {
		t.Fatalf("system message %q", m.Content.Text)
	}
	c.SetSystemPrompt("")
	if m := c.BuildRequest(RequestOptions{}).Messages; len(m) != 1 || m[0].Role != api.RoleUser {
		t.Fatalf("without a prompt: %+v", m)
	}
}
