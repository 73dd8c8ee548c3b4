package e2e

import (
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestReasoningShownApart is issue 17's reasoning in the real binary, for
// each way gateways send it: the thinking streams apart from the answer,
// folds to one line when the answer is done, ctrl+t shows it whole, and
// the next request carries none of it.
func TestReasoningShownApart(t *testing.T) {
	t.Parallel()
	for _, way := range []string{apitest.ReasoningContent, apitest.ReasoningField, apitest.ReasoningThink} {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			gw := apitest.New(t)
			gw.Enqueue(apitest.Reply{
				Reasoning:   "First weigh List<String> against arrays.\nThen count the cases.",
				ReasoningAs: way,
				Text:        "The answer is forty-two.",
				DeltaRunes:  6,
				Interval:    40 * time.Millisecond,
			})
			tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30})
			tm.waitText(composerReady)
			tm.send("think first")
			tm.waitText("Thinking…")
			s := waitReply(tm, "The answer is forty-two.", "Thought for")
			if strings.Contains(s, "weigh List<String>") || strings.Contains(s, "<think>") {
				t.Fatalf("the thinking is not folded apart from the answer:\n%s", frame(s))
			}
			tm.keys("C-t")
			s = tm.waitText("First weigh List<String> against arrays.", "Then count the cases.")
			if !strings.Contains(s, "The answer is forty-two.") {
				t.Fatalf("the answer went away when the thinking opened:\n%s", frame(s))
			}
			tm.keys("C-t")
			tm.waitGone("weigh List<String>")

			tm.send("and now?")
			tm.waitText("You said: and now?")
			for _, msg := range chatRequests(gw)[1].Chat.Messages {
				text := msg.Content.Text
				for _, p := range msg.Content.Parts {
					text += p.Text
				}
				if strings.Contains(text, "weigh") || strings.Contains(text, "think>") {
					t.Fatalf("the next request carries the thinking: %s %q", msg.Role, text)
				}
			}
		})
	}
}
