package ui

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/api/apitest"
	"parley/conversation"
)

// ask sends text and waits for the reply queued before.
func (h *harness) ask(text, reply string) {
	h.t.Helper()
	h.srv.Enqueue(apitest.Reply{Text: reply})
	h.typeText(text)
	h.key("enter")
	h.wait("the reply to "+text, func() bool { return !h.streaming() })
	h.quiet()
}

// sentTexts are the texts of the messages of the n-th chat request, in
// order, each as role: text.
func sentTexts(t *testing.T, srv *apitest.Server, n int) []string {
	t.Helper()
	var chats []apitest.Request
	for _, r := range srv.Requests() {
		if r.Chat != nil {
			chats = append(chats, r)
		}
	}
	if n >= len(chats) {
		t.Fatalf("chat request %d of %d", n, len(chats))
	}
	var out []string
	for _, msg := range chats[n].Chat.Messages {
		text := msg.Content.Text
		for _, p := range msg.Content.Parts {
			text += p.Text
		}
		out = append(out, msg.Role+": "+text)
	}
	return out
}

// pathTexts are the texts of the active path.
func pathTexts(conv *conversation.Conversation) []string {
	var out []string
	for _, msg := range conv.Messages() {
		out = append(out, msg.Text)
	}
	return out
}

func TestEscInEmptyComposerSelectsTheLastMessageAndKeysMoveIt(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("first question", "first answer")
	h.ask("second question", "second answer")
	h.key("esc")
	last, _ := h.eng.Conv().LastReply()
	if h.focusOn() != focusMessages || h.cursorMsg() != last.ID {
		t.Fatalf("focus %v on %d, want the last reply %d", h.focusOn(), h.cursorMsg(), last.ID)
	}
	scr := h.screen()
	if !strings.Contains(scr, "◀ selected") || !strings.Contains(scr, "regenerate") {
		t.Fatalf("the selection or its keys are not shown:\n%s", scr)
	}
	h.key("up")
	h.key("k")
	h.key("k")
	msgs := h.eng.Conv().Messages()
	if h.cursorMsg() != msgs[0].ID {
		t.Fatalf("after three steps up the cursor is on %d, want the first message %d", h.cursorMsg(), msgs[0].ID)
	}
	h.key("up") // clamped at the first
	if h.cursorMsg() != msgs[0].ID {
		t.Fatalf("up on the first message moved to %d", h.cursorMsg())
	}
	h.key("G")
	if h.cursorMsg() != msgs[3].ID {
		t.Fatalf("G went to %d, want %d", h.cursorMsg(), msgs[3].ID)
	}
	// A key the cursor does not bind goes back to the composer, typed there.
	h.key("x")
	if h.focusOn() != focusComposer || h.draft() != "x" {
		t.Fatalf("focus %v on %d, composer %q", h.focusOn(), h.cursorMsg(), h.draft())
	}
	if strings.Contains(h.screen(), "◀ selected") {
		t.Fatal("the selection mark stays after the cursor left")
	}
	// With text in the composer, esc does not select.
	h.key("esc")
	if h.focusOn() == focusMessages {
		t.Fatal("esc in a composer with text selected a message")
	}
}

func TestEscWhileStreamingStopsAndDoesNotSelect(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.srv.Enqueue(apitest.Reply{Text: strings.Repeat("slow ", 200), DeltaRunes: 1, Interval: 5e6})
	h.typeText("go")
	h.key("enter")
	h.key("esc")
	if h.focusOn() == focusMessages {
		t.Fatal("esc during a stream selected a message instead of stopping it")
	}
	h.wait("stopped", func() bool { return !h.streaming() })
}

