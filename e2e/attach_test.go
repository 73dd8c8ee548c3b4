package e2e

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// writeTestPNG writes a w×h PNG named name into dir.
func writeTestPNG(t *testing.T, dir, name string, w, h int) (string, []byte) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		img.SetNRGBA(i%w, i/w, color.NRGBA{uint8(i), 90, 200, 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, b.Bytes()
}

// imageParts returns the data URIs of the last chat request's last message.
func imageParts(t *testing.T, gw *apitest.Server) []string {
	t.Helper()
	reqs := chatRequests(gw)
	if len(reqs) == 0 {
		t.Fatal("no chat request")
	}
	msgs := reqs[len(reqs)-1].Chat.Messages
	var out []string
	for _, p := range msgs[len(msgs)-1].Content.Parts {
		if p.ImageURL != nil {
			out = append(out, p.ImageURL.URL)
		}
	}
	return out
}

// TestCtrlVAttachesAScreenshot: with a Wayland session and wl-paste on
// PATH, ctrl+v attaches the clipboard's image, and the gateway receives it
// as a data URI of the right media type.
func TestCtrlVAttachesAScreenshot(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	bin := t.TempDir()
	shot, data := writeTestPNG(t, t.TempDir(), "screenshot.png", 64, 40)
	script := "#!/bin/sh\ncase \"$1\" in\n--list-types) echo image/png;;\n*) cat '" + shot + "';;\nesac\n"
	if err := os.WriteFile(filepath.Join(bin, "wl-paste"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30,
		env: []string{"PATH=" + bin, "WAYLAND_DISPLAY=wayland-0"}})
	tm.waitText(composerReady)
	tm.keys("C-v")
	tm.waitText("clipboard.png", "64×40")
	tm.send("what is on my screen?")
	tm.waitText("You said: what is on my screen?")
	uris := imageParts(t, gw)
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(data)
	if len(uris) != 1 || uris[0] != want {
		t.Fatalf("the gateway got %d images; first starts %q", len(uris), firstN(uris, 40))
	}
}

// TestTwoDroppedPathsAttachTwoImages: a terminal's drop of two files (a
// bracketed paste of two quoted paths) attaches both.
func TestTwoDroppedPathsAttachTwoImages(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	dir := t.TempDir()
	a, _ := writeTestPNG(t, dir, "first shot.png", 20, 20)
	b, _ := writeTestPNG(t, dir, "second.png", 30, 10)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30})
	tm.waitText(composerReady)
	tm.must("set-buffer", "--", "'"+a+"' '"+b+"'")
	tm.must("paste-buffer", "-p", "-t", sessionName)
	tm.waitText("first shot.png", "second.png")
	tm.send("compare them")
	tm.waitText("You said: compare them")
	if n := len(imageParts(t, gw)); n != 2 {
		t.Fatalf("the gateway got %d images, want 2", n)
	}
}

func firstN(s []string, n int) string {
	if len(s) == 0 {
		return ""
	}
	return s[0][:min(n, len(s[0]))]
}

// TestAttachPicksAFileAndThePreviewShows: /attach opens the picker in the
// screenshots folder, the highlighted image is previewed, enter attaches
// it, the gateway receives it, and the transcript shows its picture under
// the message (half blocks: tmux does not pass kitty graphics here).
func TestAttachPicksAFileAndThePreviewShows(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := filepath.Join(t.TempDir(), "home")
	shots := filepath.Join(home, "Pictures", "Screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	_, data := writeTestPNG(t, shots, "login page.png", 120, 80)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 110, Height: 40, home: home})
	tm.waitText(composerReady)
	tm.send("/attach")
	tm.waitText("~/Pictures/Screenshots", "login page.png")
	// The folder opens on its first entry, the only image here; the
	// preview beside the list is drawn in half blocks.
	tm.waitFor("the picker's preview", func(s string) bool { return strings.Count(s, "▀") >= 40 })
	tm.keys("Enter")
	tm.waitText("login page.png", "120×80")
	tm.send("what does this show?")
	tm.waitText("You said: what does this show?")
	uris := imageParts(t, gw)
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(data)
	if len(uris) != 1 || uris[0] != want {
		t.Fatalf("the gateway got %d images; first starts %q", len(uris), firstN(uris, 40))
	}
	// The picture under the message: rows of half blocks below the chip,
	// inside the transcript (above the status bar).
	scr := tm.waitFor("the picture in the transcript", func(s string) bool {
		rows := lines(s)
		chip := -1
		for i, r := range rows {
			if strings.Contains(r, "login page.png") {
				chip = i
				break
			}
		}
		if chip < 0 {
			return false
		}
		blocks := 0
		for _, r := range rows[chip+1:] {
			if strings.Count(r, "▀") >= 10 {
				blocks++
			}
		}
		return blocks >= 4
	})
	if !strings.Contains(scr, "You said: what does this show?") {
		t.Fatalf("the reply is gone:\n%s", scr)
	}
}
