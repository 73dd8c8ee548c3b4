package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/conversation"
	"parley/media/mediatest"
	"parley/ui/imagepane"
)

// TestAReplysImagesShowAndAreSaved: a chat reply carrying images (an
// image-output chat model's) shows them under its text, saves them in the
// image folder like /image's, and lists them in the image pane.
func TestAReplysImagesShowAndAreSaved(t *testing.T) {
	h, dir := imageHarness(t, 120, 50)
	made := mediatest.PNG(t, mediatest.Screenshot(300, 200))
	h.srv.Enqueue(apitest.Reply{Text: "Here is your fox.", ReplyImages: [][]byte{made, []byte("<html>no</html>")}})
	h.typeText("paint a fox")
	h.key("enter")
	h.wait("the reply", func() bool {
		n := h.eng.Conv().Len()
		return n == 2 && h.eng.Conv().At(1).State == conversation.StateDone
	})
	files := pngFiles(t, dir)
	if len(files) != 1 || !strings.Contains(filepath.Base(files[0]), "paint-a-fox") {
		t.Fatalf("saved %v in %s", files, dir)
	}
	if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, made) {
		t.Fatal("the saved file is not the image sent")
	}
	h.wait("text, picture and path", func() bool {
		scr := h.screen()
		return strings.Contains(scr, "Here is your fox.") && strings.Contains(scr, filepath.Base(files[0])) &&
			strings.Count(h.m.View().Content, "▀") > 50
	})
	if flat := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(flat, "the reply's image 2 is not an image (it looks like an HTML page)") {
		t.Fatalf("the image not kept is not said:\n%s", h.screen())
	}
	if _, kind := h.notice(); kind != toastWarn {
		t.Fatalf("the image not kept is said as %d, not as a warning", kind)
	}
	// The image pane lists it as made by the model, with its file.
	h.key("alt+i")
	p, ok := h.m.imagePaneFocused()
	if !ok {
		t.Fatal("alt+i opened no image pane")
	}
	side := h.region(h.lay().Side)
	if !strings.Contains(side, "1 of 1") || !strings.Contains(side, "✦ Generated") || strings.Contains(side, "not saved yet") {
		t.Fatalf("the image pane does not list the reply's image as generated, with its file:\n%s", side)
	}
	if sel, _ := p.Selected(); sel.Origin != imagepane.Generated || sel.Path != files[0] {
		t.Fatalf("the image pane lists %+v, want the generated %s", sel, files[0])
	}
}
