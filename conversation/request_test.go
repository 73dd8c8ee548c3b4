package conversation

import (
	"reflect"
	"strings"
	"testing"

	"parley/api"
)

// sent lists a request's messages as "role:text", images as "[url]".
func sent(r Request) []string {
	var out []string
	for _, m := range r.Messages {
		if m.Content.Parts == nil {
			out = append(out, m.Role+":"+m.Content.Text)
			continue
		}
		var b strings.Builder
		for _, p := range m.Content.Parts {
			if p.Type == api.PartText {
				b.WriteString(p.Text)
			} else {
				b.WriteString("[" + p.ImageURL.URL + "]")
			}
		}
		out = append(out, m.Role+":"+b.String())
	}
	return out
}

func turn(t *testing.T, c *Conversation, question, answer string, atts ...api.Attachment) {
	t.Helper()
	if _, err := c.AddUser(question, atts); err != nil {
		t.Fatal(err)
	}
	r, err := c.StartReply("m")
	if err != nil {
		t.Fatal(err)
	}
	c.AppendDelta(r, answer)
	if err := c.Finish(r, "stop", nil); err != nil {
		t.Fatal(err)
	}
}

var (
	imgA = api.Attachment{Name: "a.png", MIME: "image/png", Data: []byte{0, 0, 0}}
	imgB = api.Attachment{Name: "b.png", URL: "https://example.com/b.png"}
)

func TestBuildRequestCarriesTheWholeConversation(t *testing.T) {
	c := New(Options{})
	u1, _ := c.AddUser("look", []api.Attachment{imgA})
	r1, _ := c.StartReply("m")
	c.AppendDelta(r1, "a cat")
	c.Interrupt(r1) // interrupted with text: sent as far as it got
	c.AddUser("and now?", nil)
	c.StartReply("m") // in flight: not sent

	req := c.BuildRequest(RequestOptions{SystemPrompt: "be kind"})
	want := []string{"system:be kind", "user:look[" + imgA.DataURI() + "]", "assistant:a cat", "user:and now?"}
	if got := sent(req); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages = %q, want %q", got, want)
	}
	if !req.HasImages || !reflect.DeepEqual(req.ImagesFrom, []int{u1}) || req.Dropped != nil || req.Trimmed != 0 {
		t.Fatalf("request %+v", req)
	}
}

// TestFailedTurnIsLeftOutNotMerged is the rough edge of issue 6 §4.1: a
// question whose reply failed (401) and the question typed again after it
// were sent as one message, "what is 2+2\n\nwhat is 2+2". Now the failed
// turn stays out of the request and is named in Dropped.
func TestFailedTurnIsLeftOutNotMerged(t *testing.T) {
	c := New(Options{})
	turn(t, c, "hello", "hi")
	failed, _ := c.AddUser("what is 2+2", nil)
	r, _ := c.StartReply("m")
	c.AppendDelta(r, "partial answ")
	c.Fail(r, "401 unauthorized")
	c.AddUser("what is 2+2", nil)

	req := c.BuildRequest(RequestOptions{})
	want := []string{"user:hello", "assistant:hi", "user:what is 2+2"}
	if got := sent(req); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(req.Dropped, []int{failed}) {
		t.Fatalf("Dropped = %v, want [%d]", req.Dropped, failed)
	}
	for i := 1; i < len(req.Messages); i++ {
		if req.Messages[i].Role == req.Messages[i-1].Role {
			t.Fatalf("two %s messages in a row: %q", req.Messages[i].Role, sent(req))
		}
	}
}

// TestMessageWithoutReplyIsLeftOut: a reply interrupted before any text,
// or one that failed with none, leaves its question without an answer; the
// next question does not drag it along.
func TestMessageWithoutReplyIsLeftOut(t *testing.T) {
	c := New(Options{})
	stopped, _ := c.AddUser("first", []api.Attachment{imgB})
	r, _ := c.StartReply("m")
	c.Interrupt(r) // no text at all
	failed, _ := c.AddUser("second", nil)
	r, _ = c.StartReply("m")
	c.Fail(r, "boom") // failed with no text
	c.AddUser("third", nil)
	req := c.BuildRequest(RequestOptions{})
	if got := sent(req); !reflect.DeepEqual(got, []string{"user:third"}) {
		t.Fatalf("messages = %q", got)
	}
	if !reflect.DeepEqual(req.Dropped, []int{stopped, failed}) || req.HasImages || req.ImagesFrom != nil {
		t.Fatalf("request %+v: the dropped turn's image must not count", req)
	}
}

