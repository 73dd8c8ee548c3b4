package cli

import (
	"testing"
	"time"

	"parley/api/apitest"
)

// TestOnlyTheChatPreparesItsFirstFrame: the chat command starts the Env's
// PrepareTUI (beside reading the config and opening the history), and the
// commands that draw no chat never do: their start pays nothing for it.
func TestOnlyTheChatPreparesItsFirstFrame(t *testing.T) {
	h := newHarness(t)
	calls := make(chan string, 8)
	preparing := func(cmd string) func() { return func() { calls <- cmd } }

	h.prepare = preparing("chat")
	h.runChat(func(TUIRequest) error { return nil }, "-m", "gpt-4o").mustCode(t, 0)
	select {
	case got := <-calls:
		if got != "chat" {
			t.Fatalf("PrepareTUI ran for %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the chat did not start PrepareTUI")
	}

	h.stdoutTTY = true
	h.gw.Enqueue(apitest.Reply{Text: "hello"}) // for ask
	for _, args := range [][]string{{"--version"}, {"ask", "-m", "gpt-4o", "hi"}, {"sessions", "list"}, {"models", "--help"}} {
		h.prepare = preparing(args[0])
		h.run(nil, args...)
	}
	select {
	case got := <-calls:
		t.Fatalf("PrepareTUI ran for %q, which draws no chat", got)
	case <-time.After(100 * time.Millisecond):
	}
}
