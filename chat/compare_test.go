package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
)

// compareGateway answers each model with its own text; "llama3" fails
// with HTTP 500 when fail is set; "llava" thinks before it answers.
func compareGateway(t *testing.T, fail bool) *apitest.Server {
	t.Helper()
	return apitest.New(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		switch {
		case c.Model.ID == "llama3" && fail:
			return apitest.Reply{Status: 500, Body: `{"error":{"message":"the model crashed","type":"server_error"}}`}
		case c.Model.ID == "llava":
			return apitest.Reply{Text: "answer of llava", Reasoning: "let me think", DeltaRunes: 3}
		}
		return apitest.Reply{Text: "answer of " + c.Model.ID, DeltaRunes: 3}
	}))
}

func compareEngine(t *testing.T, gw *apitest.Server, models ...string) *Engine {
	t.Helper()
	e := New(t.Context(), Options{Clients: NewClients(func(string) (*api.Client, error) {
		return api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey, Retry: api.RetryPolicy{MaxRetries: -1}})
	})})
	for _, m := range models {
		if _, err := e.Clients().Get(m); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func optsFor(models ...string) []conversation.TurnOptions {
	var out []conversation.TurnOptions
	for _, m := range models {
		out = append(out, conversation.TurnOptions{Model: m, Catalog: api.NewCatalog(nil)})
	}
	return out
}

// Three models answer one question at once: the gateway gets three
// requests with the same messages and different models, each reply keeps
// its own text and reasoning, one failing with HTTP 500 keeps its error
// and does not stop the others, and the replies are alternatives of one
// another with the path on the first.
func TestCompareRunsSeveralModelsAtOnce(t *testing.T) {
	gw := compareGateway(t, true)
	models := []string{"gpt-4o", "llama3", "llava"}
	e := compareEngine(t, gw, models...)
	rs, skipped, err := e.Compare(ask("which tea?"), optsFor(models...))
	if err != nil || len(skipped) != 0 || len(rs) != 3 {
		t.Fatalf("compare: %v, skipped %v, %d replies", err, skipped, len(rs))
	}
	if rs[0].ID != rs[2].ID || e.Reply() != rs[0] {
		t.Fatalf("ids %d %d %d, Reply %v", rs[0].ID, rs[1].ID, rs[2].ID, e.Reply())
	}
	if _, err := e.Begin(ask("again"), optsFor("gpt-4o")[0]); !errors.Is(err, ErrBusy) {
		t.Fatalf("begin during a compare: %v", err)
	}
	var ends []Ended
	e.RunAll(t.Context(), 5*time.Millisecond, func(x Ended) { ends = append(ends, x) })
	if len(ends) != 3 || e.Busy() {
		t.Fatalf("%d ends, busy %v", len(ends), e.Busy())
	}
	reqs := gw.RequestsTo("/chat/completions")
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	seen := map[string]bool{}
	first, _ := json.Marshal(reqs[0].Chat.Messages)
	for _, r := range reqs {
		seen[r.Chat.Model] = true
		if b, _ := json.Marshal(r.Chat.Messages); string(b) != string(first) {
			t.Fatalf("messages differ: %s vs %s", b, first)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("models asked %v", seen)
	}
	for i, r := range e.Group() {
		m, _ := e.Conv().ByID(r.Turn.ReplyID)
		if !r.Done || m.Model != models[i] || m.AltIndex != i || m.AltCount != 3 {
			t.Fatalf("reply %d: done %v, %+v", i, r.Done, m)
		}
		switch models[i] {
		case "llama3":
			if m.State != conversation.StateFailed || !strings.Contains(m.Err, "the model crashed") || r.Err == nil {
				t.Fatalf("failed reply: %+v, err %v", m, r.Err)
			}
		case "llava":
			if m.Text != "answer of llava" || m.Reasoning != "let me think" || r.Err != nil {
				t.Fatalf("reasoning reply: %+v", m)
			}
		default:
			if m.Text != "answer of gpt-4o" || m.State != conversation.StateDone {
				t.Fatalf("reply: %+v", m)
			}
		}
	}
	if e.Conv().Leaf() != rs[0].Turn.ReplyID {
		t.Fatalf("path ends at %d, want the first column %d", e.Conv().Leaf(), rs[0].Turn.ReplyID)
	}
}

// One column is stopped on its own; the others go on to their end.
func TestCompareStopsOneReply(t *testing.T) {
	gw := apitest.New(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		if c.Model.ID == "gpt-4o-mini" {
			return apitest.Reply{Text: strings.Repeat("slow ", 200), DeltaRunes: 5, Interval: 20 * time.Millisecond}
		}
		return apitest.Reply{Text: "quick", DeltaRunes: 5}
	}))
	e := compareEngine(t, gw, "gpt-4o", "gpt-4o-mini")
	rs, _, err := e.Compare(ask("q"), optsFor("gpt-4o", "gpt-4o-mini"))
	if err != nil {
		t.Fatal(err)
	}
	var ends []Ended
	e.RunAll(t.Context(), 5*time.Millisecond, func(x Ended) {
		ends = append(ends, x)
		if x.Reply == rs[0] && !e.StopReply(rs[1].Turn.ReplyID) {
			t.Error("the slow reply was not in flight")
		}
	})
	slow, _ := e.Conv().ByID(rs[1].Turn.ReplyID)
	quick, _ := e.Conv().ByID(rs[0].Turn.ReplyID)
	if quick.State != conversation.StateDone || quick.Text != "quick" || slow.State != conversation.StateInterrupted {
		t.Fatalf("quick %v %q, slow %v", quick.State, quick.Text, slow.State)
	}
	if !errors.Is(rs[1].Err, context.Canceled) {
		t.Fatalf("slow err %v", rs[1].Err)
	}
}

// A compare waits for every model's client, changing nothing meanwhile.
func TestCompareWaitsForEveryClient(t *testing.T) {
	gw := compareGateway(t, false)
	e := compareEngine(t, gw, "gpt-4o")
	if _, _, err := e.Compare(ask("q"), optsFor("gpt-4o", "llava")); !errors.Is(err, ErrNoClient) || e.Conv().Len() != 0 {
		t.Fatalf("err %v, %d messages", err, e.Conv().Len())
	}
}