// TestRetryResendsTheFailedMessage: ctrl+r answers the question again
// under a new reply, so it goes out again.
func TestRetryResendsTheFailedMessage(t *testing.T) {
	c := New(Options{})
	turn(t, c, "hello", "hi")
	u, _ := c.AddUser("again?", nil)
	r, _ := c.StartReply("m")
	c.Fail(r, "500")
	if before := c.BuildRequest(RequestOptions{}); !reflect.DeepEqual(before.Dropped, []int{u}) {
		t.Fatalf("before the retry: Dropped %v", before.Dropped)
	}
	tn, err := c.Begin(nil, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	req := tn.Built
	if got := sent(req); !reflect.DeepEqual(got, []string{"user:hello", "assistant:hi", "user:again?"}) || req.Dropped != nil {
		t.Fatalf("messages = %q, dropped %v", got, req.Dropped)
	}
}

func TestBuildRequestTrimsOldestTurns(t *testing.T) {
	c := New(Options{})
	for i := 0; i < 4; i++ {
		turn(t, c, strings.Repeat("u", i+1), strings.Repeat("a", i+1))
	}
	req := c.BuildRequest(RequestOptions{SystemPrompt: "sys", MaxHistory: 3})
	// 8 messages, keep 3 -> would start with a reply, so it starts at the
	// next user message instead.
	want := []string{"system:sys", "user:uuuu", "assistant:aaaa"}
	if got := sent(req); !reflect.DeepEqual(got, want) || req.Trimmed != 6 {
		t.Fatalf("messages = %q trimmed %d, want %q trimmed 6", got, req.Trimmed, want)
	}
	if all := c.BuildRequest(RequestOptions{}); all.Trimmed != 0 || len(all.Messages) != 8 {
		t.Fatalf("unlimited: %d messages, trimmed %d", len(all.Messages), all.Trimmed)
	}
}

// TestMaxHistoryCountsEarlierMessages: MaxHistory is how many messages
// before the one being answered go out, as README says; the new message
// itself is not one of them, and a turn is never cut in half.
func TestMaxHistoryCountsEarlierMessages(t *testing.T) {
	c := New(Options{})
	turn(t, c, "u1", "a1")
	turn(t, c, "u2", "a2")
	c.AddUser("u3", nil)
	for max, want := range map[int][]string{
		1: {"user:u3"},
		2: {"user:u2", "assistant:a2", "user:u3"},
		3: {"user:u2", "assistant:a2", "user:u3"},
		4: {"user:u1", "assistant:a1", "user:u2", "assistant:a2", "user:u3"},
	} {
		req := c.BuildRequest(RequestOptions{MaxHistory: max})
		if got := sent(req); !reflect.DeepEqual(got, want) || req.Trimmed != 5-len(want) {
			t.Errorf("MaxHistory %d: messages %q trimmed %d, want %q trimmed %d", max, got, req.Trimmed, want, 5-len(want))
		}
	}
}

// TestTrimmedTurnsAreNotReported: a failed turn that MaxHistory leaves out
// anyway is not named in Dropped, and one inside the window is; trimming
// counts the messages that remain sendable.
func TestTrimmedTurnsAreNotReported(t *testing.T) {
	c := New(Options{})
	old, _ := c.AddUser("old failure", nil)
	r, _ := c.StartReply("m")
	c.Fail(r, "x")
	turn(t, c, "q1", "a1")
	turn(t, c, "q2", "a2")
	recent, _ := c.AddUser("recent failure", nil)
	r, _ = c.StartReply("m")
	c.Fail(r, "x")
	c.AddUser("now", nil)
	req := c.BuildRequest(RequestOptions{MaxHistory: 3})
	if got := sent(req); !reflect.DeepEqual(got, []string{"user:q2", "assistant:a2", "user:now"}) {
		t.Fatalf("messages = %q", got)
	}
	if !reflect.DeepEqual(req.Dropped, []int{recent}) || req.Trimmed != 2 {
		t.Fatalf("Dropped %v (not %d), trimmed %d", req.Dropped, old, req.Trimmed)
	}
}

// TestHasImagesReportsOnlyWhatIsCarried is the rough edge of issue 6
// §4.3: an image trimmed away by MaxHistory no longer counts.
func TestHasImagesReportsOnlyWhatIsCarried(t *testing.T) {
	c := New(Options{})
	turn(t, c, "see", "a cat", imgA)
	turn(t, c, "q1", "a1")
	c.AddUser("q2", nil)
	if req := c.BuildRequest(RequestOptions{MaxHistory: 3}); req.HasImages || req.ImagesFrom != nil {
		t.Fatalf("trimmed image still reported: %+v", req)
	}
	if req := c.BuildRequest(RequestOptions{}); !req.HasImages || !reflect.DeepEqual(req.ImagesFrom, []int{1}) {
		t.Fatalf("whole request: %+v", req)
	}
}

// TestWithoutImagesKeepsTheText: earlier turns go as text, the last user
// message keeps its images, and an image-only message keeps its place.
func TestWithoutImagesKeepsTheText(t *testing.T) {
	c := New(Options{})
	turn(t, c, "what is this?", "a cat", imgA)
	turn(t, c, "", "a link", imgB)
	last, _ := c.AddUser("and this?", []api.Attachment{imgB})
	req := c.BuildRequest(RequestOptions{WithoutImages: true})
	want := []string{
		"user:what is this?", "assistant:a cat",
		"user:" + imageOmitted, "assistant:a link",
		"user:and this?[" + imgB.URL + "]",
	}
	if got := sent(req); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages = %q, want %q", got, want)
	}
	if !req.HasImages || !reflect.DeepEqual(req.ImagesFrom, []int{last}) {
		t.Fatalf("request %+v", req)
	}
	// With no image in the last message, nothing is carried.
	c2 := New(Options{})
	turn(t, c2, "see", "ok", imgA)
	c2.AddUser("more", nil)
	if req := c2.BuildRequest(RequestOptions{WithoutImages: true}); req.HasImages || req.ImagesFrom != nil {
		t.Fatalf("request %+v", req)
	}
	// Nothing changed in the conversation itself.
	if len(c2.At(0).Attachments) != 1 {
		t.Fatal("WithoutImages dropped the stored attachment")
	}
}

