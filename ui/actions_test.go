package ui

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/api/apitest"
	"parley/config"
	"parley/internal/desktop"
)

const codeReply = "Two blocks:\n\n```sh\necho one\n```\n\nand\n\n```go\nfmt.Println(\"two\")\n```\n\nEscape \x1b]52;c;ZXZpbA==\x07 here."

func replyWith(t *testing.T, h *harness, text string) {
	t.Helper()
	h.srv.Enqueue(apitest.Reply{Text: text})
	h.typeText("q")
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
}

func TestCopyReplyBothWaysSanitised(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.key("ctrl+y")
	if !strings.Contains(h.screen(), "no reply to copy") {
		t.Errorf("empty copy:\n%s", h.screen())
	}
	replyWith(t, h, codeReply)
	h.key("ctrl+y")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "reply copied") && len(h.osc52) == 1 })
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.clipboard) != 1 || len(h.osc52) != 1 || h.clipboard[0] != h.osc52[0] {
		t.Fatalf("clipboard %q osc52 %q", h.clipboard, h.osc52)
	}
	got := h.clipboard[0]
	if strings.ContainsRune(got, 0x1b) || strings.ContainsRune(got, 0x07) {
		t.Errorf("copied text carries control characters: %q", got)
	}
	if !strings.Contains(got, "```go\nfmt.Println(\"two\")\n```") || !strings.Contains(got, "␛]52;c;ZXZpbA==") {
		t.Errorf("copied text is not the Markdown source: %q", got)
	}
}

func TestCopyFailureStillSendsOSC52(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) {
		o.Clipboard = func(string) error {
			return errors.New("cannot copy the text to the system clipboard: no clipboard tool was found (install wl-clipboard, xclip or xsel)")
		}
	})
	replyWith(t, h, "plain answer")
	h.key("ctrl+y")
	h.wait("toast and OSC 52", func() bool { return strings.Contains(h.screen(), "OSC 52") && len(h.osc52) == 1 })
	if len(h.osc52) != 1 || h.osc52[0] != "plain answer" {
		t.Errorf("osc52 %q", h.osc52)
	}
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(flat, "no clipboard tool was found") {
		t.Errorf("toast:\n%s", h.screen())
	}
	// An OSC 52 copy is a copy: a success that fades, not a warning that
	// stays until esc.
	if _, kind := h.notice(); kind != toastOK || !strings.Contains(flat, "reply copied through the terminal (OSC 52") {
		t.Errorf("notice kind %d, want a success that fades:\n%s", kind, h.screen())
	}
}

func TestCopyCodeBlocks(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, codeReply)
	h.key("alt+2")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "code block [2] copied") })
	h.key("alt+1")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "code block [1] copied") })
	h.key("alt+5")
	if !strings.Contains(h.screen(), "only 2 code blocks") {
		t.Errorf("toast:\n%s", h.screen())
	}
	h.mu.Lock()
	got := append([]string(nil), h.clipboard...)
	h.mu.Unlock()
	if len(got) != 2 || got[0] != "fmt.Println(\"two\")\n" || got[1] != "echo one\n" {
		t.Errorf("clipboard %q", got)
	}
}

func TestCopyCodePrefixKey(t *testing.T) {
	cfg := &config.Config{Keys: map[string][]string{"copy_code": {"ctrl+g"}}}
	h := newHarness(t, 80, 24, func(o *Options) { o.Config = cfg })
	if banner := h.region(h.lay().Banner); !strings.Contains(banner, "copy_code") {
		t.Fatalf("ctrl+g hides the composer's select-all: a problem should be reported:\n%s", h.screen())
	}
	h.key("esc") // dismiss the banner
	replyWith(t, h, codeReply)
	h.key("ctrl+g")
	if !strings.Contains(h.screen(), "copy that code block") {
		t.Fatalf("prefix not armed:\n%s", h.screen())
	}
	h.key("2")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "code block [2] copied") })
	if h.draft() != "" {
		t.Errorf("digit typed into composer: %q", h.draft())
	}
	// Any other key cancels the prefix and does its usual thing.
	h.key("ctrl+g")
	h.typeText("x")
	if strings.Contains(h.screen(), "copy that code block") || h.draft() != "x" {
		t.Errorf("prefix still armed, or composer %q:\n%s", h.draft(), h.screen())
	}
}

