package ui

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/chat"
	"parley/config"
	"parley/conversation"
)

func lastReplyMsg(h *harness) conversation.Message {
	r, _ := h.eng.Conv().LastReply()
	return r
}

func TestSendStreamsReplyIntoTranscript(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "Hello **there**, this is a streamed reply.", DeltaRunes: 3, Interval: 2 * time.Millisecond})
	h.typeText("hi parley")
	h.key("enter")
	if !h.streaming() {
		t.Fatal("not streaming after enter")
	}
	if got := h.draft(); got != "" {
		t.Errorf("composer not cleared: %q", got)
	}
	if !strings.Contains(h.screen(), "hi parley") {
		t.Errorf("user message not on screen:\n%s", h.screen())
	}
	h.wait("reply done", func() bool { return !h.streaming() })
	r := lastReplyMsg(h)
	if r.State != conversation.StateDone || r.Text != "Hello **there**, this is a streamed reply." || r.Model != "gpt-4o" {
		t.Fatalf("reply %v %q %q", r.State, r.Text, r.Model)
	}
	h.wait("render", func() bool { return strings.Contains(h.screen(), "this is a streamed reply") })
	reqs := h.srv.Requests()
	if len(reqs) != 1 || reqs[0].Chat == nil || !reqs[0].Chat.Stream {
		t.Fatalf("requests: %+v", reqs)
	}
	// gpt-4o reports usage: stream_options asked, usage shown in the status bar.
	if _, ok := reqs[0].JSON["stream_options"]; !ok {
		t.Error("stream_options missing for a usage model")
	}
	if r.Usage == nil || !strings.Contains(h.screen(), "tokens") {
		t.Errorf("usage %v not shown:\n%s", r.Usage, h.screen())
	}
	if got := h.m.View().WindowTitle; got != "hi parley — parley" {
		t.Errorf("window title %q", got)
	}
}

func TestStreamOptionsOnlyWhereSupported(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) { o.Model = "llama3" })
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.typeText("hi")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	req := h.srv.Requests()[0]
	if _, ok := req.JSON["stream_options"]; ok {
		t.Errorf("stream_options sent to a model without usage reporting: %s", req.Body)
	}
	if lastReplyMsg(h).State != conversation.StateDone {
		t.Fatalf("reply %+v", lastReplyMsg(h))
	}
}

// Deltas reach the model only on frame ticks, all that arrived since the
// previous frame at once: no message per token, no message but the tick.
func TestDeltasArriveOnFrameTicks(t *testing.T) {
	h := newHarness(t, 80, 24)
	text := strings.Repeat("token ", 400)
	h.srv.Enqueue(apitest.Reply{Text: text, DeltaRunes: 2, Interval: 200 * time.Microsecond})
	h.typeText("go")
	h.key("enter")
	start := time.Now()
	frames, grew := 0, 0
	deadline := time.After(10 * time.Second)
	for h.streaming() {
		select {
		case msg := <-h.msgs:
			before := len(lastReplyMsg(h).Text)
			h.deliver(msg)
			after := len(lastReplyMsg(h).Text)
			if _, ok := msg.(frameMsg); ok {
				frames++
				if after > before {
					grew++
				}
			} else if after != before {
				t.Fatalf("the reply grew from %d to %d bytes on a %T, not on a frame tick", before, after, msg)
			}
		case <-deadline:
			t.Fatal("stream did not end")
		}
	}
	elapsed := time.Since(start)
	if got := lastReplyMsg(h).Text; got != text {
		t.Fatalf("text lost: %d of %d bytes", len(got), len(text))
	}
	deltas := len(text) / 2
	if grew == 0 || grew > deltas/4 {
		t.Fatalf("the reply grew on %d frames for %d deltas", grew, deltas)
	}
	// One tick per frame interval (plus the first and the last).
	if limit := int(elapsed/frameInterval) + 2; frames > limit {
		t.Errorf("%d frame ticks in %v; at most %d expected at one per %v or slower", frames, elapsed, limit, frameInterval)
	}
}