func TestEditAnEarlierQuestionSendsOnlyTheNewBranch(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("first question", "first answer")
	h.ask("second question", "second answer")
	first := h.eng.Conv().Messages()[0]
	h.key("esc")
	h.key("g")
	if h.cursorMsg() != first.ID {
		t.Fatalf("g went to %d", h.cursorMsg())
	}
	h.key("e")
	if h.draft() != "first question" || h.focusOn() != focusComposer {
		t.Fatalf("composer %q focus %v on %d", h.draft(), h.focusOn(), h.cursorMsg())
	}
	h.key("ctrl+u")
	h.srv.Enqueue(apitest.Reply{Text: "edited answer"})
	h.typeText("edited question")
	h.key("enter")
	h.wait("the edited reply", func() bool { return !h.streaming() })
	h.quiet()
	if got := sentTexts(t, h.srv, 2); !slices.Equal(got, []string{"user: edited question"}) {
		t.Fatalf("the edit sent %q, want only the edited question", got)
	}
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"edited question", "edited answer"}) {
		t.Fatalf("path %q", got)
	}
	if !strings.Contains(h.screen(), "‹ 2/2 ›") {
		t.Fatalf("the edited question does not say it is the second alternative:\n%s", h.screen())
	}
	// ← on it brings back the earlier branch, to its end.
	h.key("esc")
	h.key("g")
	h.key("left")
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"first question", "first answer", "second question", "second answer"}) {
		t.Fatalf("after ← the path is %q", got)
	}
	if !strings.Contains(h.screen(), "second answer") || !strings.Contains(h.screen(), "‹ 1/2 ›") {
		t.Fatalf("the earlier branch is not shown:\n%s", h.screen())
	}
}

func TestRegenerateKeepsTheEarlierReplyAndChoosingItSendsIt(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("question", "answer one")
	h.srv.Enqueue(apitest.Reply{Text: "answer two"})
	h.key("ctrl+r")
	h.wait("the regenerated reply", func() bool { return !h.streaming() })
	h.quiet()
	last, _ := h.eng.Conv().LastReply()
	if last.Text != "answer two" || last.AltIndex != 1 || last.AltCount != 2 {
		t.Fatalf("after ctrl+r the last reply is %q %d/%d", last.Text, last.AltIndex+1, last.AltCount)
	}
	h.key("esc")
	h.key("left")
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"question", "answer one"}) {
		t.Fatalf("after ← the path is %q", got)
	}
	if !strings.Contains(h.screen(), "‹ 1/2 ›") {
		t.Fatalf("no 1/2 on the first reply:\n%s", h.screen())
	}
	// r on the selected reply makes a third.
	h.srv.Enqueue(apitest.Reply{Text: "answer three"})
	h.key("r")
	h.wait("the third reply", func() bool { return !h.streaming() })
	h.quiet()
	if last, _ := h.eng.Conv().LastReply(); last.Text != "answer three" || last.AltCount != 3 {
		t.Fatalf("r made %q %d/%d", last.Text, last.AltIndex+1, last.AltCount)
	}
	h.key("esc")
	h.key("home")
	h.key("end")
	h.key("left")
	h.key("left")
	h.key("esc")
	h.ask("follow-up", "ok")
	got := sentTexts(t, h.srv, 3)
	want := []string{"user: question", "assistant: answer one", "user: follow-up"}
	if !slices.Equal(got, want) {
		t.Fatalf("the request after choosing the first reply carried %q, want %q", got, want)
	}
}

func TestCopyAnEarlierReplyAndItsCodeBlock(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("q1", "the **first** reply\n\n```go\nfmt.Println(1)\n```\n")
	h.ask("q2", "second")
	h.key("esc")
	h.key("up")
	h.key("up")
	h.key("y")
	h.wait("copied", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.clipboard) == 1 })
	h.key("up")
	h.key("down")
	h.key("1")
	h.wait("copied", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.clipboard) == 2 })
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.clipboard) != 2 || !strings.HasPrefix(h.clipboard[0], "the **first** reply") || h.clipboard[1] != "fmt.Println(1)\n" {
		t.Fatalf("clipboard writes %q", h.clipboard)
	}
}

