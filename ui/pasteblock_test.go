package ui

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api/apitest"
	"parley/config"
	"parley/conversation"
)

// TestMegabytePasteIsABlock: 1 MB pasted into the composer (issue 18 §5:
// each key cost about a second of CPU with it in the textarea) goes on
// the message as a block: a chip, a notice, the composer keeps only what
// was typed, 20 keys cost well under a second of CPU, the request carries
// the whole megabyte as a text part, and editing the sent message as a
// branch brings the block back.
func TestMegabytePasteIsABlock(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.typeText("what went wrong? ")
	log := megabyteLog()
	h.send(tea.PasteMsg{Content: log})
	if got := h.draft(); got != "what went wrong? " {
		t.Fatalf("the composer holds %d bytes (%.40q), want only the typed text", len(got), got)
	}
	if n := len(h.attached()); n != 1 {
		t.Fatalf("%d attachments, want the block", n)
	}
	b := h.attached()[0]
	if !b.IsText() || b.Name != "pasted-1.txt" || b.Bytes != len(log) || b.Lines != 12_500 || string(b.Data) != log {
		t.Fatalf("the block is %s (%d bytes)", b.Describe(), len(b.Data))
	}
	if !strings.Contains(h.screen(), "1 ≡ pasted-1.txt · 12500 lines · 1.0 MB") {
		t.Errorf("no chip:\n%s", h.screen())
	}
	if want := "the pasted text (12,500 lines, 1.0 MB) is attached as a block; it is sent with your message"; !h.logged(want) {
		t.Errorf("no notice %q", want)
	}

	// 20 keys: 10 letters and 10 backspaces, each drawn.
	bound := time.Second
	if raceOn {
		bound = 5 * time.Second
	}
	cpu := keystrokesCPU(h, 20)
	if cpu > bound {
		t.Errorf("20 keys cost %v of CPU with the block on the message, more than %v", cpu, bound)
	}
	t.Logf("20 keys with a 1 MB block: %v of CPU", cpu)
	if got := h.draft(); got != "what went wrong? " {
		t.Fatalf("after the keys the composer holds %q", got)
	}

	h.srv.Enqueue(apitest.Reply{Text: "a loop"})
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	h.quiet()
	parts := h.srv.Requests()[0].Chat.Messages[0].Content.Parts
	if len(parts) != 2 || parts[0].Text != "what went wrong?" || parts[1].Type != "text" {
		t.Fatalf("request parts %d: %.60q", len(parts), parts[0].Text)
	}
	if want := "File: pasted-1.txt\n\n```text\n" + log + "```"; parts[1].Text != want {
		t.Fatalf("the block was not sent whole: %d bytes, want %d", len(parts[1].Text), len(want))
	}
	if len(h.attached()) != 0 || h.draft() != "" {
		t.Fatalf("the composer kept %q and %d attachments after the send", h.draft(), len(h.attached()))
	}
	if !strings.Contains(h.screen(), "pasted-1.txt") {
		t.Errorf("the sent message shows no chip:\n%s", h.screen())
	}

	// e on the sent message: an edit as a branch carries the block back.
	h.key("esc")
	h.key("g")
	h.key("e")
	if h.draft() != "what went wrong?" || len(h.attached()) != 1 || h.attached()[0].SHA256 != b.SHA256 {
		t.Fatalf("the edit holds %q and %d attachments", h.draft(), len(h.attached()))
	}
}

// keystrokesCPU types n keys (letters, then as many backspaces) with a
// View after each, and returns the CPU of this thread they took.
func keystrokesCPU(h *harness, n int) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	for i := range n {
		k := tea.KeyPressMsg{Code: 'x', Text: "x"}
		if i >= n/2 {
			k = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		h.send(k)
		_ = h.m.View()
	}
	return threadCPU() - c0
}

