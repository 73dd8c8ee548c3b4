package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// quitChat quits with ctrl+q and waits for parley to exit.
func quitChat(t *testing.T, tm *term) {
	t.Helper()
	tm.keys("C-q")
	if ex := tm.waitExit(); ex.status != 0 {
		t.Fatalf("parley exited with %d", ex.status)
	}
}

// TestContinueAfterQuitKeepsDraft: a conversation is kept when parley
// quits, and so is the half-typed next message; parley --continue shows
// both.
func TestContinueAfterQuitKeepsDraft(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := t.TempDir()
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home})
	tm.waitText(composerReady)
	tm.send("remember the lighthouse")
	tm.waitText("You said: remember the lighthouse")
	tm.typeText("a draft I did not send")
	tm.waitText("a draft I did not send")
	quitChat(t, tm)

	again := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home, args: []string{"--continue"}})
	s := again.waitText("You said: remember the lighthouse", "a draft I did not send")
	if strings.Contains(s, "history off") {
		t.Fatalf("history is off:\n%s", s)
	}
}

// TestBrowserFindsOlderSession: the session browser's search finds a word
// said in an older session and opens that session at that message.
func TestBrowserFindsOlderSession(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30})
	tm.waitText(composerReady)
	tm.send("the quetzal has green feathers")
	tm.waitText("You said: the quetzal has green feathers")
	tm.keys("C-l", "C-l") // a new conversation
	tm.waitGone("quetzal")
	tm.send("something unrelated")
	tm.waitText("You said: something unrelated")

	tm.keys("M-s")
	tm.waitText("Sessions · 2")
	tm.typeText("quetz")
	tm.waitText("Messages with")
	// The title row matches too; move to the first message hit.
	s := tm.screen()
	down := 0
	for _, l := range lines(s) {
		if strings.Contains(l, "Messages with") {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(l), "▸") || strings.Contains(l, "quetzal") && !strings.Contains(l, "search:") {
			down++
		}
	}
	for range down {
		tm.keys("Down")
	}
	tm.keys("Enter")
	s = tm.waitText("You said: the quetzal has green feathers")
	if strings.Contains(s, "something unrelated") {
		t.Fatalf("the other session is on screen:\n%s", s)
	}
}

// TestChatKilledMidReplyKeepsPartial: SIGKILL while a reply streams; the
// reopened session shows the question and the partial reply, marked
// interrupted.
func TestChatKilledMidReplyKeepsPartial(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{
		Deltas:           []string{"The first part ", "of the answer ", "arrived before the crash. ", "This never arrives."},
		Interval:         50 * time.Millisecond,
		StallAfterDeltas: 3, Stall: 30 * time.Second,
	})
	home := t.TempDir()
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home})
	tm.waitText(composerReady)
	tm.send("tell me slowly")
	tm.waitText("arrived before the crash.")
	// At least one progress write (once a second) after the text arrived.
	time.Sleep(1500 * time.Millisecond)
	b, err := os.ReadFile(tm.pid)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err := killHard(pid); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "parley to be gone", func() bool { return processGone(pid) })

	if _, err := os.Stat(filepath.Join(home, ".local", "share", "parley", "parley.db")); err != nil {
		t.Fatalf("no database: %v", err)
	}
	again := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home, args: []string{"--continue"}})
	s := again.waitText("tell me slowly", "arrived before the crash.")
	if strings.Contains(s, "This never arrives") {
		t.Fatalf("text that never arrived is shown:\n%s", s)
	}
	if !strings.Contains(strings.ToLower(s), "interrupted") && !strings.Contains(s, "stopped") {
		t.Fatalf("the partial reply is not marked interrupted:\n%s", s)
	}
}
