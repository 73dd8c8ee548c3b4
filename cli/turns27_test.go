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