func TestLeaveATurnOutAndBringItBack(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("secret question", "secret answer")
	h.ask("second", "two")
	h.key("esc")
	h.key("g")
	h.key("d")
	if !strings.Contains(h.screen(), "left out of what the model sees") {
		t.Fatalf("the left-out turn is not marked:\n%s", h.screen())
	}
	h.key("esc")
	h.ask("third", "three")
	for _, s := range sentTexts(t, h.srv, 2) {
		if strings.Contains(s, "secret") {
			t.Fatalf("the left-out turn was sent: %q", sentTexts(t, h.srv, 2))
		}
	}
	h.key("esc")
	h.key("g")
	h.key("d")
	h.key("esc")
	h.ask("fourth", "four")
	if got := sentTexts(t, h.srv, 3); got[0] != "user: secret question" {
		t.Fatalf("the turn brought back is not sent: %q", got)
	}
}

func TestForkWithoutHistoryKeepsTheConversationUpToTheMessage(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("q1", "a1")
	h.ask("q2", "a2")
	before := h.eng.Conv().ID()
	h.key("esc")
	h.key("up")
	h.key("up")
	h.key("f")
	h.wait("the fork", func() bool { return h.eng.Conv().ID() != before })
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"q1", "a1"}) {
		t.Fatalf("the fork holds %q", got)
	}
	if !strings.Contains(h.screen(), "forked") {
		t.Fatalf("the fork is not said:\n%s", h.screen())
	}
}

func TestBranchesCommandListsAndSwitches(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.ask("question", "answer one")
	h.srv.Enqueue(apitest.Reply{Text: "answer two"})
	h.key("ctrl+r")
	h.wait("the regenerated reply", func() bool { return !h.streaming() })
	h.quiet()
	h.typeText("/branches")
	h.key("enter")
	if h.m.layerName() != "branches" {
		t.Fatalf("layer %q", h.m.layerName())
	}
	scr := h.screen()
	if !strings.Contains(scr, "Branches (2)") || !strings.Contains(scr, "1. reply: answer one") || !strings.Contains(scr, "reply: answer two") {
		t.Fatalf("the branch list:\n%s", scr)
	}
	h.key("up")
	h.key("enter")
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"question", "answer one"}) {
		t.Fatalf("choosing the first branch shows %q", got)
	}
}

func TestSlashForkAndBranchesOnAnEmptyConversation(t *testing.T) {
	h := newHarness(t, 80, 30)
	for _, c := range []string{"/fork", "/branches"} {
		h.typeText(c)
		h.key("enter")
		if h.m.layerName() != "" {
			t.Fatalf("%s opened %q on an empty conversation", c, h.m.layerName())
		}
	}
	if !strings.Contains(h.screen(), "no messages yet") {
		t.Fatalf("the refusal is not said:\n%s", h.screen())
	}
}

func TestClickSelectsAMessage(t *testing.T) {
	h := newHarness(t, 80, 30, func(o *Options) { o.Mouse = true })
	h.ask("click me", "answer")
	scr := strings.Split(h.screen(), "\n")
	row := slices.IndexFunc(scr, func(l string) bool { return strings.Contains(l, "click me") })
	if row < 0 {
		t.Fatalf("question not on screen:\n%s", h.screen())
	}
	h.send(tea.MouseClickMsg{X: 5, Y: row, Button: tea.MouseLeft})
	first := h.eng.Conv().Messages()[0]
	if h.focusOn() != focusMessages || h.cursorMsg() != first.ID {
		t.Fatalf("click on row %d: focus %v on %d, want message %d", row, h.focusOn(), h.cursorMsg(), first.ID)
	}
}

// The transcript follows the cursor: far up a long conversation, the
// selected message is on screen and marked.
func TestCursorScrollsToKeepTheSelectedMessageInView(t *testing.T) {
	h := newHarness(t, 80, 24)
	for i := range 20 {
		h.ask(fmt.Sprintf("question number %02d", i), fmt.Sprintf("answer number %02d", i))
	}
	h.key("esc")
	for range 30 {
		h.key("k")
	}
	h.quiet()
	msgs := h.eng.Conv().Messages()
	sel := msgs[len(msgs)-31]
	if h.focusOn() != focusMessages || h.cursorMsg() != sel.ID {
		t.Fatalf("after 30 steps up the cursor is on %v %d, want %d (%q)", h.focusOn(), h.cursorMsg(), sel.ID, sel.Text)
	}
	scr := h.screen()
	if !strings.Contains(scr, "◀ selected") || !strings.Contains(scr, sel.Text) {
		t.Fatalf("the selected message %q is not in view:\n%s", sel.Text, scr)
	}
	if strings.Contains(scr, "answer number 19") {
		t.Fatalf("the transcript stayed at the bottom:\n%s", scr)
	}
}

