package ui

import (
	"strings"
	"testing"

	"parley/api"
	"parley/api/apitest"
)

// R on a reply opens the model picker; the model chosen answers the
// reply's question again, as an alternative, and the chat's model stays.
func TestRegenerateWithAnotherModel(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.ask("question", "answer of gpt-4o")
	h.key("esc")
	h.key("R")
	h.wait("the model picker", func() bool { return h.m.layerName() == "models" })
	h.srv.Enqueue(apitest.Reply{Path: "/chat/completions", Text: "answer of llama3"})
	h.typeText("llama3")
	h.key("enter")
	h.wait("the reply of llama3", func() bool {
		last, _ := h.eng.Conv().LastReply()
		return last.Text == "answer of llama3" && !h.streaming()
	})
	h.quiet()
	last, _ := h.eng.Conv().LastReply()
	if last.Model != "llama3" || last.AltIndex != 1 || last.AltCount != 2 {
		t.Fatalf("the new reply: model %q, %d/%d", last.Model, last.AltIndex+1, last.AltCount)
	}
	if h.eng.Model() != "gpt-4o" {
		t.Fatalf("the chat's model became %q", h.eng.Model())
	}
	reqs := h.srv.RequestsTo("/chat/completions")
	if got := reqs[len(reqs)-1].Chat; got.Model != "llama3" || len(got.Messages) != 1 || got.Messages[0].Content.Text != "question" {
		t.Fatalf("the request: %s", reqs[len(reqs)-1].Body)
	}
	if !strings.Contains(h.screen(), "‹ 2/2 ›") {
		t.Fatalf("no 2/2 on the new reply:\n%s", h.screen())
	}
}

// r on a reply while the chat's model's client is still being built
// (api_key_cmd can take seconds) answers once it is built, as R does;
// it does not ask for r again.
func TestRegenerateWaitsForTheClient(t *testing.T) {
	gate := make(chan struct{})
	h := newHarness(t, 100, 30, func(o *Options) {
		build := o.NewClient
		o.NewClient = func(model string) (*api.Client, error) {
			if model == "llama3" {
				<-gate
			}
			return build(model)
		}
	})
	h.ask("question", "answer of gpt-4o")
	h.typeText("/model llama3")
	h.key("enter")
	h.key("esc") // the model's notice goes
	h.key("esc")
	if h.focusOn() != focusMessages {
		t.Fatal("esc did not select the reply")
	}
	h.srv.Enqueue(apitest.Reply{Path: "/chat/completions", Text: "answer of llama3"})
	h.key("r")
	close(gate)
	h.wait("the reply of llama3", func() bool {
		last, _ := h.eng.Conv().LastReply()
		return last.Text == "answer of llama3" && !h.streaming()
	})
	if last, _ := h.eng.Conv().LastReply(); last.AltIndex != 1 || last.AltCount != 2 {
		t.Fatalf("the new reply is %d/%d, want 2/2", last.AltIndex+1, last.AltCount)
	}
}
