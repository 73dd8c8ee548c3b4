package transcript

import (
	"strings"
	"testing"

	"parley/api"
	"parley/conversation"
)

// The path an image was saved to wraps only where it must, after a slash:
// a file name with hyphens stays whole, and the "↳" mark stays on the
// line of the path it points to.
func TestSavedPathWrapsAtSlashes(t *testing.T) {
	const (
		long  = "/home/u/Pictures/parley/20261129-040600-a-red-kite-over-hills-1.png"
		short = "/home/u/Pictures/parley/20261129-040600-a-kite-over-it.png" // one cell more than the room after "↳ "
	)
	tr := newTest(t, 60, 40)
	for i, path := range []string{long, short} {
		tr.Append(conversation.Message{
			ID: i + 1, Role: conversation.RoleImages, State: conversation.StateDone,
			Text: "a red kite", Model: "gpt-image-1", Image: &conversation.ImageTurn{},
			Attachments: []api.Attachment{{Name: path, MIME: "image/png", Width: 1024, Height: 1024, Bytes: 1_200_000}},
		})
	}
	renderAll(t, tr)
	view := stripTrim(tr.List().View())
	for _, name := range []string{"20261129-040600-a-red-kite-over-hills-1.png", "20261129-040600-a-kite-over-it.png"} {
		if !strings.Contains(view, name) {
			t.Errorf("the file name %s was split:\n%s", name, view)
		}
	}
	for l := range strings.SplitSeq(view, "\n") {
		if strings.TrimSpace(l) == "↳" {
			t.Errorf("the mark stands alone on a line:\n%s", view)
		}
	}
	if !strings.Contains(view, "↳ /home/u/Pictures/parley/\n") {
		t.Errorf("the path does not start after the mark:\n%s", view)
	}
}

// A text file under a sent message is marked as the composer marked it
// (≡, its lines and size), not like an image (▣).
func TestTextFileChipUnderTheMessage(t *testing.T) {
	tr := newTest(t, 80, 20)
	tr.Append(conversation.Message{ID: 1, Role: api.RoleUser, Text: "summarise", State: conversation.StateDone,
		Attachments: []api.Attachment{{Name: "notes.md", Kind: api.KindText, MIME: "text/markdown", Lines: 12, Bytes: 1200}}})
	renderAll(t, tr)
	view := stripTrim(tr.List().View())
	if !strings.Contains(view, "≡ notes.md · 12 lines · 1.2 KB") || strings.Contains(view, "▣ notes.md") {
		t.Fatalf("the text file's chip:\n%s", view)
	}
}