// e on a message of the user with an image brings back the text and the
// image, to be edited and sent as a new branch.
func TestEditBringsBackTheAttachments(t *testing.T) {
	h := newHarness(t, 80, 30)
	p := pngFile(t, t.TempDir(), 16, 12)
	h.send(tea.PasteMsg{Content: p})
	h.wait("attached", func() bool { return len(h.attached()) == 1 })
	h.ask("what is in this picture?", "a gradient")
	if len(h.attached()) != 0 {
		t.Fatalf("the attachment stayed in the composer after sending")
	}
	sent := h.eng.Conv().Messages()[0].Attachments
	h.key("esc")
	h.key("up")
	h.key("e")
	if h.draft() != "what is in this picture?" || len(h.attached()) != 1 {
		t.Fatalf("the edit holds %q and %d attachments, want the question and its image", h.draft(), len(h.attached()))
	}
	if got := h.attached()[0]; len(sent) != 1 || !bytes.Equal(got.Data, sent[0].Data) || got.MIME != "image/png" {
		t.Fatalf("the edit's attachment %s (%d bytes) is not the image sent", got.MIME, len(got.Data))
	}
	if !strings.Contains(h.screen(), "shot.png") {
		t.Fatalf("the image's chip is not shown:\n%s", h.screen())
	}
}

// On a message with alternatives the hint line says which one is shown
// and the keys that switch.
func TestHintLineShowsTheAlternativeKeys(t *testing.T) {
	h := newHarness(t, 120, 30)
	h.ask("question", "answer one")
	h.key("esc")
	if strings.Contains(h.screen(), "←/→") {
		t.Fatalf("switch keys shown on a message without alternatives:\n%s", h.screen())
	}
	h.key("esc")
	h.srv.Enqueue(apitest.Reply{Text: "answer two"})
	h.key("ctrl+r")
	h.wait("the regenerated reply", func() bool { return !h.streaming() })
	h.quiet()
	h.key("esc")
	if scr := h.screen(); !strings.Contains(scr, "←/→ alternative 2/2") {
		t.Fatalf("the hint line does not show the switch keys:\n%s", scr)
	}
	h.key("left")
	if scr := h.screen(); !strings.Contains(scr, "←/→ alternative 1/2") {
		t.Fatalf("the hint line does not follow the switch:\n%s", scr)
	}
}

// /fork with history makes a new stored session holding the whole
// conversation, and opens it.
func TestSlashForkCreatesAndOpensASession(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 100, 30, withHistory(History{Store: st}))
	h.ask("q1", "a1")
	h.ask("q2", "a2")
	flush(t, h)
	before := h.eng.Conv().ID()
	h.typeText("/fork")
	h.key("enter")
	h.wait("the forked session", func() bool {
		return h.eng.Conv().ID() != before && h.opening() == "" && h.eng.Conv().Len() == 4
	})
	h.quiet()
	if got := pathTexts(h.eng.Conv()); !slices.Equal(got, []string{"q1", "a1", "q2", "a2"}) {
		t.Fatalf("the fork holds %q", got)
	}
	if !strings.Contains(h.screen(), "forked") {
		t.Fatalf("the fork is not said:\n%s", h.screen())
	}
	ctx := context.Background()
	s, err := st.Load(ctx, h.eng.Conv().ID())
	if err != nil || len(s.Snapshot.Messages) != 4 {
		t.Fatalf("the forked session in the store: %v, %+v", err, s)
	}
	if orig, err := st.Load(ctx, before); err != nil || len(orig.Snapshot.Messages) != 4 {
		t.Fatalf("the original session after the fork: %v", err)
	}
}