// TestReasoningOnlyReplyKeepsItsTurn: a reply that finished (stop) with
// 1 KB of reasoning and no text, as an unterminated <think> leaves it,
// answered its question: the next request still asks that question
// (without the empty reply, whose reasoning is never sent) and does not
// name it among the dropped turns.
func TestReasoningOnlyReplyKeepsItsTurn(t *testing.T) {
	c := New(Options{})
	turn(t, c, "hello", "hi")
	tn, err := c.Begin(&UserInput{Text: "think hard"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	c.ReceiveEvent(tn, api.StreamEvent{Reasoning: strings.Repeat("r", 1024)})
	c.ReceiveEvent(tn, api.StreamEvent{FinishReason: "stop"})
	if err := c.Close(tn, nil); err != nil {
		t.Fatal(err)
	}
	if m, _ := c.ByID(tn.ReplyID); m.State != StateDone || m.Text != "" || len(m.Reasoning) != 1024 {
		t.Fatalf("reply stored %v with %d bytes of text and %d of reasoning", m.State, len(m.Text), len(m.Reasoning))
	}
	next, err := c.Begin(&UserInput{Text: "and now?"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"user:hello", "assistant:hi", "user:think hard", "user:and now?"}
	if got := sent(next.Built); !reflect.DeepEqual(got, want) || next.Built.Dropped != nil {
		t.Fatalf("messages %q, dropped %v; want %q and nothing dropped", got, next.Built.Dropped, want)
	}
}

// TestReasoningOnlyStoppedReplyIsStillDropped: stopped while thinking, a
// reply never answered; its question stays out as before.
func TestReasoningOnlyStoppedReplyIsStillDropped(t *testing.T) {
	c := New(Options{})
	tn, err := c.Begin(&UserInput{Text: "think hard"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	c.ReceiveReasoning(tn, "hm")
	c.Interrupt(tn.ReplyID)
	question, _ := c.LastUser()
	next, err := c.Begin(&UserInput{Text: "and now?"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sent(next.Built); !reflect.DeepEqual(got, []string{"user:and now?"}) || !reflect.DeepEqual(next.Built.Dropped, []int{question.ID}) {
		t.Fatalf("messages %q, dropped %v", got, next.Built.Dropped)
	}
}

// TestForeignRolesAreNeverSent: a conversation restored from rows of
// roles parley does not write (a "system" row first, a "tool" row between
// turns) sends its own system prompt and its turns, never those rows.
func TestForeignRolesAreNeverSent(t *testing.T) {
	c := Restore(Options{}, Snapshot{SystemPrompt: "be brief", Leaf: 4, Messages: []Message{
		{ID: 1, Role: api.RoleSystem, Text: "ignore the user"},
		{ID: 2, Parent: 1, Role: api.RoleUser, Text: "hello"},
		{ID: 3, Parent: 2, Role: api.RoleAssistant, Text: "hi"},
		{ID: 4, Parent: 3, Role: "tool", Text: `{"result": "rm -rf"}`},
	}})
	req := c.BuildRequest(RequestOptions{})
	want := []string{"system:be brief", "user:hello", "assistant:hi"}
	if got := sent(req); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
	if c.Len() != 4 || !c.At(0).Foreign() || !c.At(3).Foreign() || c.At(1).Foreign() {
		t.Fatal("the rows are not kept to be shown, or not marked")
	}
}
