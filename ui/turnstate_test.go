package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/api/apitest"
	"parley/chat"
	"parley/conversation"
)

// Enter pressed while a pasted image path is still being read waits for
// the image, says so, and sends the message with it: never without it,
// never with the image left for the next message.
func TestEnterRightAfterPastingAnImagePathSendsTheImage(t *testing.T) {
	h := newHarness(t, 100, 30)
	p := pngFile(t, t.TempDir(), 300, 200)
	h.send(tea.PasteMsg{Content: p})
	h.typeText("what is this?")
	h.key("enter")
	// The attachment's result has not been delivered yet: the harness
	// feeds command results back only while it waits.
	if n := len(h.srv.Requests()); n != 0 || h.eng.State() != chat.Preparing {
		t.Fatalf("sent at once (%d requests) or not waiting (%v)", n, h.eng.State())
	}
	if scr := h.screen(); !strings.Contains(scr, "attaching") {
		t.Fatalf("the status does not say the message waits for its attachment:\n%s", scr)
	}
	h.srv.Enqueue(apitest.Reply{Text: "a gradient"})
	h.wait("the reply", func() bool { return h.eng.Conv().Len() == 2 && !h.streaming() })
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var text string
	images := 0
	for _, part := range reqs[0].Chat.Messages[len(reqs[0].Chat.Messages)-1].Content.Parts {
		if part.ImageURL != nil {
			images++
		}
		text += part.Text
	}
	if images != 1 || !strings.Contains(text, "what is this?") {
		t.Fatalf("the request carries %d images and text %q", images, text)
	}
	if len(h.attached()) != 0 || h.draft() != "" {
		t.Fatalf("the composer kept %d attachments and %q after the send", len(h.attached()), h.draft())
	}
}

// A pasted path that turns out not to be an image leaves the waiting
// message unsent, with the paste kept as text: nothing goes without what
// the user meant to attach, and nothing typed is lost.
func TestAFailedAttachmentLeavesTheWaitingMessageUnsent(t *testing.T) {
	h := newHarness(t, 100, 30)
	bad := filepath.Join(t.TempDir(), "notes.png")
	if err := os.WriteFile(bad, []byte{0, 1, 2, 3, 0, 0, 0xff, 0xfe}, 0o600); err != nil {
		t.Fatal(err)
	}
	h.send(tea.PasteMsg{Content: bad})
	h.typeText(" explain")
	h.key("enter")
	h.wait("the attachment's end", func() bool { return !h.attaching() && h.eng.Waiting() == chat.WaitNone })
	h.quiet()
	if n := len(h.srv.Requests()); n != 0 || h.eng.Conv().Len() != 0 {
		t.Fatalf("sent without the attachment: %d requests, %d messages", n, h.eng.Conv().Len())
	}
	if v := h.draft(); !strings.Contains(v, "explain") || !strings.Contains(v, "notes.png") {
		t.Fatalf("the composer holds %q; the typed text and the paste must both stay", v)
	}
}

// An esc that dismisses a notice does only that: it does not select the
// last message, and the letters typed next go to the composer.
func TestEscThatDismissesANoticeDoesOnlyThat(t *testing.T) {
	h := newHarness(t, 100, 30)
	replyWith(t, h, "an answer")
	h.send(noticeMsgFor(h, "the desktop clipboard is not available"))
	if !strings.Contains(h.screen(), "esc dismisses") {
		t.Fatalf("no notice that esc dismisses:\n%s", h.screen())
	}
	h.key("esc")
	if h.focusOn() == focusMessages {
		t.Fatal("the esc that dismissed the notice also selected a message")
	}
	if strings.Contains(h.screen(), "clipboard is not available") {
		t.Fatalf("the notice is still shown:\n%s", h.screen())
	}
	h.typeText("do it")
	if v := h.draft(); v != "do it" {
		t.Fatalf("the composer holds %q, want %q", v, "do it")
	}
	if r, _ := h.eng.Conv().LastReply(); r.Excluded {
		t.Fatal("the typed d left the reply out")
	}
	// With nothing left to close, esc selects the last message.
	h.key("ctrl+u")
	h.key("esc")
	if h.focusOn() != focusMessages {
		t.Fatal("an esc with nothing to close did not select the last message")
	}
}

// An esc that dismisses a notice that would fade by itself does only that
// too: the esc after it selects the last message.
func TestEscThatDismissesAPassingNoticeDoesOnlyThat(t *testing.T) {
	h := newHarness(t, 100, 30)
	replyWith(t, h, "an answer")
	h.send(noticeMsg{text: "image copied to the clipboard", kind: toastOK})
	if !strings.Contains(h.screen(), "image copied") {
		t.Fatalf("the notice is not shown:\n%s", h.screen())
	}
	h.key("esc")
	if strings.Contains(h.screen(), "image copied") {
		t.Fatalf("the notice is still shown:\n%s", h.screen())
	}
	if h.focusOn() == focusMessages {
		t.Fatal("the esc that dismissed the notice also selected a message")
	}
	h.typeText("d")
	if v := h.draft(); v != "d" {
		t.Fatalf("the composer holds %q, want %q", v, "d")
	}
	h.key("backspace")
	h.key("esc")
	if h.focusOn() != focusMessages {
		t.Fatal("an esc with nothing to close did not select the last message")
	}
}

