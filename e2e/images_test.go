package e2e

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// imageConfig is a chat whose images go to dir and are made by gpt-image-1.
func imageConfig(dir string) string {
	return chatConfig + "image_model = \"gpt-image-1\"\nimage_dir = \"" + dir + "\"\n"
}

// savedPNGs lists the valid PNG files in dir.
func savedPNGs(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".png") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Fatalf("%s is not a valid PNG: %v", e.Name(), err)
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// TestImageCommandAndPane: /image --n 2 writes two PNGs into image_dir and
// shows their paths in the transcript; the image pane lists them, and its
// attach key puts one on the next message, which the gateway receives;
// /edit then makes a new file from a POST to the edit endpoint.
func TestImageCommandAndPane(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	dir := filepath.Join(t.TempDir(), "made")
	tm := startParley(t, launch{Gateway: gw, Config: imageConfig(dir), Width: 150, Height: 50})
	tm.waitText(composerReady)
	tm.send("/image a lighthouse at dusk --n 2")
	tm.waitText("saved 2 images")
	files := savedPNGs(t, dir)
	if len(files) != 2 {
		t.Fatalf("image_dir holds %v", files)
	}
	tm.waitText(filepath.Base(files[0]), filepath.Base(files[1]), "a lighthouse at dusk")

	tm.keys("M-i")
	tm.waitText("a attach", "esc back")
	tm.keys("a")
	tm.waitText("1 ▣")
	tm.send("what is in this picture?")
	tm.waitText("You said: what is in this picture?")
	uris := imageParts(t, gw)
	if len(uris) != 1 || !strings.HasPrefix(uris[0], "data:image/png;base64,") {
		t.Fatalf("the gateway got %d images: %q", len(uris), firstN(uris, 40))
	}

	tm.send("/edit make it night")
	tm.waitText("saved 1 image")
	edits := gw.RequestsTo("/images/edits")
	if len(edits) != 1 || edits[0].Method != "POST" || edits[0].Edit == nil || edits[0].Edit.Prompt != "make it night" || len(edits[0].Edit.Images) != 1 {
		t.Fatalf("edit requests: %+v", edits)
	}
	if now := savedPNGs(t, dir); len(now) != 3 {
		t.Fatalf("after the edit image_dir holds %v", now)
	}
	tm.waitText("Edit · gpt-image-1")
}

// TestEscDuringGenerationSavesNothing: esc while the gateway is still
// making the image abandons it; no file appears, then or later.
func TestEscDuringGenerationSavesNothing(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Path: "/images/generations", Delay: 3 * time.Second})
	dir := filepath.Join(t.TempDir(), "made")
	tm := startParley(t, launch{Gateway: gw, Config: imageConfig(dir), Width: 120, Height: 40})
	tm.waitText(composerReady)
	tm.send("/image a slow lighthouse")
	tm.waitText("generating 1 image with gpt-image-1")
	tm.keys("Escape")
	tm.waitText("nothing was saved")
	time.Sleep(3500 * time.Millisecond) // past the gateway's answer
	if files := savedPNGs(t, dir); len(files) != 0 {
		t.Fatalf("files written after esc: %v", files)
	}
}