func TestEditorRoundTrip(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ed.sh")
	// The "editor" appends a line to the file it is given.
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '\\nfrom the editor\\n' >> \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"EDITOR": script + " --wait"}
	cmd, err := editorCommand(func(k string) string { return env[k] }, filepath.Join(dir, "x.md"))
	if err != nil || cmd.Path != script || cmd.Args[1] != "--wait" {
		t.Fatalf("cmd %v %v", cmd, err)
	}
	// What the ExecProcess callback does, run by hand.
	f := filepath.Join(dir, "draft.md")
	if err := os.WriteFile(f, []byte("draft"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(script, f)
	msg := readEditorResult(f, c.Run())
	done, ok := msg.(editorDoneMsg)
	if !ok || done.err != nil || done.text != "draft\nfrom the editor" {
		t.Fatalf("%#v", msg)
	}
	if _, err := os.Stat(f); !os.IsNotExist(err) {
		t.Error("temp file left behind")
	}

	h := newHarness(t, 80, 24)
	h.typeText("draft")
	h.send(done)
	if h.draft() != "draft\nfrom the editor" || h.lay().ComposerText != 2 {
		t.Fatalf("composer %q (%d rows)", h.draft(), h.lay().ComposerText)
	}
	// A failed editor leaves the text alone and says so.
	h.send(readEditorResult(filepath.Join(dir, "gone.md"), errors.New("exit status 1")))
	if h.draft() != "draft\nfrom the editor" || !strings.Contains(h.screen(), "editor exited") {
		t.Fatalf("composer %q\n%s", h.draft(), h.screen())
	}
	// VISUAL wins over EDITOR.
	env["VISUAL"] = "myvisual"
	if cmd, _ := editorCommand(func(k string) string { return env[k] }, "f"); cmd.Args[0] != "myvisual" {
		t.Errorf("VISUAL ignored: %v", cmd.Args)
	}
}

func TestEditorKeyReturnsExecCommand(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.typeText("text")
	_, cmd := h.m.Update(keyMsg("ctrl+x"))
	if cmd == nil {
		t.Fatal("no command for the editor key")
	}
	if h.draft() != "text" {
		t.Errorf("composer changed before the editor ran: %q", h.draft())
	}
}

// pngFile writes a real PNG of w x h to dir.
func pngFile(t *testing.T, dir string, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "shot.png")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPastedImagePathAttachesAndVisionIsChecked(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) { o.Model = "llama3" })
	p := pngFile(t, t.TempDir(), 32, 24)
	h.send(tea.PasteMsg{Content: "'" + p + "'"})
	h.wait("attached", func() bool { return len(h.attached()) == 1 })
	if !strings.Contains(h.screen(), "shot.png · 32×24") {
		t.Errorf("no attachment row:\n%s", h.screen())
	}
	checkFrame(t, h.m, 80, 24)
	h.typeText("what is this?")
	h.key("enter")
	// llama3 cannot see (the gateway's list, asked when the image came,
	// says nothing else): refused before any chat request, nothing lost.
	if len(h.srv.RequestsTo("/chat/completions")) != 0 || h.eng.Conv().Len() != 0 {
		t.Fatalf("sent anyway: %d requests", len(h.srv.RequestsTo("/chat/completions")))
	}
	if h.draft() != "what is this?" || len(h.attached()) != 1 {
		t.Fatalf("composer lost: %q %d", h.draft(), len(h.attached()))
	}
	if !strings.Contains(h.screen(), "cannot see images") {
		t.Errorf("no refusal:\n%s", h.screen())
	}
	// Switch to a vision model: the same composer goes out with the image.
	h.useModel("gpt-4o")
	h.srv.Enqueue(apitest.Reply{Path: "/chat/completions", Text: "a gradient"})
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	req := h.srv.RequestsTo("/chat/completions")[0].Chat.Messages[0]
	if len(req.Content.Parts) != 2 || req.Content.Parts[1].ImageURL == nil || !strings.HasPrefix(req.Content.Parts[1].ImageURL.URL, "data:image/png;base64,") {
		t.Fatalf("request content %+v", req.Content)
	}
	// Later turns still carry the image, so a model without vision is refused.
	h.useModel("llama3")
	h.typeText("and now?")
	h.key("enter")
	if len(h.srv.RequestsTo("/chat/completions")) != 1 || h.draft() != "and now?" {
		t.Fatalf("history image sent to llama3")
	}
	// Back on a vision model, the next request carries the whole
	// conversation, the first turn's image included.
	h.useModel("gpt-4o")
	h.srv.Enqueue(apitest.Reply{Path: "/chat/completions", Text: "still a gradient"})
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	msgs := h.srv.RequestsTo("/chat/completions")[1].Chat.Messages
	if len(msgs) != 3 || msgs[1].Content.PlainText() != "a gradient" || msgs[2].Content.PlainText() != "and now?" {
		t.Fatalf("second request %+v", msgs)
	}
	first := msgs[0].Content
	if len(first.Parts) != 2 || first.Parts[0].Text != "what is this?" || first.Parts[1].ImageURL == nil ||
		first.Parts[1].ImageURL.URL != req.Content.Parts[1].ImageURL.URL {
		t.Fatalf("the earlier image is not carried: %+v", first)
	}
}

