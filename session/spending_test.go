package session

import (
	"context"
	"testing"

	"parley/api"
	"parley/conversation"
)

// A compare's replies are stored as alternatives, each with its model and
// usage, and reopened with the active one picked; Spending sums every
// branch per model and leaves out replies without usage.
func TestCompareStoredAndSpending(t *testing.T) {
	s, _ := openStore(t, newClock())
	rec := record(t, s)
	c := conversation.New(conversation.Options{Listeners: []conversation.Listener{rec}})
	turns, _, err := c.BeginCompare(&conversation.UserInput{Text: "which?"}, []conversation.TurnOptions{{Model: "a"}, {Model: "b"}, {Model: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	c.Receive(turns[0], "from a", &api.Usage{PromptTokens: 10, CompletionTokens: 20}, "stop")
	c.Receive(turns[1], "from b", &api.Usage{PromptTokens: 30, CompletionTokens: 40}, "stop")
	c.Receive(turns[2], "from c", nil, "")
	for _, tu := range turns {
		_ = c.Close(tu, nil)
	}
	if err := c.SwitchTo(turns[1].ReplyID); err != nil {
		t.Fatal(err)
	}
	flush(t, rec)

	sess, err := s.Load(context.Background(), c.ID())
	if err != nil {
		t.Fatal(err)
	}
	back := conversation.Restore(conversation.Options{ID: c.ID()}, sess.Snapshot)
	last, _ := back.LastReply()
	if last.Text != "from b" || last.AltIndex != 1 || last.AltCount != 3 {
		t.Fatalf("reopened on %q %d/%d", last.Text, last.AltIndex+1, last.AltCount)
	}
	spent, err := s.Spending(context.Background(), []string{c.ID(), "nosuchsession"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Tokens{}
	for _, tk := range spent[c.ID()] {
		got[tk.Model] = tk
	}
	if len(spent) != 1 || len(got) != 2 || got["a"].Prompt != 10 || got["b"].Completion != 40 {
		t.Fatalf("spending %+v", spent)
	}
	cost, ok := Cost(spent[c.ID()], func(m string) *api.Price {
		if m == "b" {
			return &api.Price{Input: 1e6, Output: 1e6}
		}
		return nil
	})
	if !ok || cost != 70 {
		t.Fatalf("cost %v %v", cost, ok)
	}
}