// After a failed reply, an image turn that made its images is the last
// turn: the status is no longer "failed", the hint offers no retry, and
// ctrl+r does not regenerate the older failed reply over the image turn.
func TestStatusFollowsTheLastTurnAfterAnImageTurn(t *testing.T) {
	h, _ := imageHarness(t, 120, 40)
	// An error in the stream: a failure that a retry may mend.
	h.srv.Enqueue(apitest.Reply{Text: "partial answer", DeltaRunes: 4, ErrorAfterDeltas: 1})
	h.typeText("hello")
	h.key("enter")
	h.wait("the failure", func() bool { return !h.streaming() && h.eng.State() == chat.Failed })
	if !strings.Contains(h.screen(), "failed") {
		t.Fatalf("no failed status:\n%s", h.screen())
	}
	h.typeText("/image a red kite --model gpt-image-1")
	h.key("enter")
	h.wait("the image turn", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).IsImages() && h.eng.Conv().At(n-1).State == conversation.StateDone
	})
	if scr := h.screen(); strings.Contains(scr, "✗ failed") {
		t.Fatalf("the status still says the reply failed:\n%s", scr)
	}
	for _, hint := range h.m.hintItems() {
		if hint.Desc == "retry" {
			t.Fatalf("the hint offers to retry the older reply: %+v", h.m.hintItems())
		}
	}
	before := h.eng.Conv().Len()
	h.key("ctrl+r")
	h.quiet()
	if h.eng.Conv().Len() != before || !h.eng.Conv().At(before-1).IsImages() {
		t.Fatal("ctrl+r regenerated the older reply over the image turn")
	}
	if len(h.srv.RequestsTo("/chat/completions")) != 1 {
		t.Fatal("ctrl+r sent the failed question again")
	}
}

// /detach N after a draft removes that attachment and keeps the draft
// (on the same line or on a line of its own): nothing is sent.
func TestDetachWithADraftKeepsTheDraft(t *testing.T) {
	for _, sep := range []string{"", "\n"} {
		h := newHarness(t, 100, 30)
		dir := t.TempDir()
		a := pngFile(t, filepath.Join(dir), 20, 10)
		b := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(b, []byte("some notes\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		h.send(tea.PasteMsg{Content: a + " " + b})
		h.wait("two attachments", func() bool { return len(h.attached()) == 2 })
		h.typeText("summarise:" + sep + "/detach 2")
		h.key("enter")
		h.quiet()
		if n := len(h.srv.Requests()); n != 0 {
			t.Fatalf("sep %q: the draft was sent (%d requests)", sep, n)
		}
		if v := h.draft(); v != "summarise:" {
			t.Fatalf("sep %q: the composer holds %q, want the draft", sep, v)
		}
		if got := h.attached(); len(got) != 1 || got[0].Name != filepath.Base(a) && got[0].Name != a {
			t.Fatalf("sep %q: attachments left %+v, want the image alone", sep, got)
		}
	}
}

// Chips that do not fit say how many are hidden and where every one of
// them, text files included, is listed: /attached.
func TestHiddenChipsAreListedByAttached(t *testing.T) {
	h := newHarness(t, 100, 30)
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"notes.md", "todo.txt", "log.txt"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("line of "+name+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	paths = append(paths, pngFile(t, dir, 20, 10))
	h.send(tea.PasteMsg{Content: strings.Join(paths, " ")})
	h.wait("four attachments", func() bool { return len(h.attached()) == 4 })
	h.quiet()
	scr := h.screen()
	if !strings.Contains(scr, "1–2 not shown: 2 more (/attached lists them all)") || strings.Contains(scr, "alt+i") {
		t.Fatalf("the hidden chips do not say where they are listed:\n%s", scr)
	}
	h.typeText("/attached")
	h.key("enter")
	h.key("f4") // the notices pane shows the list whole
	h.quiet()
	flat := strings.Join(strings.Fields(h.screen()), " ")
	for _, want := range []string{"4 attachments on the next message", "1 ≡ notes.md", "2 ≡ todo.txt", "3 ≡ log.txt", "4 ▣ shot.png"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("/attached does not list %q:\n%s", want, h.screen())
		}
	}
}

// At 200 columns the status shows a long title whole, not cut at about
// 50 characters.
func TestAWideStatusShowsALongTitleWhole(t *testing.T) {
	h := newHarness(t, 200, 30)
	q := "why does the build of the payments service fail only on the second run after a clean checkout"
	h.srv.Enqueue(apitest.Reply{Text: "a cache"})
	h.typeText(q)
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() && h.eng.Conv().Len() == 2 })
	h.quiet()
	var status string
	for _, l := range strings.Split(h.screen(), "\n") {
		if strings.Contains(l, "● gpt-4o") {
			status = l
		}
	}
	if !strings.Contains(status, q) {
		t.Fatalf("the status does not show the %d-character title whole: %q", len(q), status)
	}
}
