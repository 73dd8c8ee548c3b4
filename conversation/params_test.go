package conversation

import (
	"context"
	"testing"

	"parley/api"
	"parley/api/apitest"
)

// The turn's request carries the merged parameters, max_tokens under the
// name the catalog gives the model, and they reach the gateway.
func TestTurnSendsParams(t *testing.T) {
	gw := apitest.New(t, apitest.WithModels(apitest.ModelSpec{ID: "reasoner", MaxCompletionTokens: true}, apitest.ModelSpec{ID: "plain"}))
	client, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	cat := api.NewCatalog([]api.Model{{Name: "reasoner", Caps: api.Capabilities{MaxTokensField: api.MaxCompletionTokens}}})
	temp, _ := api.ParseParam("temperature", "0.4")
	limit, _ := api.ParseParam("max_tokens", "99")
	params, sources := api.MergeParams(api.ParamLayer{Source: "/set", Clear: "/set %s --clear", Params: temp.With(limit)})

	c := New(Options{})
	for _, model := range []string{"reasoner", "plain"} {
		turn, err := c.Begin(&UserInput{Text: "hi"}, TurnOptions{Model: model, Catalog: cat, Params: params, ParamSources: sources})
		if err != nil {
			t.Fatal(err)
		}
		if len(turn.Chat.ParamSources) != 2 {
			t.Fatalf("sources %+v", turn.Chat.ParamSources)
		}
		s, err := client.ChatStream(context.Background(), turn.Chat)
		if err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		for {
			ev, err := s.Recv()
			if err != nil {
				c.Close(turn, err)
				break
			}
			c.Receive(turn, ev.Text, ev.Usage, ev.FinishReason)
		}
		s.Close()
	}
	reqs := gw.RequestsTo("/chat/completions")
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	r, p := reqs[0].Chat, reqs[1].Chat
	if r.MaxTokens != nil || r.MaxCompletionTokens == nil || *r.MaxCompletionTokens != 99 || *r.Temperature != 0.4 {
		t.Fatalf("reasoner: %s", reqs[0].Body)
	}
	if p.MaxTokens == nil || *p.MaxTokens != 99 || p.MaxCompletionTokens != nil || *p.Temperature != 0.4 {
		t.Fatalf("plain: %s", reqs[1].Body)
	}
}
