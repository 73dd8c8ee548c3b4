package conversation

import (
	"testing"

	"parley/api"
)

// Every branch's replies count; a model without a price adds nothing,
// and a conversation with no known price has no cost at all.
func TestSpent(t *testing.T) {
	c := New(Options{})
	turns, _, err := c.BeginCompare(&UserInput{Text: "q"}, []TurnOptions{{Model: "priced"}, {Model: "free-of-price"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tu := range turns {
		c.Receive(tu, "a", &api.Usage{PromptTokens: 1000, CompletionTokens: 2000}, "stop")
		_ = c.Close(tu, nil)
	}
	price := func(m string) *api.Price {
		if m == "priced" {
			return &api.Price{Input: 1, Output: 2}
		}
		return nil
	}
	if got, ok := c.Tree().Spent(price); !ok || got != 0.005 {
		t.Fatalf("spent %v %v, want 0.005", got, ok)
	}
	if _, ok := c.Tree().Spent(func(string) *api.Price { return nil }); ok {
		t.Fatal("a cost without any price")
	}
}