func TestEscCancelsAndKeepsPartialText(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "first part of the answer and then a long stall", DeltaRunes: 5, StallAfterDeltas: 3})
	h.typeText("tell me")
	h.key("enter")
	h.wait("some text", func() bool { return strings.Contains(lastReplyMsg(h).Text, "first part of") })
	id, p := h.eng.Reply().ID, h.eng.Reply().Pump()
	h.key("esc")
	if h.streaming() {
		t.Fatal("still streaming after esc")
	}
	r := lastReplyMsg(h)
	if r.State != conversation.StateInterrupted || !strings.HasPrefix(r.Text, "first part of") {
		t.Fatalf("reply %v %q", r.State, r.Text)
	}
	if !strings.Contains(h.screen(), "stopped") {
		t.Errorf("status does not say stopped:\n%s", h.screen())
	}
	// Text that reaches the stopped stream's pump late, and a late frame
	// tick of it, change nothing.
	p.Event(api.StreamEvent{Text: " late"})
	p.End(nil)
	h.send(frameMsg{id: id})
	if got := lastReplyMsg(h); got.Text != r.Text || got.State != r.State {
		t.Errorf("late text applied: %q %v", got.Text, got.State)
	}
	h.drain()
	if got := lastReplyMsg(h).Text; got != r.Text {
		t.Errorf("text changed after cancel: %q", got)
	}
	// The interrupted reply is sent as history with the next turn.
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.typeText("go on")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	msgs := h.srv.Requests()[1].Chat.Messages
	if len(msgs) != 3 || msgs[1].Role != "assistant" || !strings.HasPrefix(msgs[1].Content.PlainText(), "first part of") {
		t.Errorf("second request messages: %+v", msgs)
	}
}

func TestCtrlCWhileStreamingCancelsOnce(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "abc def ghi", DeltaRunes: 2, StallAfterDeltas: 2})
	h.typeText("x")
	h.key("enter")
	h.wait("text", func() bool { return lastReplyMsg(h).Text != "" })
	h.key("ctrl+c")
	if h.streaming() || h.quit {
		t.Fatalf("streaming=%v quit=%v after ctrl+c", h.streaming(), h.quit)
	}
	if lastReplyMsg(h).State != conversation.StateInterrupted {
		t.Fatalf("state %v", lastReplyMsg(h).State)
	}
	if h.quit {
		t.Fatal("quit after one ctrl+c")
	}
	// The press that stopped the reply does not count towards quitting: a
	// second ctrl+c only arms it.
	if strings.Contains(h.screen(), "again to quit") {
		t.Errorf("stopping a reply asks to quit:\n%s", h.screen())
	}
	h.clock.advance(500 * time.Millisecond)
	h.key("ctrl+c")
	if h.quit || !strings.Contains(h.screen(), "press ctrl+c again to quit") {
		t.Fatalf("quit=%v after stop then ctrl+c:\n%s", h.quit, h.screen())
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.key("ctrl+c")
	if !strings.Contains(h.screen(), "press ctrl+c again to quit") {
		t.Fatalf("no toast:\n%s", h.screen())
	}
	if h.quit {
		t.Fatal("quit after one press")
	}
	// Too slow: the second press arms again instead of quitting.
	h.clock.advance(2 * time.Second)
	h.key("ctrl+c")
	if h.quit {
		t.Fatal("quit after a slow second press")
	}
	h.clock.advance(time.Second)
	h.key("ctrl+c")
	if !h.quit {
		t.Fatal("no quit after two presses within the window")
	}
}

