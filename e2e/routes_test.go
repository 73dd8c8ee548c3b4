package e2e

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestCtrlVOnWSLAttachesTheWindowsClipboard: in WSL (WSL_DISTRO_NAME set,
// powershell.exe reachable through interop) ctrl+v reads the Windows
// clipboard, where Win+Shift+S leaves its screenshot, even with WSLg's
// Wayland display set; the gateway receives the image.
func TestCtrlVOnWSLAttachesTheWindowsClipboard(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	bin := t.TempDir()
	_, data := writeTestPNG(t, t.TempDir(), "snip.png", 64, 40)
	b64 := filepath.Join(t.TempDir(), "snip.b64")
	if err := os.WriteFile(b64, []byte(base64.StdEncoding.EncodeToString(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf 'image\\n'\ncat '" + b64 + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "powershell.exe"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30,
		env: []string{"PATH=" + bin, "WSL_DISTRO_NAME=Ubuntu", "WAYLAND_DISPLAY=wayland-0"}})
	tm.waitText(composerReady)
	tm.keys("C-v")
	tm.waitText("clipboard.png", "64×40")
	tm.send("what did I snip?")
	tm.waitText("You said: what did I snip?")
	uris := imageParts(t, gw)
	if want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(data); len(uris) != 1 || uris[0] != want {
		t.Fatalf("the gateway got %d images; first starts %q", len(uris), firstN(uris, 40))
	}
}

// TestAReplysImagesShowSaveAndComeBack: a reply carrying images (an
// image-output chat model's, sent as OpenRouter does) shows them under
// its text with the path each was saved to in image_dir; reopened, the
// session shows them again.
func TestAReplysImagesShowSaveAndComeBack(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home, dir := t.TempDir(), t.TempDir()
	_, made := writeTestPNG(t, t.TempDir(), "made.png", 120, 80)
	gw.Enqueue(apitest.Reply{Text: "Here is your lighthouse.", ReplyImages: [][]byte{made}})
	tm := startParley(t, launch{Gateway: gw, Config: imageConfig(dir), home: home, Width: 120, Height: 40})
	tm.waitText(composerReady)
	tm.send("paint a lighthouse")
	tm.waitText("Here is your lighthouse.")
	var files []string
	tm.waitFor("the saved image", func(string) bool { files = savedPNGs(t, dir); return len(files) == 1 })
	if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, made) {
		t.Fatal("the saved file is not the image the reply carried")
	}
	name := filepath.Base(files[0])
	if !strings.Contains(name, "paint-a-lighthouse") {
		t.Fatalf("saved as %s", name)
	}
	tm.waitFor("the picture and its path", func(s string) bool {
		return strings.Contains(s, name) && strings.Count(s, "▀") >= 40
	})
	quitChat(t, tm)

	tm = startParley(t, launch{Gateway: gw, Config: imageConfig(dir), home: home, Width: 120, Height: 40, args: []string{"--continue"}})
	tm.waitFor("the reopened reply's picture", func(s string) bool {
		return strings.Contains(s, "Here is your lighthouse.") && strings.Contains(s, name) && strings.Count(s, "▀") >= 40
	})
}

// TestAModelTheGatewayListsWithVisionTakesImages: a model the config does
// not name and parley does not know, listed by the gateway with image
// input (OpenRouter's architecture.input_modalities), is sent an attached
// image without a warning.
func TestAModelTheGatewayListsWithVisionTakesImages(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t, apitest.WithModels(apitest.ModelSpec{ID: "seer-1", Vision: true, Modalities: true}))
	shot, data := writeTestPNG(t, t.TempDir(), "chart.png", 48, 32)
	tm := startParley(t, launch{Gateway: gw, Config: "default_model = \"seer-1\"\n", Width: 110, Height: 30})
	tm.waitText("Message seer-1")
	tm.send("/attach " + shot)
	tm.waitText("chart.png", "48×32")
	if s := tm.screen(); strings.Contains(s, "cannot see images") {
		t.Fatalf("warned about a model the gateway lists with image input:\n%s", frame(s))
	}
	tm.send("what does the chart say?")
	tm.waitText("You said: what does the chart say?")
	uris := imageParts(t, gw)
	if want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(data); len(uris) != 1 || uris[0] != want {
		t.Fatalf("the gateway got %d images", len(uris))
	}
}
