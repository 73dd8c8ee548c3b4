package e2e

import (
	"fmt"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestMessageCursorBranches is issue 16 in the real binary: select an
// earlier question, edit it as a new branch (the request carries only the
// edit), switch back, find both branches after a restart, regenerate a
// reply keeping the first as 1/2 and send with it chosen, copy an earlier
// reply, and fork a session from a message.
func TestMessageCursorBranches(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := t.TempDir()
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home, Width: 100, Height: 40})
	tm.waitText(composerReady)
	gw.Enqueue(apitest.Reply{Text: "answer one"})
	tm.send("first question")
	waitReply(tm, "answer one")
	gw.Enqueue(apitest.Reply{Text: "answer two"})
	tm.send("second question")
	waitReply(tm, "answer two")

	tm.keys("Escape")
	tm.waitText("◀ selected", "regenerate")
	tm.keys("g", "e")
	tm.waitText("enter sends it as a new branch")
	tm.keys("C-u")
	gw.Enqueue(apitest.Reply{Text: "edited answer"})
	tm.send("edited question")
	s := waitReply(tm, "edited answer", "‹ 2/2 ›")
	if strings.Contains(s, "answer two") {
		t.Fatalf("the earlier branch is still on screen:\n%s", frame(s))
	}
	if msgs := chatRequests(gw)[2].Chat.Messages; len(msgs) != 1 || msgs[0].Content.Text != "edited question" {
		t.Fatalf("the edit's request carries %+v, want only the edited question", msgs)
	}
	selectMessages(tm)
	tm.keys("g", "Left")
	tm.waitText("answer two", "‹ 1/2 ›")
	quitChat(t, tm)

	tm = startParley(t, launch{Gateway: gw, Config: chatConfig, home: home, Width: 100, Height: 40, SetClipboard: true, args: []string{"--continue"}})
	tm.waitText("answer two", "‹ 1/2 ›")
	selectMessages(tm)
	tm.keys("g", "Right")
	tm.waitText("edited answer", "‹ 2/2 ›")
	tm.keys("Escape")
	tm.waitGone("◀ selected")

	gw.Enqueue(apitest.Reply{Text: "regenerated reply"})
	tm.keys("C-r")
	s = waitReply(tm, "regenerated reply")
	if n := strings.Count(s, "‹ 2/2 ›"); n != 2 {
		t.Fatalf("the edited question and the regenerated reply should both say 2/2 (%d do):\n%s", n, frame(s))
	}
	selectMessages(tm)
	tm.keys("Left")
	tm.waitGone("regenerated reply")
	tm.waitText("edited answer", "‹ 1/2 ›")
	tm.keys("Escape")
	tm.waitGone("◀ selected")
	gw.Enqueue(apitest.Reply{Text: "follow-up answer"})
	tm.send("follow-up")
	waitReply(tm, "follow-up answer")
	var sent []string
	for _, msg := range chatRequests(gw)[4].Chat.Messages {
		sent = append(sent, msg.Role+": "+msg.Content.Text)
	}
	if want := "user: edited question|assistant: edited answer|user: follow-up"; strings.Join(sent, "|") != want {
		t.Fatalf("after choosing the first reply the request carries %q, want %q", sent, want)
	}

	selectMessages(tm)
	tm.keys("Up", "Up")
	tm.keys("y")
	tm.waitText("message copied through the terminal (OSC 52")
	if got := newestBuffer(t, tm, 1); got != "edited answer" {
		t.Fatalf("y on the earlier reply copied %q", got)
	}

	tm.keys("f")
	tm.waitText("forked")
	tm.waitGone("follow-up answer")
	tm.keys("M-s")
	tm.waitText("Sessions · 2")
}

// selectMessages presses esc in the empty composer and waits for the
// message cursor: a key sent right after esc would reach parley as
// alt+key, as it would from a terminal.
func selectMessages(tm *term) {
	tm.t.Helper()
	tm.keys("Escape")
	tm.waitText("◀ selected")
}

// waitReply waits for texts on screen and the reply finished: the hint
// line is back to "enter send" (an esc sent while it streams would stop
// it).
func waitReply(tm *term, texts ...string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q and the reply finished", texts), func(s string) bool {
		return containsAll(s, texts...) && strings.Contains(s, "enter send")
	})
}