func TestCtrlQQuitsAndStopsTheStream(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "abc def", DeltaRunes: 2, StallAfterDeltas: 1})
	h.typeText("x")
	h.key("enter")
	h.wait("text", func() bool { return lastReplyMsg(h).Text != "" })
	h.key("ctrl+q")
	if !h.quit || h.streaming() || lastReplyMsg(h).State != conversation.StateInterrupted {
		t.Fatalf("quit=%v streaming=%v state=%v", h.quit, h.streaming(), lastReplyMsg(h).State)
	}
	if h.m.View().Cursor != nil {
		t.Error("cursor still shown while quitting")
	}
}

func TestGatewayErrorInlineThenRetry(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Status: 400, ErrorMessage: "the prompt is not allowed \x1b]0;pwned\x07"})
	h.typeText("my precious question")
	h.key("enter")
	h.wait("failure", func() bool { return !h.streaming() })
	r := lastReplyMsg(h)
	if r.State != conversation.StateFailed || !strings.Contains(r.Err, "not allowed") {
		t.Fatalf("reply %v %q", r.State, r.Err)
	}
	if strings.ContainsRune(r.Err, 0x1b) {
		t.Errorf("error text not sanitised: %q", r.Err)
	}
	h.quiet()
	scr := h.screen()
	for _, want := range []string{"my precious question", "not allowed", "failed"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	// A 400 is refused again as it is: no hint invites a retry.
	if strings.Contains(scr, "ctrl+r") {
		t.Errorf("a hopeless refusal invites ctrl+r:\n%s", scr)
	}
	if strings.ContainsRune(h.m.View().Content, 0x07) || strings.Contains(h.m.View().Content, "\x1b]0;") {
		t.Error("gateway control sequence reached the screen")
	}
	// The app keeps working: retry (after a change the user made, say)
	// answers the same message.
	h.srv.Enqueue(apitest.Reply{Text: "now it works"})
	h.key("ctrl+r")
	h.wait("retry done", func() bool { return !h.streaming() })
	msgs := h.eng.Conv().Messages()
	if len(msgs) != 2 || msgs[0].Text != "my precious question" || msgs[1].Text != "now it works" || msgs[1].State != conversation.StateDone {
		t.Fatalf("conversation after retry: %+v", msgs)
	}
	h.quiet()
	if strings.Contains(h.screen(), "not allowed") {
		t.Errorf("failed reply still on screen:\n%s", h.screen())
	}
}

func TestMidStreamErrorKeepsPartialText(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "partial answer that breaks", DeltaRunes: 4, ErrorAfterDeltas: 2, ErrorMessage: "upstream overloaded"})
	h.typeText("q")
	h.key("enter")
	h.wait("end", func() bool { return !h.streaming() })
	r := lastReplyMsg(h)
	if r.State != conversation.StateFailed || r.Text != "partial " || !strings.Contains(r.Err, "overloaded") {
		t.Fatalf("reply %v %q %q", r.State, r.Text, r.Err)
	}
}

func TestCutStreamFailsWithHint(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "one two three four", DeltaRunes: 4, CutAfterDeltas: 2})
	h.typeText("q")
	h.key("enter")
	h.wait("end", func() bool { return !h.streaming() })
	r := lastReplyMsg(h)
	if r.State != conversation.StateFailed || r.Text != "one two " {
		t.Fatalf("reply %v %q %q", r.State, r.Text, r.Err)
	}
	if !strings.Contains(r.Err, "try again") {
		t.Errorf("error %q", r.Err)
	}
}

func TestRetryRegeneratesFinishedReply(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "first"}, apitest.Reply{Text: "second"})
	h.typeText("q")
	h.key("enter")
	h.wait("first", func() bool { return !h.streaming() })
	h.key("ctrl+r")
	if !h.streaming() {
		t.Fatal("retry did not start a stream")
	}
	h.wait("second", func() bool { return !h.streaming() })
	msgs := h.eng.Conv().Messages()
	if len(msgs) != 2 || msgs[1].Text != "second" {
		t.Fatalf("%+v", msgs)
	}
	// The regenerated request does not carry the replaced reply.
	if n := len(h.srv.Requests()[1].Chat.Messages); n != 1 {
		t.Errorf("regenerate request has %d messages", n)
	}
}