func TestPasteOfTextIsText(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.send(tea.PasteMsg{Content: "just some\npasted text"})
	if h.draft() != "just some\npasted text" || len(h.attached()) != 0 {
		t.Fatalf("composer %q", h.draft())
	}
	// A path to a missing image stays as text, with a note.
	h2 := newHarness(t, 80, 24)
	h2.send(tea.PasteMsg{Content: "/nope/missing.png"})
	h2.wait("fallback", func() bool { return h2.draft() == "/nope/missing.png" })
	if len(h2.attached()) != 0 {
		t.Fatal("attached a missing file")
	}
}

func TestBackspaceRemovesAttachment(t *testing.T) {
	h := newHarness(t, 80, 24)
	a, err := api.AttachBytesContext(context.Background(), "x.png", func() []byte {
		b, _ := os.ReadFile(pngFile(t, t.TempDir(), 4, 4))
		return b
	}(), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	h.send(attachedMsg{atts: []api.Attachment{a}})
	if len(h.attached()) != 1 || h.lay().Attach.H != 1 {
		t.Fatal("not attached")
	}
	h.key("backspace")
	if len(h.attached()) != 0 || h.lay().Attach.H != 0 {
		t.Fatal("backspace did not remove the attachment")
	}
	checkFrame(t, h.m, 80, 24)
}

// Code block labels run through the transcript: /copy N copies the block
// labelled [N] wherever it is, alt+N the last reply's N-th, named by its
// label.
func TestCopyLabelledCodeBlock(t *testing.T) {
	h := newHarness(t, 80, 40)
	replyWith(t, h, "```sh\necho first\n```\n")
	replyWith(t, h, "```sh\necho second\n```\n")
	if !strings.Contains(h.screen(), "[2] sh") {
		t.Fatalf("the second reply's block is not labelled [2]:\n%s", h.screen())
	}
	h.typeText("/copy 1")
	h.key("enter")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "code block [1] copied") })
	h.key("alt+1")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "code block [2] copied") })
	h.typeText("/copy 7")
	h.key("enter")
	if !strings.Contains(h.screen(), "no code block [7]; the labels here go from [1] to [2]") {
		t.Errorf("toast:\n%s", h.screen())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.clipboard) != 2 || h.clipboard[0] != "echo first\n" || h.clipboard[1] != "echo second\n" {
		t.Errorf("clipboard %q", h.clipboard)
	}
}

// TestCopyOverSSHIsASuccess: over SSH there is no desktop clipboard at
// all; the copy that went through the terminal (OSC 52) is simply a copy,
// with no "cannot" in its notice.
func TestCopyOverSSHIsASuccess(t *testing.T) {
	sys := desktop.System{Getenv: func(k string) string {
		return map[string]string{"SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22"}[k]
	}, LookPath: func(string) (string, error) { return "", exec.ErrNotFound }, GOOS: "linux"}
	h := newHarness(t, 100, 24, func(o *Options) { o.Clipboard, o.Desktop = nil, &sys })
	replyWith(t, h, "plain answer")
	h.key("ctrl+y")
	h.wait("toast and OSC 52", func() bool { return strings.Contains(h.screen(), "OSC 52") && len(h.osc52) == 1 })
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if _, kind := h.notice(); kind != toastOK || !strings.Contains(flat, "reply copied through the terminal (OSC 52, 12 B)") || strings.Contains(flat, "cannot") {
		t.Errorf("notice kind %d:\n%s", kind, h.screen())
	}
}