// A paste within the bound is text in the composer as before; one line
// more, or a paste that would bring the composer past it (many smaller
// pastes), is a block, and the composer keeps what it held.
func TestPasteUpToTheBoundIsText(t *testing.T) {
	h := newHarness(t, 100, 30)
	under := lines(composerMaxLines, composerMaxBytes/composerMaxLines)
	h.send(tea.PasteMsg{Content: under})
	if h.draft() != under || len(h.attached()) != 0 {
		t.Fatalf("a paste of %d lines and %d bytes became %d attachments", composerMaxLines, len(under), len(h.attached()))
	}

	h = newHarness(t, 100, 30)
	over := lines(composerMaxLines+1, 10)
	h.send(tea.PasteMsg{Content: over})
	if h.draft() != "" || len(h.attached()) != 1 || h.attached()[0].Lines != composerMaxLines+1 {
		t.Fatalf("a paste of %d lines: composer %d bytes, %d attachments", composerMaxLines+1, len(h.draft()), len(h.attached()))
	}

	// Three pastes of 3 KB: two fit, the third would pass 8 KB.
	h = newHarness(t, 100, 30)
	piece := func(c string) string { return strings.Repeat(c, 3000) }
	h.send(tea.PasteMsg{Content: piece("a")})
	h.send(tea.PasteMsg{Content: piece("b")})
	h.send(tea.PasteMsg{Content: piece("c")})
	if got := h.draft(); got != piece("a")+piece("b") {
		t.Fatalf("the composer holds %d bytes, want the first two pastes", len(got))
	}
	if len(h.attached()) != 1 || string(h.attached()[0].Data) != piece("c") {
		t.Fatalf("the third paste is not the block: %d attachments", len(h.attached()))
	}
	// The same text again is not a second block.
	h.send(tea.PasteMsg{Content: piece("c")})
	if len(h.attached()) != 1 || !h.logged("the pasted text (1 line, 3.0 KB) is attached already, as pasted-1.txt") {
		t.Fatalf("the same paste twice: %d attachments", len(h.attached()))
	}
	// Another is pasted-2.txt; the remove key takes the last one off.
	h.send(tea.PasteMsg{Content: piece("d")})
	if len(h.attached()) != 2 || h.attached()[1].Name != "pasted-2.txt" {
		t.Fatalf("the second block: %+v", h.attached())
	}
	h.key("alt+x")
	if len(h.attached()) != 1 || !h.logged("removed pasted-2.txt") {
		t.Fatalf("alt+x left %d attachments", len(h.attached()))
	}
}

// Typing past the bound is refused with a notice; nothing typed goes.
func TestTypingPastTheBoundIsRefused(t *testing.T) {
	h := newHarness(t, 100, 30)
	full := strings.Repeat("x", composerMaxBytes-1)
	h.send(tea.PasteMsg{Content: full})
	h.typeText("y")
	if h.draft() != full+"y" {
		t.Fatalf("the last byte within the bound was not typed")
	}
	h.typeText("z")
	if h.draft() != full+"y" {
		t.Fatalf("a key past the bound was typed")
	}
	if want := "the composer holds at most 100 lines and 8.0 KB; paste longer text (it is attached as a block), write it in the editor (ctrl+x) or attach it as a file"; !h.logged(want) {
		t.Errorf("no notice %q", want)
	}

	h = newHarness(t, 100, 30)
	h.send(tea.PasteMsg{Content: lines(composerMaxLines, 2)})
	h.key("ctrl+j")
	if n := h.textarea().LineCount(); n != composerMaxLines {
		t.Fatalf("the newline key made line %d", n)
	}
}

// A block that would pass attach_max_text_total is refused in one
// sentence naming the setting; the composer's text and attachments stay.
func TestBlockOverTheMessageTotalIsRefused(t *testing.T) {
	cfg := &config.Config{AttachMaxTextTotal: 100_000}
	h := newHarness(t, 100, 30, func(o *Options) { o.Config = cfg })
	h.typeText("keep me")
	h.send(tea.PasteMsg{Content: strings.Repeat("a", 150_000)})
	if want := "the pasted text is 150 KB, more than one message sends (100 KB, attach_max_text_total in the config); send a part of it or raise the limit, and your message stays as it was"; !h.logged(want) {
		t.Errorf("no sentence %q; screen:\n%s", want, h.screen())
	}
	if h.draft() != "keep me" || len(h.attached()) != 0 {
		t.Fatalf("the composer changed: %q, %d attachments", h.draft(), len(h.attached()))
	}
	h.send(tea.PasteMsg{Content: strings.Repeat("b", 60_000)})
	h.send(tea.PasteMsg{Content: strings.Repeat("c", 60_000)})
	if want := "the pasted text (60 KB) and the 1 text attachment already attached come to 120 KB, more than one message sends (100 KB, attach_max_text_total in the config); send it in another message or raise the limit, and your message stays as it was"; !h.logged(want) {
		t.Errorf("no sentence %q", want)
	}
	if h.draft() != "keep me" || len(h.attached()) != 1 {
		t.Fatalf("the composer changed: %q, %d attachments", h.draft(), len(h.attached()))
	}
}