func TestRetryWithNothingToRetry(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.key("ctrl+r")
	if h.streaming() || !strings.Contains(h.screen(), "no message to send again") {
		t.Fatalf("screen:\n%s", h.screen())
	}
}

func TestSendWhileStreamingIsRefusedAndKeepsText(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "abc def", DeltaRunes: 2, StallAfterDeltas: 1})
	h.typeText("one")
	h.key("enter")
	h.typeText("two")
	h.key("enter")
	if h.draft() != "two" || h.eng.Conv().Len() != 2 {
		t.Fatalf("composer %q, %d messages", h.draft(), h.eng.Conv().Len())
	}
	if !strings.Contains(h.screen(), "still streaming") {
		t.Errorf("no toast:\n%s", h.screen())
	}
	h.key("esc")
}

func TestMultiTurnSystemPromptAndTrimming(t *testing.T) {
	cfg := &config.Config{SystemPrompt: "be brief", MaxHistoryMessages: 3}
	h := newHarness(t, 80, 24, func(o *Options) { o.Config = cfg })
	for i, q := range []string{"one", "two", "three"} {
		h.srv.Enqueue(apitest.Reply{Text: "answer " + q})
		h.typeText(q)
		h.key("enter")
		h.wait("reply", func() bool { return !h.streaming() })
		msgs := h.srv.Requests()[i].Chat.Messages
		if len(msgs) == 0 {
			t.Fatalf("turn %d: request %s", i, h.srv.Requests()[i].Body)
		}
		if msgs[0].Role != "system" || msgs[0].Content.PlainText() != "be brief" {
			t.Fatalf("turn %d: first message %+v", i, msgs[0])
		}
		if last := msgs[len(msgs)-1]; last.Role != "user" || last.Content.PlainText() != q {
			t.Fatalf("turn %d: last message %+v", i, last)
		}
	}
	// Third turn: 5 messages of history, 3 allowed: "one" and its answer
	// are left out.
	msgs := h.srv.Requests()[2].Chat.Messages
	if len(msgs) != 4 || msgs[1].Content.PlainText() != "two" || msgs[3].Content.PlainText() != "three" {
		t.Errorf("trimmed request: %+v", msgs)
	}
	h.quiet()
	if !strings.Contains(h.screen(), "2 older not sent") {
		t.Errorf("no trim marker:\n%s", h.screen())
	}
	// Second turn carried the whole conversation so far.
	if n := len(h.srv.Requests()[1].Chat.Messages); n != 4 {
		t.Errorf("second request: %d messages", n)
	}
}

func TestNoClientKeepsComposer(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) {
		o.NewClient = func(string) (*api.Client, error) {
			return nil, errBadKey
		}
	})
	h.typeText("keep me")
	h.key("enter")
	h.wait("refusal", func() bool { return h.eng.Waiting() == chat.WaitNone })
	if h.draft() != "keep me" || h.eng.Conv().Len() != 0 || len(h.srv.Requests()) != 0 {
		t.Fatalf("composer %q, %d messages", h.draft(), h.eng.Conv().Len())
	}
	scr := h.screen()
	if !strings.Contains(scr, "API key") || strings.ContainsRune(h.m.View().Content, 0x07) {
		t.Errorf("toast:\n%s", scr)
	}
}

func TestFrameTickStopsWithStream(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "short"})
	h.typeText("x")
	h.key("enter")
	id := h.eng.Reply().ID
	h.wait("done", func() bool { return !h.streaming() })
	// A frame tick arriving after the end asks for no further tick.
	_, cmd := h.m.Update(frameMsg{id: id})
	if cmd != nil {
		t.Error("frame tick continues after the stream ended")
	}
}

