package conversation

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
)

// stepClock is a clock that moves on by step every time it is read.
func stepClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

// Reasoning grows apart from the text, with its own change kind, and
// keeps when its first and last delta came.
func TestAppendReasoning(t *testing.T) {
	var changes []Change
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	c := New(Options{Now: func() time.Time { return now }, ProgressEvery: time.Hour})
	c.Listen(ListenerFunc(func(ch Change) { changes = append(changes, ch) }))
	turn, err := c.Begin(&UserInput{Text: "2+2?"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	changes = nil
	now = now.Add(2 * time.Second) // the time to the first token is not thinking
	c.ReceiveEvent(turn, api.StreamEvent{Reasoning: "Two and two "})
	now = now.Add(700 * time.Millisecond)
	c.ReceiveEvent(turn, api.StreamEvent{Reasoning: "make four.", Text: "4"})
	now = now.Add(time.Second)
	c.ReceiveEvent(turn, api.StreamEvent{FinishReason: "stop", Usage: &api.Usage{CompletionTokens: 9, CompletionTokensDetails: &api.TokensDetails{ReasoningTokens: 8}}})
	if err := c.Close(turn, nil); err != nil {
		t.Fatal(err)
	}
	var kinds []ChangeKind
	for _, ch := range changes {
		kinds = append(kinds, ch.Kind)
	}
	want := []ChangeKind{ChangeReasoning, ChangeReasoning, ChangeDelta, ChangeUpdate}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	if changes[1].Delta != "make four." || changes[1].Message.Reasoning != "Two and two make four." || changes[1].Message.Text != "" {
		t.Fatalf("second reasoning change %+v", changes[1])
	}
	if changes[2].Delta != "4" || changes[2].Message.Text != "4" {
		t.Fatalf("delta change %+v", changes[2])
	}
	r, _ := c.LastReply()
	if r.Text != "4" || r.Reasoning != "Two and two make four." || r.ThoughtFor() != 700*time.Millisecond || r.Usage.ReasoningTokens() != 8 {
		t.Fatalf("reply: text %q, reasoning %q, thought for %v, usage %+v", r.Text, r.Reasoning, r.ThoughtFor(), r.Usage)
	}
	if (Message{}).ThoughtFor() != 0 {
		t.Fatal("no reasoning, yet some time")
	}
	// A late delta of an ended reply changes nothing.
	if c.AppendReasoning(r.ID, "late") {
		t.Fatal("reasoning taken after the end")
	}
}

// A progress change carries the reasoning so far, so storage saves it.
func TestProgressCarriesReasoning(t *testing.T) {
	var progress []Message
	c := New(Options{Now: stepClock(ReasoningProgressEvery), ProgressEvery: time.Second})
	c.Listen(ListenerFunc(func(ch Change) {
		if ch.Kind == ChangeProgress {
			progress = append(progress, *ch.Message)
		}
	}))
	turn, _ := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
	c.ReceiveReasoning(turn, "thinking")
	if len(progress) == 0 || progress[len(progress)-1].Reasoning != "thinking" {
		t.Fatalf("progress %+v", progress)
	}
}

// Reasoning alone is reported every ReasoningProgressEvery, or once
// ReasoningProgressBytes of it wait, not every second: each save costs
// the pages it touches whatever it adds. The answer's text still is
// reported every ProgressEvery.
func TestReasoningAloneIsReportedLessOften(t *testing.T) {
	clock := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	progress := 0
	c := New(Options{Now: func() time.Time { return clock }, ProgressEvery: time.Second})
	c.Listen(ListenerFunc(func(ch Change) {
		if ch.Kind == ChangeProgress {
			progress++
		}
	}))
	turn, _ := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
	// A second less than the interval, at a pace that stays under the
	// bytes that would be reported at once: nothing reported yet.
	secs := int(ReasoningProgressEvery/time.Second) - 1
	perSecond := ReasoningProgressBytes / (secs + 1)
	for range secs {
		clock = clock.Add(time.Second)
		c.ReceiveReasoning(turn, strings.Repeat("r", perSecond))
	}
	if progress != 0 {
		t.Fatalf("%d progress reports for %d bytes of reasoning over %d s, want none before %v", progress, secs*perSecond, secs, ReasoningProgressEvery)
	}
	clock = clock.Add(time.Second)
	c.ReceiveReasoning(turn, "r")
	if progress != 1 {
		t.Fatalf("%d progress reports after %v of reasoning, want 1", progress, ReasoningProgressEvery)
	}
	clock = clock.Add(time.Second)
	c.ReceiveReasoning(turn, strings.Repeat("r", ReasoningProgressBytes))
	if progress != 2 {
		t.Fatalf("%d progress reports after %d bytes of reasoning waited, want 2", progress, ReasoningProgressBytes)
	}
	clock = clock.Add(time.Second)
	c.Receive(turn, "the answer", nil, "")
	if progress != 3 {
		t.Fatalf("%d progress reports after a second of answer text, want 3", progress)
	}
}

// The reasoning of earlier replies never goes back to the model, however
// it came; the next request holds the answers alone.
func TestReasoningIsNeverSentBack(t *testing.T) {
	for _, as := range []string{apitest.ReasoningContent, apitest.ReasoningField, apitest.ReasoningThink} {
		gw := apitest.New(t)
		client, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
		if err != nil {
			t.Fatal(err)
		}
		gw.Enqueue(apitest.Reply{Reasoning: "SECRET-THOUGHT about the question", Text: "The answer.", ReasoningAs: as})
		c := New(Options{})
		for _, q := range []string{"first", "second"} {
			turn, err := c.Begin(&UserInput{Text: q}, TurnOptions{Model: "gpt-4o"})
			if err != nil {
				t.Fatal(err)
			}
			s, err := client.ChatStream(context.Background(), turn.Chat)
			if err != nil {
				t.Fatal(err)
			}
			for {
				ev, err := s.Recv()
				if err != nil {
					if err == io.EOF {
						err = nil
					}
					c.Close(turn, err)
					break
				}
				c.ReceiveEvent(turn, ev)
			}
			s.Close()
		}
		msgs := c.Messages()
		if msgs[1].Reasoning != "SECRET-THOUGHT about the question" || msgs[1].Text != "The answer." {
			t.Fatalf("%s: first reply %q / %q", as, msgs[1].Reasoning, msgs[1].Text)
		}
		second := gw.RequestsTo("/chat/completions")[1]
		if strings.Contains(string(second.Body), "SECRET-THOUGHT") || strings.Contains(string(second.Body), "think") {
			t.Fatalf("%s: the second request carries reasoning: %s", as, second.Body)
		}
		if got := second.Chat.Messages[1].Content.Text; got != "The answer." {
			t.Fatalf("%s: the earlier reply went as %q", as, got)
		}
		for k := range second.JSON["messages"].([]any)[1].(map[string]any) {
			if k != "role" && k != "content" {
				t.Fatalf("%s: the earlier reply has a member %q", as, k)
			}
		}
		client.CloseIdleConnections()
	}
}

// The role and the /set parameters are the conversation's: every change
// carries them, and a snapshot keeps them.
func TestSettings(t *testing.T) {
	var changes []Change
	c := New(Options{})
	c.Listen(ListenerFunc(func(ch Change) { changes = append(changes, ch) }))
	p, _ := api.ParseParam("temperature", "0.3")
	c.SetRole("coder")
	c.SetParams(p)
	c.SetRole("coder") // no change
	if len(changes) != 2 || changes[0].Kind != ChangeSettings || changes[1].Role != "coder" || *changes[1].Params.Temperature != 0.3 {
		t.Fatalf("changes %+v", changes)
	}
	if c.Role() != "coder" || *c.Params().Temperature != 0.3 {
		t.Fatalf("role %q params %+v", c.Role(), c.Params())
	}
	// What Params returns is a copy.
	*c.Params().Temperature = 2
	if *c.Params().Temperature != 0.3 {
		t.Fatal("Params shares memory with the conversation")
	}
	snap := c.Snapshot()
	back := Restore(Options{}, snap)
	if back.Role() != "coder" || *back.Params().Temperature != 0.3 {
		t.Fatalf("restored role %q params %+v", back.Role(), back.Params())
	}
	c.SetParams(api.Params{})
	if !c.Params().IsZero() || changes[len(changes)-1].Params.Has("temperature") {
		t.Fatal("clearing the params")
	}
}
