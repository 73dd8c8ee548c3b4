package ui

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

// askThinking sends text and waits for a reply that thinks first, the
// thinking sent the way given (apitest.Reasoning*).
func askThinking(h *harness, text, way string) {
	h.t.Helper()
	h.srv.Enqueue(apitest.Reply{
		Reasoning:   "First weigh the lighthouse against the harbour.",
		ReasoningAs: way,
		Text:        "The answer is **forty-two**.",
	})
	h.typeText(text)
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	h.quiet()
}

// /thinking unfolds and folds the thinking, as ctrl+t does.
func TestSlashThinkingTogglesLikeCtrlT(t *testing.T) {
	h := newHarness(t, 100, 30)
	askThinking(h, "think first", apitest.ReasoningContent)
	scr := h.screen()
	if !strings.Contains(scr, "▸ Reasoning") || strings.Contains(scr, "weigh the lighthouse") {
		t.Fatalf("the thinking is not folded once the answer is done:\n%s", scr)
	}
	h.typeText("/thinking")
	h.key("enter")
	h.quiet()
	scr = h.screen()
	if !strings.Contains(scr, "weigh the lighthouse against the harbour") || !strings.Contains(scr, "▾ Reasoning") || !strings.Contains(scr, "forty-two") {
		t.Fatalf("/thinking did not show the thinking beside the answer:\n%s", scr)
	}
	h.typeText("/thinking")
	h.key("enter")
	h.quiet()
	if scr = h.screen(); strings.Contains(scr, "weigh the lighthouse") || !strings.Contains(scr, "▸ Reasoning") {
		t.Fatalf("/thinking again did not fold it:\n%s", scr)
	}
	// ctrl+t is the same switch: it opens what /thinking folded.
	h.key("ctrl+t")
	h.quiet()
	if !strings.Contains(h.screen(), "weigh the lighthouse") {
		t.Fatalf("ctrl+t after /thinking did not unfold:\n%s", h.screen())
	}
}

// ctrl+y copies the answer of a reply that thought first, never its
// thinking: to the desktop clipboard and by OSC 52 alike. The thinking
// comes in <think> at the start of the content, the way most likely to
// leak into the text.
func TestCopyReplyLeavesTheThinkingOut(t *testing.T) {
	h := newHarness(t, 100, 30)
	askThinking(h, "think first", apitest.ReasoningThink)
	h.key("ctrl+y")
	h.wait("the copy", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.clipboard) == 1 && len(h.osc52) == 1
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, got := range []string{h.clipboard[0], h.osc52[0]} {
		if strings.TrimSpace(got) != "The answer is **forty-two**." {
			t.Fatalf("ctrl+y copied %q, want the answer alone", got)
		}
	}
}