// listenerFunc adapts a function to a conversation.Listener.
type listenerFunc func(conversation.Change)

func (f listenerFunc) OnChange(c conversation.Change) { f(c) }

// TestListenerSeesEveryChange: a listener of the conversation (where the
// sessions store plugs in) hears of every change the chat makes, in order,
// with the final text of each reply.
func TestListenerSeesEveryChange(t *testing.T) {
	var mu sync.Mutex
	var changes []conversation.Change
	rec := listenerFunc(func(c conversation.Change) {
		mu.Lock()
		defer mu.Unlock()
		changes = append(changes, c)
	})
	h := newHarness(t, 80, 24, func(o *Options) { o.Listener = rec })
	replyWith(t, h, "first answer")
	h.srv.Enqueue(apitest.Reply{Text: "second answer"})
	h.key("ctrl+r")
	h.wait("retry", func() bool { return !h.streaming() })
	h.key("up")
	h.key("ctrl+e")
	h.typeText(" edited")
	h.srv.Enqueue(apitest.Reply{Text: "third answer"})
	h.key("enter")
	h.wait("resend", func() bool { return !h.streaming() })

	mu.Lock()
	var got []string
	for _, c := range changes {
		switch c.Kind {
		case conversation.ChangeAppend:
			got = append(got, "append "+c.Message.Role+" "+c.Message.Text)
		case conversation.ChangeUpdate:
			got = append(got, "update "+c.Message.State.String()+" "+c.Message.Text)
		case conversation.ChangeRemove:
			got = append(got, fmt.Sprintf("remove %d", len(c.Removed)))
		case conversation.ChangeTitle:
			got = append(got, "title "+c.Title)
		}
	}
	mu.Unlock()
	// A regenerated reply and an edit make new branches: the earlier
	// ones stay, nothing is removed.
	want := []string{
		"append user q", "append assistant ", "update done first answer",
		"append assistant ", "update done second answer",
		"append user q edited", "append assistant ", "update done third answer",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("recorded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A reply past the client's cap (max_reply_bytes) stops at the cap, says
// so, keeps the text up to it, and the chat goes on.
func TestReplyCapThroughTheChat(t *testing.T) {
	const limit = 8 << 10
	gw := apitest.New(t)
	h := newHarness(t, 100, 30, func(o *Options) {
		o.NewClient = func(string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey, UserAgent: "parley/test", MaxReplyBytes: limit})
		}
	})
	// 200 times the cap, in deltas of 1 KB.
	gw.Enqueue(apitest.Reply{Text: strings.Repeat("a long line of reply text. ", 200*limit/27), DeltaRunes: 1 << 10})
	h.typeText("say a lot")
	h.key("enter")
	h.wait("the capped reply", func() bool { return !h.streaming() })
	h.quiet()
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(flat, "the reply is larger than 8.2 KB (max_reply_bytes); the text so far is kept") {
		t.Fatalf("the cap is not said:\n%s", h.screen())
	}
	last, _ := h.eng.Conv().LastReply()
	if n := len(last.Text); n > limit || n < limit-(1<<10) {
		t.Fatalf("the reply kept %d bytes, want about the cap of %d", n, limit)
	}
	if !strings.HasPrefix(last.Text, "a long line of reply text. ") {
		t.Fatalf("the reply kept is not the start of what came: %.40q", last.Text)
	}
	// The chat goes on: the next message is sent and answered.
	gw.Enqueue(apitest.Reply{Text: "a short answer"})
	h.typeText("and briefly?")
	h.key("enter")
	h.wait("the next reply", func() bool { return !h.streaming() })
	h.quiet()
	if last, _ := h.eng.Conv().LastReply(); last.Text != "a short answer" {
		t.Fatalf("the next reply is %.40q", last.Text)
	}
	if !strings.Contains(h.screen(), "a short answer") {
		t.Fatalf("the next reply is not shown:\n%s", h.screen())
	}
}
