package ui

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"parley/api"
)

// The image pane lists the composer's images as the next message's; esc
// gives the keys back and leaves the pane open; a preview that cannot be
// made says why where it goes, in clean text; one stopped is made again.
func TestImagePaneInTheChat(t *testing.T) {
	h := newHarness(t, 140, 40)
	data, err := os.ReadFile(pngFile(t, t.TempDir(), 40, 30))
	if err != nil {
		t.Fatal(err)
	}
	// Pasted: bytes without a file, as a screenshot from the clipboard.
	pasted, err := api.AttachBytesContext(context.Background(), "clipboard.png", data, api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	h.send(attachedMsg{atts: []api.Attachment{pasted}})
	h.key("alt+i")
	if _, ok := h.m.imagePaneFocused(); !ok {
		t.Fatal("alt+i opened no image pane with the keys")
	}
	side := h.region(h.lay().Side)
	if !strings.Contains(side, "next message: clipboard.png") || !strings.Contains(side, "+ Attached") || !strings.Contains(side, "pasted, not saved yet") {
		t.Fatalf("the pane does not list the composer's image as the next message's:\n%s", side)
	}
	if !strings.Contains(side, "a attach") || !strings.Contains(side, "esc back") {
		t.Fatalf("the pane does not show its keys:\n%s", side)
	}

	// Made while the pane waits for its preview: the sentence, cleaned.
	h.send(panePictureMsg{key: "any", err: errors.New("cannot decode the image \x1b]52;c;aGFjaw==\x07: it is cut short")})
	if side := h.region(h.lay().Side); !strings.Contains(side, "cannot decode the image") || !strings.Contains(side, "it is cut") {
		t.Fatalf("the failed preview is not said where it goes:\n%s", side)
	}
	if strings.Contains(h.m.View().Content, "\x1b]52") {
		t.Fatal("the error's control sequence reached the frame")
	}
	// The one asked for comes back stopped (as when its conversation is
	// left): it is asked for again, and comes.
	h.send(stoppedPicture(t, h))
	if h.panePicture() {
		t.Fatal("a stopped picture is shown")
	}
	h.wait("the preview", h.panePicture)

	h.key("esc")
	if h.focusOn() != focusComposer || !strings.Contains(h.region(h.lay().Side), "next message: clipboard.png") {
		t.Fatalf("esc: focus %v, pane:\n%s", h.focusOn(), h.screen())
	}
	h.typeText("a")
	if h.draft() != "a" {
		t.Fatalf("a key after esc did not reach the composer: %q", h.draft())
	}
}

// stoppedPicture is the next picture the side pane gets, as if its work
// had been stopped; the messages before it are delivered.
func stoppedPicture(t *testing.T, h *harness) panePictureMsg {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case msg := <-h.msgs:
			if pm, ok := msg.(panePictureMsg); ok {
				return panePictureMsg{key: pm.key, err: context.Canceled}
			}
			h.deliver(msg)
		case <-deadline:
			t.Fatal("the pane asked for no picture")
		}
	}
}
