package ui

import (
	"strings"
	"testing"
)

// systemSent is the system message of the newest chat request ("" when
// there is none).
func systemSent(t *testing.T, h *harness) string {
	t.Helper()
	reqs := h.srv.RequestsTo("/chat/completions")
	if len(reqs) == 0 {
		t.Fatal("no chat request")
	}
	msgs := reqs[len(reqs)-1].Chat.Messages
	if len(msgs) == 0 || msgs[0].Role != "system" {
		return ""
	}
	return msgs[0].Content.PlainText()
}

// A role and a system prompt set with /system are two layers: the status
// shows both, clearing the role keeps the /system prompt, and clearing the
// /system prompt gives the role's back.
func TestRoleAndSystemPromptAreLayers(t *testing.T) {
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = configFrom(t, settingsConfig) })
	h.typeText("/role reviewer")
	h.key("enter")
	h.typeText("/system Be terse.")
	h.key("enter")
	if scr := h.screen(); !strings.Contains(scr, "◆ reviewer") || !strings.Contains(scr, "⚙ system prompt") {
		t.Fatalf("the status does not show the role and the system prompt:\n%s", scr)
	}
	h.ask("one", "ok")
	if got := systemSent(t, h); got != "Be terse." {
		t.Fatalf("system message %q, want the /system prompt", got)
	}

	h.typeText("/system --clear")
	h.key("enter")
	h.ask("two", "ok")
	if got := systemSent(t, h); got != "You review code." {
		t.Fatalf("after /system --clear the system message is %q, want the role's", got)
	}

	h.typeText("/system Be terse.")
	h.key("enter")
	h.typeText("/role --clear")
	h.key("enter")
	h.ask("three", "ok")
	if got := systemSent(t, h); got != "Be terse." {
		t.Fatalf("/role --clear removed the /system prompt: system message %q", got)
	}
	if body := lastChat(t, h); body["max_tokens"] != nil {
		t.Fatalf("the role's parameters stayed: %v", body)
	}
	if scr := h.screen(); strings.Contains(scr, "◆ reviewer") || !strings.Contains(scr, "⚙ system prompt") {
		t.Fatalf("the status after /role --clear:\n%s", scr)
	}

	// A role given after /system keeps the conversation's own prompt.
	h.typeText("/role reviewer")
	h.key("enter")
	h.ask("four", "ok")
	if got := systemSent(t, h); got != "Be terse." {
		t.Fatalf("/role replaced the /system prompt: system message %q", got)
	}
}