// The clipboard's text (ctrl+v) and the editor's take the same way.
func TestClipboardAndEditorTextPastTheBound(t *testing.T) {
	bin := t.TempDir()
	fakeTool(t, bin, "wl-paste", `case "$1" in
--list-types) echo text/plain;;
*) i=0; while [ $i -lt 300 ]; do echo "a line of the clipboard's text"; i=$((i+1)); done;;
esac
`)
	h := newHarness(t, 100, 30, func(o *Options) { o.Desktop = fakeDesktop(bin) })
	h.typeText("see: ")
	h.key("ctrl+v")
	h.wait("the block", func() bool { return len(h.attached()) == 1 })
	if a := h.attached()[0]; a.Name != "pasted-1.txt" || a.Lines != 300 || h.draft() != "see: " {
		t.Fatalf("the clipboard's text: %s, composer %q", a.Describe(), h.draft())
	}

	h.send(editorDoneMsg{text: lines(composerMaxLines+1, 40)})
	if h.draft() != "" || len(h.attached()) != 2 || h.attached()[1].Name != "editor-1.txt" {
		t.Fatalf("the editor's text: composer %d bytes, %d attachments", len(h.draft()), len(h.attached()))
	}
	if !h.logged("the editor's text (101 lines, 4.0 KB) is attached as a block; it is sent with your message") {
		t.Errorf("no notice for the editor's text")
	}
	h.send(editorDoneMsg{text: "short"})
	if h.draft() != "short" {
		t.Fatalf("the editor's short text: composer %q", h.draft())
	}
}

// A session whose message and draft hold more text than the composer
// does (sent with ask, or saved before the bound): the draft comes back
// as a block, and e on the message edits it with its text as a block.
func TestLongDraftAndLongMessageComeBackAsBlocks(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	rec := st.NewRecorder(ctx)
	c := conversation.New(conversation.Options{Listeners: []conversation.Listener{rec}})
	long := lines(300, 50)
	turn, err := c.Begin(&conversation.UserInput{Text: long}, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	c.Receive(turn, "an answer", nil, "stop")
	c.Close(turn, nil)
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	draft := lines(150, 20)
	if err := st.SaveDraft(ctx, c.ID(), draft, nil); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 100, 30, withHistory(History{Store: st}))
	h.run(h.m.openSession(c.ID(), 0))
	h.wait("the session", func() bool { return h.eng.Conv().ID() == c.ID() && h.opening() == "" })
	if h.draft() != "" || len(h.attached()) != 1 || h.attached()[0].Name != "draft-1.txt" || string(h.attached()[0].Data) != draft {
		t.Fatalf("the draft came back as %d bytes of text and %d attachments", len(h.draft()), len(h.attached()))
	}
	h.key("alt+x")
	h.key("esc") // the notice of the clearing goes, and only it
	h.key("esc")
	h.key("g")
	h.key("e")
	if !h.editing() || h.draft() != "" || len(h.attached()) != 1 || string(h.attached()[0].Data) != long {
		t.Fatalf("the edit holds %d bytes of text and %d attachments", len(h.draft()), len(h.attached()))
	}
	if !h.logged("editing: enter sends it as a new branch, the earlier one stays (esc leaves it); the message's text (300 lines, 15 KB) is longer than the composer holds, so it is attached as a block") {
		t.Errorf("no notice for the message's text")
	}
}
