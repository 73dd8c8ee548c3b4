package conversation

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
)

// think streams reasoning then answer into the turn and ends it as done.
func think(t *testing.T, c *Conversation, tn *Turn, reasoning, answer string) {
	t.Helper()
	c.ReceiveEvent(tn, api.StreamEvent{Reasoning: reasoning})
	c.ReceiveEvent(tn, api.StreamEvent{Text: answer, FinishReason: "stop"})
	if err := c.Close(tn, nil); err != nil {
		t.Fatal(err)
	}
}

// reasonings lists the reasoning of messages.
func reasonings(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Reasoning
	}
	return out
}

// TestReasoningPerAlternative: a regenerated reply and the reply to an
// edited question think on their own; the alternatives they stand beside
// keep their reasoning, and switching back shows it again. The reasoning
// changes of a regenerated reply place it among its alternatives.
func TestReasoningPerAlternative(t *testing.T) {
	rec := &recorded{}
	clock := newClock()
	c := New(Options{Listeners: []Listener{rec}, Now: clock.now})
	tn, err := c.Begin(&UserInput{Text: "name a colour"}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	think(t, c, tn, "warm ones first", "red")
	first := c.Leaf()

	n := len(rec.changes)
	tn, err = c.Begin(nil, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	c.ReceiveReasoning(tn, "cool ones ")
	clock.advance(1500 * time.Millisecond)
	c.ReceiveReasoning(tn, "now")
	var reasoning []Change
	for _, ch := range rec.changes[n:] {
		if ch.Kind == ChangeReasoning {
			reasoning = append(reasoning, ch)
		}
	}
	if len(reasoning) != 2 {
		t.Fatalf("%d reasoning changes, want 2", len(reasoning))
	}
	if m := reasoning[1].Message; m.Reasoning != "cool ones now" || m.Text != "" || m.AltIndex != 1 || m.AltCount != 2 || m.Parent != 1 {
		t.Fatalf("reasoning change of the regenerated reply %+v", m)
	}
	c.ReceiveEvent(tn, api.StreamEvent{Text: "blue", FinishReason: "stop"})
	if err := c.Close(tn, nil); err != nil {
		t.Fatal(err)
	}
	second := c.Leaf()
	if got := reasonings(c.Tree().Siblings(first)); !reflect.DeepEqual(got, []string{"warm ones first", "cool ones now"}) {
		t.Fatalf("alternatives think %q", got)
	}
	if r, _ := c.ByID(second); r.ThoughtFor() != 1500*time.Millisecond || r.Text != "blue" {
		t.Fatalf("second reply %q, thought for %v", r.Text, r.ThoughtFor())
	}
	if _, err := c.SwitchAlternative(second, -1); err != nil {
		t.Fatal(err)
	}
	if r, _ := c.LastReply(); r.ID != first || r.Reasoning != "warm ones first" || r.Text != "red" {
		t.Fatalf("back on the first reply: %+v", r)
	}

	// An edited question: its reply thinks anew, the old branch keeps its.
	tn, err = c.Begin(&UserInput{Text: "name a fruit", EditOf: 1}, TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	think(t, c, tn, "something sweet", "a plum")
	if got := reasonings(c.Messages()); !reflect.DeepEqual(got, []string{"", "something sweet"}) {
		t.Fatalf("path after the edit thinks %q", got)
	}
	if err := c.SwitchTo(first); err != nil {
		t.Fatal(err)
	}
	if got := reasonings(c.Messages()); !reflect.DeepEqual(got, []string{"", "warm ones first"}) {
		t.Fatalf("the first branch thinks %q", got)
	}
}

// TestRequestIsTheActivePathWithParams: through a real gateway, the
// request is exactly the active path (not the other branch), without the
// turns left out, without any reasoning, and with the conversation's
// parameters; a snapshot taken then restores all of it.
func TestRequestIsTheActivePathWithParams(t *testing.T) {
	gw := apitest.New(t)
	client, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	c := New(Options{})
	temp, _ := api.ParseParam("temperature", "0.3")
	c.SetRole("pilot")
	c.SetParams(temp)
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
			c.ReceiveEvent(tn, ev)
		}
	}
	opts := func() TurnOptions {
		p, sources := api.MergeParams(api.ParamLayer{Source: "/set", Clear: "/set %s --clear", Params: c.Params()})
		return TurnOptions{Model: "gpt-4o", Params: p, ParamSources: sources}
	}
	gw.Enqueue(
		apitest.Reply{Reasoning: "THOUGHT-1", Text: "a1", ReasoningAs: apitest.ReasoningContent},
		apitest.Reply{Reasoning: "THOUGHT-2", Text: "a2", ReasoningAs: apitest.ReasoningThink},
		apitest.Reply{Reasoning: "THOUGHT-2B", Text: "a2b", ReasoningAs: apitest.ReasoningField},
		apitest.Reply{Reasoning: "THOUGHT-3", Text: "a3", ReasoningAs: apitest.ReasoningContent},
		apitest.Reply{Text: "a4"},
	)
	stream(c.Begin(&UserInput{Text: "q1"}, opts()))
	stream(c.Begin(&UserInput{Text: "q2"}, opts()))
	a2 := c.Leaf()
	stream(c.Begin(nil, opts())) // a2b beside a2
	stream(c.Begin(&UserInput{Text: "q3"}, opts()))
	if err := c.SwitchTo(a2); err != nil { // the branch through a2, which ends there
		t.Fatal(err)
	}
	if err := c.SetExcluded(1, true); err != nil {
		t.Fatal(err)
	}
	stream(c.Begin(&UserInput{Text: "q4"}, opts()))

	last, ok := gw.LastRequest()
	if !ok {
		t.Fatal("no request reached the gateway")
	}
	var got []string
	for _, m := range last.Chat.Messages {
		got = append(got, m.Role+":"+m.Content.PlainText())
	}
	if want := []string{"user:q2", "assistant:a2", "user:q4"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sent %q, want %q", got, want)
	}
	if strings.Contains(string(last.Body), "THOUGHT") || strings.Contains(string(last.Body), "think") {
		t.Fatalf("the request carries reasoning: %s", last.Body)
	}
	if last.Chat.Temperature == nil || *last.Chat.Temperature != 0.3 {
		t.Fatalf("the request's params: %s", last.Body)
	}
	if got := reasonings(c.Messages()); !reflect.DeepEqual(got, []string{"", "THOUGHT-1", "", "THOUGHT-2", "", ""}) {
		t.Fatalf("the path thinks %q", got)
	}

	snap := c.Snapshot()
	back := Restore(Options{}, snap)
	if back.Role() != "pilot" || back.Params().Temperature == nil || *back.Params().Temperature != 0.3 || back.Leaf() != c.Leaf() {
		t.Fatalf("restored role %q, params %+v, leaf %d", back.Role(), back.Params(), back.Leaf())
	}
	if !reflect.DeepEqual(back.Messages(), c.Messages()) || !reflect.DeepEqual(back.Snapshot().Messages, snap.Messages) {
		t.Fatal("the restored tree differs")
	}
	if sib := back.Tree().Siblings(a2); len(sib) != 2 || sib[0].Reasoning != "THOUGHT-2" || sib[1].Reasoning != "THOUGHT-2B" {
		t.Fatalf("restored alternatives %+v", sib)
	}
	if got := sent(back.BuildRequest(RequestOptions{})); !reflect.DeepEqual(got, []string{"user:q2", "assistant:a2", "user:q4", "assistant:a4"}) {
		t.Fatalf("restored request %q", got)
	}
}

// TestChangeKindsOfBothFeatures: the tree's kinds come before the
// reasoning's and the settings', each with its own name.
func TestChangeKindsOfBothFeatures(t *testing.T) {
	kinds := []ChangeKind{ChangeSystem, ChangeSwitch, ChangeExclude, ChangeReasoning, ChangeSettings, ChangeTools}
	names := []string{"system", "switch", "exclude", "reasoning", "settings", "tools"}
	for i, k := range kinds {
		if k.String() != names[i] {
			t.Fatalf("%d is %q, want %q", k, k.String(), names[i])
		}
		if i > 0 && k != kinds[i-1]+1 {
			t.Fatalf("%v follows %v at %d", k, kinds[i-1], k)
		}
	}
	if (ChangeTools + 1).String() != "unknown" {
		t.Fatal("a kind after ChangeTools has a name")
	}
}
