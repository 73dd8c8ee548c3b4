package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"parley/api/apitest"
	"parley/ui/preview"
)

// Dropped or pasted image paths are attached, all of them; a text file
// behind such a path is attached as text (the bytes decide, not the name);
// paths mixed with text, and paths to files that are neither images nor
// text, stay text; a lone link to an image is attached as a link.
func TestPasteDetection(t *testing.T) {
	dir := t.TempDir()
	a := pngFile(t, dir, 10, 10)
	b := filepath.Join(dir, "second shot.png")
	if err := os.Rename(pngFile(t, t.TempDir(), 12, 12), b); err != nil {
		t.Fatal(err)
	}
	// Named like an image, but binary (a NUL): neither an image nor text.
	notImage := filepath.Join(dir, "notes.png")
	if err := os.WriteFile(notImage, []byte("not\x00an image, named .png"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Parse takes paths by image extensions; the bytes make it text.
	textFile := filepath.Join(dir, "notes.gif")
	if err := os.WriteFile(textFile, []byte("# Notes\n\nthe chart is upside down\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, paste string
		atts        int
		text        string
		// textFile: the attachment is the text file, attached as text.
		textFile bool
	}{
		{"two dropped paths", "'" + a + "' '" + b + "'", 2, "", false},
		{"escaped space and file URL", strings.ReplaceAll(b, " ", `\ `) + "\nfile://" + strings.ReplaceAll(a, " ", "%20"), 2, "", false},
		{"mixed with text", "look at " + a, 0, "look at " + a, false},
		{"not an image", notImage, 0, notImage, false},
		{"a text file named like an image", textFile, 1, "", true},
		{"a link to an image", "https://example.com/cat.png", 1, "", false},
		{"a link to a page", "https://example.com/article", 0, "https://example.com/article", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 100, 30)
			h.send(tea.PasteMsg{Content: tc.paste})
			h.wait("the paste's end", func() bool { return !h.attaching() })
			atts := h.attached()
			if len(atts) != tc.atts || h.draft() != tc.text {
				t.Fatalf("attachments %d, composer %q\n%s", len(atts), h.draft(), h.screen())
			}
			if tc.textFile && (!atts[0].IsText() || atts[0].Name != "notes.gif" || atts[0].Lines != 3) {
				t.Fatalf("the text file attached as %+v", atts[0])
			}
		})
	}
}

// fakeTool writes an executable script named name into dir.
func fakeTool(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// ctrl+v reads the clipboard with the session's tool: a screenshot is
// attached, text is pasted, and a missing tool is named.
func TestClipboardPaste(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal("these tests need /bin/sh")
	}
	shot := pngFile(t, t.TempDir(), 40, 30)
	bin := t.TempDir()
	wayland := fakeDesktop
	fakeTool(t, bin, "wl-paste", `case "$1" in
--list-types) echo image/png;;
*) cat '`+shot+`';;
esac
`)
	h := newHarness(t, 100, 30, func(o *Options) { o.Desktop = wayland(bin) })
	h.key("ctrl+v")
	h.wait("the screenshot", func() bool { return len(h.attached()) == 1 })
	if a := h.attached()[0]; a.Width != 40 || a.MIME != "image/png" {
		t.Fatalf("attachment %+v", a)
	}

	textBin := t.TempDir()
	fakeTool(t, textBin, "wl-paste", `case "$1" in
--list-types) echo text/plain;;
*) printf 'copied words';;
esac
`)
	h = newHarness(t, 100, 30, func(o *Options) { o.Desktop = wayland(textBin) })
	h.key("ctrl+v")
	h.wait("the text", func() bool { return h.draft() == "copied words" })

	h = newHarness(t, 100, 30, func(o *Options) { o.Desktop = wayland(t.TempDir()) })
	h.typeText("kept")
	h.key("ctrl+v")
	h.wait("the install hint", func() bool { return strings.Contains(h.screen(), "wl-clipboard") })
	if h.draft() != "kept" {
		t.Fatalf("composer %q", h.draft())
	}
}

// /attach without a path opens the picker in the screenshots folder: it
// lists folders, images and text files, previews the highlighted image, and
// attaches every image chosen with space.
func TestFilePickerChoosesSeveral(t *testing.T) {
	home := t.TempDir()
	shots := filepath.Join(home, "Pictures", "Screenshots")
	if err := os.MkdirAll(filepath.Join(shots, "older"), 0o700); err != nil {
		t.Fatal(err)
	}
	a := pngFile(t, t.TempDir(), 30, 20)
	for _, name := range []string{"a.png", "b.png"} {
		data, _ := os.ReadFile(a)
		if err := os.WriteFile(filepath.Join(shots, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(shots, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 30, func(o *Options) {
		env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state")}
		o.Getenv = func(k string) string { return env[k] }
	})
	h.typeText("/attach")
	h.key("enter")
	h.wait("the picker", func() bool { return h.m.layerName() == "files" })
	h.wait("the folder", func() bool { return strings.Contains(h.screen(), "a.png") })
	scr := h.screen()
	if !strings.Contains(scr, "older/") || !strings.Contains(scr, "notes.txt") || !strings.Contains(scr, "~/Pictures/Screenshots") {
		t.Fatalf("listing:\n%s", scr)
	}
	h.key("down") // from the folder to a.png
	h.wait("a preview", func() bool { return strings.Contains(h.m.View().Content, "▀") })
	h.key("space")
	h.key("space")
	h.key("enter")
	h.wait("two attachments", func() bool { return len(h.attached()) == 2 })
	if h.m.layerName() != "" {
		t.Fatalf("the picker stayed open: %q", h.m.layerName())
	}
	h.wait("the folder remembered", func() bool { return pickerStart(h.opts.Getenv, h.opts.WorkDir) == shots })
}

// An image sent with a message is shown under it in the transcript, made
// in a command from the bytes that were sent.
func TestSentImageShowsInTheTranscript(t *testing.T) {
	shot := pngFile(t, t.TempDir(), 64, 48)
	h := newHarness(t, 100, 40)
	h.srv.Enqueue(apitest.Reply{Text: "a test pattern"})
	h.typeText("/attach " + shot)
	h.key("enter")
	h.wait("the chip", func() bool { return len(h.attached()) == 1 })
	h.typeText("what is this?")
	h.key("enter")
	h.wait("the reply", func() bool { return strings.Contains(h.screen(), "a test pattern") })
	h.wait("the picture", func() bool { return strings.Count(h.m.View().Content, "▀") >= 20 })
	if reqs := h.m.tr.TakePictureRequests(); len(reqs) != 0 {
		t.Fatalf("the transcript still waits for %d pictures", len(reqs))
	}
}

// In kitty 0.28 and later, a sent image is transmitted to the terminal
// once, outside the frame, and the transcript holds Unicode placeholders
// for it.
func TestSentImageInKittyIsTransmittedOnce(t *testing.T) {
	shot := pngFile(t, t.TempDir(), 64, 48)
	h := newHarness(t, 100, 40, func(o *Options) {
		env := map[string]string{"TERM": "xterm-kitty", "XDG_CONFIG_HOME": t.TempDir()}
		o.Getenv = func(k string) string { return env[k] }
	})
	h.send(tea.TerminalVersionMsg{Name: "kitty(0.35.2)"})
	h.send(uv.PrimaryDeviceAttributesEvent{62, 52})
	if h.pictureMode() != preview.Kitty {
		t.Fatalf("kitty 0.35.2 draws %v", h.pictureMode())
	}
	h.srv.Enqueue(apitest.Reply{Text: "a test pattern"}, apitest.Reply{Text: "the same pattern"})
	for _, text := range []string{"what is this?", "and now?"} {
		h.typeText("/attach " + shot)
		h.key("enter")
		h.wait("the chip", func() bool { return len(h.attached()) == 1 })
		h.typeText(text)
		h.key("enter")
		h.wait("the reply", func() bool { return !h.streaming() && len(h.attached()) == 0 })
	}
	h.wait("the placeholders", func() bool { return strings.Count(h.m.View().Content, "\U0010EEEE") >= 20 })
	h.quiet()
	h.drain()
	h.mu.Lock()
	defer h.mu.Unlock()
	transmits := 0
	for _, r := range h.raw {
		if strings.Contains(r, "\x1b_G") && strings.Contains(r, "a=T") {
			transmits++
		}
	}
	if transmits != 1 {
		t.Fatalf("the same picture was transmitted %d times, want once", transmits)
	}
	if strings.Contains(h.m.View().Content, "\x1b_G") {
		t.Fatal("a graphics command is inside the frame")
	}
}

// Inside tmux, auto draws half blocks until tmux says its terminal is
// kitty and passes graphics through; then kitty pictures (through tmux).
func TestTmuxProbeSwitchesToKitty(t *testing.T) {
	env := map[string]string{"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color", "XDG_CONFIG_HOME": t.TempDir()}
	h := newHarness(t, 100, 30, func(o *Options) { o.Getenv = func(k string) string { return env[k] } })
	if h.pictureMode() != preview.Blocks {
		t.Fatalf("before the probe: %v", h.pictureMode())
	}
	if !h.m.pics.tmuxAsked {
		h.send(probeTimeoutMsg{})
	}
	if !h.m.pics.tmuxAsked {
		t.Fatal("tmux was not asked once the terminal's answers were in")
	}
	h.send(tmuxProbedMsg{t: preview.Tmux{ClientTerm: "xterm-ghostty", Passthrough: false}})
	if h.pictureMode() != preview.Blocks {
		t.Fatalf("without passthrough: %v", h.pictureMode())
	}
	h.send(tmuxProbedMsg{t: preview.Tmux{ClientTerm: "xterm-kitty", Passthrough: true}})
	if h.pictureMode() != preview.KittyTmux {
		t.Fatalf("kitty with passthrough: %v", h.pictureMode())
	}
}
