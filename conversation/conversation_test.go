package conversation

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"parley/api"
)

// recorded collects the changes a conversation reports.
type recorded struct{ changes []Change }

func (r *recorded) Record(c Change) error {
	r.changes = append(r.changes, c)
	return nil
}

func (r *recorded) kinds() []ChangeKind {
	var k []ChangeKind
	for _, c := range r.changes {
		k = append(k, c.Kind)
	}
	return k
}

func TestTurnLifecycleIsRecorded(t *testing.T) {
	rec := &recorded{}
	c := New(Options{ID: "c1", Recorder: rec})
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
	want := []ChangeKind{ChangeAppend, ChangeAppend, ChangeUpdate}
	if !reflect.DeepEqual(rec.kinds(), want) {
		t.Fatalf("changes = %v, want %v (deltas are not recorded one by one)", rec.kinds(), want)
	}
	last := rec.changes[2]
	if last.ConversationID != "c1" || last.Message.Text != "Go is a language." {
		t.Fatalf("final change = %+v", last)
	}
}

func TestLateDeltasOfAnEndedReplyAreIgnored(t *testing.T) {
	c := New(Options{})
	c.AddUser("q", nil)
	rid, _ := c.StartReply("m")
	c.AppendDelta(rid, "part")
	if err := c.Interrupt(rid); err != nil {
		t.Fatal(err)
	}
	if c.AppendDelta(rid, " more") {
		t.Fatal("a delta after the interrupt was accepted")
	}
	m, _ := c.ByID(rid)
	if m.Text != "part" || m.State != StateInterrupted {
		t.Fatalf("reply = %+v", m)
	}
	// A second end is a no-op, not a state change.
	if err := c.Fail(rid, "boom"); err != nil || c.At(1).State != StateInterrupted {
		t.Fatalf("Fail after Interrupt: %v, state %v", err, c.At(1).State)
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
}

func TestPrepareRetryDropsTheLastReply(t *testing.T) {
	rec := &recorded{}
	c := New(Options{Recorder: rec})
	if _, err := c.PrepareRetry(); !errors.Is(err, ErrNothingToRetry) {
		t.Fatalf("empty conversation: %v", err)
	}
	c.AddUser("one", nil)
	r1, _ := c.StartReply("m")
	c.Fail(r1, "500")
	u, err := c.PrepareRetry()
	if err != nil || u.Text != "one" || c.Len() != 1 {
		t.Fatalf("PrepareRetry = %+v, %v; len %d", u, err, c.Len())
	}
	last := rec.changes[len(rec.changes)-1]
	if last.Kind != ChangeRemove || !reflect.DeepEqual(last.Removed, []int{r1}) {
		t.Fatalf("last change = %+v", last)
	}
	// With no reply after the user message, retry keeps everything.
	if _, err := c.PrepareRetry(); err != nil || c.Len() != 1 {
		t.Fatalf("second PrepareRetry: %v, len %d", err, c.Len())
	}
}

func TestReplaceLastUserDropsItsReply(t *testing.T) {
	c := New(Options{})
	c.AddUser("first", nil)
	r, _ := c.StartReply("m")
	c.Finish(r, "stop", nil)
	c.AddUser("second", nil)
	r2, _ := c.StartReply("m")
	c.Finish(r2, "stop", nil)
	id, err := c.ReplaceLastUser("second, edited", nil)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range c.Messages() {
		texts = append(texts, m.Text)
	}
	if !reflect.DeepEqual(texts, []string{"first", "", "second, edited"}) || c.At(2).ID != id {
		t.Fatalf("messages = %q", texts)
	}
}

func TestBuildRequestCarriesTheWholeConversation(t *testing.T) {
	c := New(Options{})
	img := api.Attachment{Name: "a.png", URL: "data:image/png;base64,AAAA", MIME: "image/png"}
	c.AddUser("look", []api.Attachment{img})
	r1, _ := c.StartReply("m")
	c.AppendDelta(r1, "a cat")
	c.Interrupt(r1)
	c.AddUser("and now?", nil)
	r2, _ := c.StartReply("m")
	c.Fail(r2, "boom") // failed with no text: not sent
	c.AddUser("hello?", nil)
	c.StartReply("m") // in flight: not sent

	req := c.BuildRequest(RequestOptions{SystemPrompt: "be kind"})
	var got []string
	for _, m := range req.Messages {
		got = append(got, m.Role+":"+m.Content.PlainText())
	}
	// The failed turn left two user messages next to each other: they
	// travel as one, so gateways that need alternating roles accept it.
	want := []string{"system:be kind", "user:look", "assistant:a cat", "user:and now?\n\nhello?"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("messages = %q, want %q", got, want)
	}
	parts := req.Messages[1].Content.Parts
	if !req.HasImages || len(parts) != 2 || parts[1].ImageURL.URL != img.URL {
		t.Fatalf("image not carried: %+v", req.Messages[1])
	}
}

func TestBuildRequestTrimsOldestTurns(t *testing.T) {
	c := New(Options{})
	for i := 0; i < 4; i++ {
		c.AddUser(strings.Repeat("u", i+1), nil)
		r, _ := c.StartReply("m")
		c.AppendDelta(r, strings.Repeat("a", i+1))
		c.Finish(r, "stop", nil)
	}
	req := c.BuildRequest(RequestOptions{SystemPrompt: "sys", MaxHistory: 3})
	// 8 messages, keep 3 -> would start with a reply, so it starts at the
	// next user message instead.
	var got []string
	for _, m := range req.Messages {
		got = append(got, m.Role+":"+m.Content.PlainText())
	}
	want := []string{"system:sys", "user:uuuu", "assistant:aaaa"}
	if !reflect.DeepEqual(got, want) || req.Trimmed != 6 {
		t.Fatalf("messages = %q trimmed %d, want %q trimmed 6", got, req.Trimmed, want)
	}
	if all := c.BuildRequest(RequestOptions{}); all.Trimmed != 0 || len(all.Messages) != 8 {
		t.Fatalf("unlimited: %d messages, trimmed %d", len(all.Messages), all.Trimmed)
	}
}

func TestMakeTitle(t *testing.T) {
	if got := MakeTitle("  hello\n\tworld  "); got != "hello world" {
		t.Fatalf("got %q", got)
	}
	long := MakeTitle(strings.Repeat("word ", 40))
	if n := len([]rune(long)); n > 60 || !strings.HasSuffix(long, "…") {
		t.Fatalf("long title %q (%d runes)", long, n)
	}
}

func TestRecorderErrorsReachTheCaller(t *testing.T) {
	boom := errors.New("disk full")
	c := New(Options{Recorder: RecorderFunc(func(Change) error { return boom })})
	if _, err := c.AddUser("x", nil); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if c.Len() != 1 {
		t.Fatal("the change was not kept")
	}
}

func BenchmarkAppendDeltaLongReply(b *testing.B) {
	c := New(Options{})
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
	c := New(Options{ID: "c", Recorder: rec})
	c.AddUser("frist question", nil)
	r, _ := c.StartReply("m")
	c.Finish(r, "stop", nil)
	if c.Title() != "frist question" {
		t.Fatalf("title %q", c.Title())
	}
	if _, err := c.ReplaceLastUser("first question", nil); err != nil {
		t.Fatal(err)
	}
	if c.Title() != "first question" {
		t.Fatalf("title after editing the first message: %q", c.Title())
	}
	// The recorder learns the new title with the new message.
	last := rec.changes[len(rec.changes)-1]
	if last.Kind != ChangeAppend || last.Title != "first question" || last.Message.Text != "first question" {
		t.Fatalf("last change %+v", last)
	}
	// A later message: the title stays.
	r, _ = c.StartReply("m")
	c.Finish(r, "stop", nil)
	c.AddUser("second", nil)
	if _, err := c.ReplaceLastUser("second, edited", nil); err != nil || c.Title() != "first question" {
		t.Fatalf("title after editing the second message: %q (%v)", c.Title(), err)
	}
	// A title given by name is kept whatever is edited.
	c2 := New(Options{})
	c2.AddUser("draft", nil)
	c2.SetTitle("My topic")
	c2.ReplaceLastUser("final", nil)
	if c2.Title() != "My topic" {
		t.Fatalf("named title replaced: %q", c2.Title())
	}
}

// TestRecorderErrorsDoNotSplitChanges: when the recorder fails while a
// reply is dropped (retry, edit and resend), the change is still made whole
// and its result returned with the error, so the caller can follow it.
func TestRecorderErrorsDoNotSplitChanges(t *testing.T) {
	boom := errors.New("disk full")
	fail := false
	c := New(Options{Recorder: RecorderFunc(func(Change) error {
		if fail {
			return boom
		}
		return nil
	})})
	uid, _ := c.AddUser("q", nil)
	r, _ := c.StartReply("m")
	c.Finish(r, "stop", nil)
	fail = true
	u, err := c.PrepareRetry()
	if !errors.Is(err, boom) || u.ID != uid || c.Len() != 1 {
		t.Fatalf("PrepareRetry: %+v, %v, len %d", u, err, c.Len())
	}
	fail = false
	r, _ = c.StartReply("m")
	c.Finish(r, "stop", nil)
	fail = true
	id, err := c.ReplaceLastUser("edited", nil)
	if !errors.Is(err, boom) || id == 0 || c.Len() != 1 || c.At(0).Text != "edited" {
		t.Fatalf("ReplaceLastUser: id %d, %v, len %d", id, err, c.Len())
	}
}

func TestConsecutiveUserMessagesMergeWithTheirImages(t *testing.T) {
	c := New(Options{})
	a := api.Attachment{Name: "a.png", URL: "data:image/png;base64,AAAA", MIME: "image/png"}
	b := api.Attachment{Name: "b.png", URL: "https://example.com/b.png"}
	c.AddUser("first", []api.Attachment{a})
	r, _ := c.StartReply("m")
	c.Fail(r, "404")
	c.AddUser("second", []api.Attachment{b})
	req := c.BuildRequest(RequestOptions{})
	if len(req.Messages) != 1 {
		t.Fatalf("%d messages, want 1", len(req.Messages))
	}
	var got []string
	for _, p := range req.Messages[0].Content.Parts {
		if p.Type == api.PartText {
			got = append(got, "text:"+p.Text)
		} else {
			got = append(got, "image:"+p.ImageURL.URL)
		}
	}
	want := []string{"text:first", "image:" + a.URL, "text:second", "image:" + b.URL}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parts = %q, want %q", got, want)
	}
}
