package ui

import (
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/conversation"
	"parley/ui/slash"
)

// /compare arms the next message for two models; the gateway's model
// list gives their prices (OpenRouter's pricing), so each column shows
// its reply's cost and the status the session's; 2 picks the second as
// the branch to go on from; the next send goes to one model again.
func TestCompareColumnsCostsAndPick(t *testing.T) {
	h := newHarness(t, 160, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/models", Body: `{"object":"list","data":[
		{"id":"gpt-4o","object":"model","pricing":{"prompt":"0.0000025","completion":"0.00001"}},
		{"id":"gpt-4o-mini","object":"model","pricing":{"prompt":"0.00000015","completion":"0.0000006"}}]}`})
	h.typeText("/compare gpt-4o gpt-4o-mini")
	h.key("enter")
	h.wait("the model list", func() bool { return h.eng.Listed() != nil })
	if !strings.Contains(h.screen(), "compare gpt-4o · gpt-4o-mini") {
		t.Fatalf("the status does not say the compare:\n%s", h.screen())
	}
	h.srv.Enqueue(apitest.Reply{Path: "/chat/completions", Text: "same answer"}, apitest.Reply{Path: "/chat/completions", Text: "same answer"})
	h.typeText("which?")
	h.key("enter")
	h.wait("both replies", func() bool { return !h.streaming() })
	h.quiet()
	scr := h.screen()
	for _, want := range []string{"▶ 1 · gpt-4o", "2 · gpt-4o-mini", "✓ done", "1–2 pick"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("missing %q:\n%s", want, scr)
		}
	}
	if n := strings.Count(scr, "$"); n < 3 {
		t.Fatalf("the columns and the status should show costs (%d $):\n%s", n, scr)
	}
	h.key("2")
	last, _ := h.eng.Conv().LastReply()
	if last.Model != "gpt-4o-mini" || last.AltIndex != 1 || last.AltCount != 2 {
		t.Fatalf("picked %q %d/%d", last.Model, last.AltIndex+1, last.AltCount)
	}
	if !strings.Contains(h.screen(), "session") || strings.Contains(h.screen(), "1–2 pick") {
		t.Fatalf("after the pick:\n%s", h.screen())
	}
	h.ask("next", "one answer")
	reqs := h.srv.RequestsTo("/chat/completions")
	if got := reqs[len(reqs)-1].Chat; got.Model != "gpt-4o" || len(reqs) != 3 {
		t.Fatalf("%d requests, the last to %q", len(reqs), got.Model)
	}
}

// A compare's refusals: too few models, one named twice.
func TestCompareCommandRefusals(t *testing.T) {
	h := newHarness(t, 100, 30)
	for _, line := range []string{"/compare gpt-4o", "/compare gpt-4o gpt-4o"} {
		h.typeText(line)
		h.key("enter")
		if status := h.region(h.lay().Status); strings.Contains(status, "compare") {
			t.Fatalf("%s armed a compare: %s", line, status)
		}
	}
	if !strings.Contains(h.screen(), "named twice") {
		t.Fatalf("no refusal:\n%s", h.screen())
	}
}

// x stops the focused column alone, the other goes on; esc stops the
// rest.
func TestCompareStopOneColumnThenAll(t *testing.T) {
	h := newHarness(t, 160, 40)
	h.typeText("/compare gpt-4o gpt-4o-mini")
	h.key("enter")
	slow := apitest.Reply{Path: "/chat/completions", Text: strings.Repeat("word ", 400), DeltaRunes: 5, Interval: 20 * time.Millisecond}
	h.srv.Enqueue(slow, slow)
	h.typeText("go slowly")
	h.key("enter")
	h.wait("both streaming", func() bool {
		return len(h.eng.Replies()) == 2 && !h.eng.Replies()[0].First.IsZero() && !h.eng.Replies()[1].First.IsZero()
	})
	// The focused column is the first, gpt-4o's.
	if !strings.Contains(h.screen(), "▶ 1 · gpt-4o ") {
		t.Fatalf("the first column is not the focused one:\n%s", h.screen())
	}
	var ids [2]int // the replies of gpt-4o's column and of gpt-4o-mini's
	for _, r := range h.eng.Replies() {
		if r.Model == "gpt-4o" {
			ids[0] = r.Turn.ReplyID
		} else {
			ids[1] = r.Turn.ReplyID
		}
	}
	h.key("x")
	first, _ := h.eng.Conv().ByID(ids[0])
	second, _ := h.eng.Conv().ByID(ids[1])
	if first.State != conversation.StateInterrupted || second.State != conversation.StateStreaming {
		t.Fatalf("after x: first %v, second %v", first.State, second.State)
	}
	h.key("esc")
	second, _ = h.eng.Conv().ByID(ids[1])
	if second.State != conversation.StateInterrupted || h.eng.Busy() {
		t.Fatalf("after esc: second %v, busy %v", second.State, h.eng.Busy())
	}
	if !strings.Contains(h.screen(), "■ stopped") {
		t.Fatalf("the columns do not say stopped:\n%s", h.screen())
	}
}

// /compare completes every word from the model list, leaving out the
// models already named, and nothing past four.
func TestCompareCompletion(t *testing.T) {
	env := commandEnv{models: []string{"gpt-4o", "gpt-4o-mini", "llama3", "llava", "qwen"}}
	got := completeCompare(t.Context(), slash.Arg{Line: "gpt-4o ll", Word: "ll", Index: 1}, env)
	var vals []string
	for _, c := range got {
		vals = append(vals, c.Value)
	}
	if strings.Join(vals, " ") != "llama3 llava" {
		t.Fatalf("completions %q", vals)
	}
	if got := completeCompare(t.Context(), slash.Arg{Line: "gpt-4o gpt-4o-mini llama3 llava ", Index: 4}, env); len(got) != 0 {
		t.Fatalf("a fifth model offered: %v", got)
	}
	if got := completeCompare(t.Context(), slash.Arg{Line: "gpt-4o ", Index: 1}, env); len(got) != 4 {
		t.Fatalf("after one model: %v", got)
	}
}
