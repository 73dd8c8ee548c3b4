package cli

import (
	"context"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/conversation"
)

// TestAskReasoningOnlyReplyKeepsItsTurn: a reply whose <think> never
// closes is all reasoning, no text, and finished (stop). The next
// --continue still asks that question, and says nothing about a failure.
func TestAskReasoningOnlyReplyKeepsItsTurn(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "first"})
	h.run(nil, "ask", "-m", "gpt-4o", "hello").mustCode(t, 0)
	h.gw.Enqueue(apitest.Reply{Text: "<think>" + strings.Repeat("pondering ", 100)})
	h.run(nil, "ask", "--continue", "think hard").mustCode(t, 0)
	h.gw.Enqueue(apitest.Reply{Text: "4"})
	r := h.run(nil, "ask", "--continue", "and now?")
	r.mustCode(t, 0)
	if strings.Contains(r.stderr, "not sent again") || strings.Contains(r.stderr, "failed") {
		t.Fatalf("stderr %q", r.stderr)
	}
	req, _ := h.gw.LastRequest()
	var sent []string
	for _, m := range req.Chat.Messages {
		sent = append(sent, m.Role+":"+m.Content.PlainText())
	}
	if got := strings.Join(sent, "|"); got != "user:hello|assistant:first|user:think hard|user:and now?" {
		t.Fatalf("sent %q", got)
	}
	got, err := h.store().Load(context.Background(), h.sessions()[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if m := got.Snapshot.Messages[3]; m.State != conversation.StateDone || m.Text != "" || len(m.Reasoning) < 990 {
		t.Fatalf("the reasoning-only reply stored as %v with text %q and %d bytes of reasoning", m.State, m.Text, len(m.Reasoning))
	}
}

// TestAskReasoningOnlyReplySaysSo: a reply of reasoning alone writes
// nothing to stdout (not a blank line) and says on stderr that there was
// no answer, and where the reasoning goes.
func TestAskReasoningOnlyReplySaysSo(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "<think>" + strings.Repeat("pondering ", 99) + "pondering"})
	r := h.run(nil, "ask", "-m", "gpt-4o", "think hard")
	r.mustCode(t, 0)
	if r.stdout != "" {
		t.Fatalf("stdout %q, want nothing", r.stdout)
	}
	if want := "parley: The model finished without an answer: it sent only its reasoning (999 bytes), which goes to stderr with --reasoning.\n"; r.stderr != want {
		t.Fatalf("stderr %q, want %q", r.stderr, want)
	}
	h.gw.Enqueue(apitest.Reply{Text: "<think>" + strings.Repeat("pondering ", 99) + "pondering"})
	r = h.run(nil, "ask", "-m", "gpt-4o", "--reasoning", "think hard")
	r.mustCode(t, 0)
	if !strings.HasPrefix(r.stderr, "pondering") || !strings.HasSuffix(r.stderr, "parley: The model finished without an answer: it sent only its reasoning, shown above.\n") {
		t.Fatalf("stderr %q", r.stderr)
	}
	h.gw.Enqueue(apitest.Reply{Deltas: []string{}})
	r = h.run(nil, "ask", "-m", "gpt-4o", "say nothing")
	r.mustCode(t, 0)
	if r.stdout != "" || r.stderr != "parley: The model finished without an answer: it sent no text.\n" {
		t.Fatalf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
}
