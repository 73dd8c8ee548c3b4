package transcript

import (
	"context"
	"image/color"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/conversation"
	"parley/media/mediatest"
	"parley/ui/preview"
)

// TestAReplysImagesShowUnderItsText: the images a model made with its
// reply are drawn under the reply's text like an image turn's, each with
// the path it was saved to, when the streamed reply ends with them.
func TestAReplysImagesShowUnderItsText(t *testing.T) {
	tr := newTest(t, 80, 40)
	tr.SetPictures(true)
	a, err := api.AttachBytesContext(context.Background(), "/home/u/Pictures/parley/20261129-090000-paint-a-fox-1.png", mediatest.PNG(t, mediatest.Screenshot(300, 200)), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Append(conversation.Message{ID: 1, Role: api.RoleUser, Text: "paint a fox"})
	reply := conversation.Message{ID: 2, Parent: 1, Role: api.RoleAssistant, Model: "painter", State: conversation.StateStreaming}
	tr.Append(reply)
	tr.AppendDelta(2, "Here is a fox.")
	if reqs := tr.TakePictureRequests(); len(reqs) != 0 {
		t.Fatalf("pictures asked for before the reply ended: %d", len(reqs))
	}
	reply.Text, reply.State, reply.Attachments = "Here is a fox.", conversation.StateDone, []api.Attachment{a}
	tr.Update(reply)
	reqs := tr.TakePictureRequests()
	if len(reqs) != 1 {
		t.Fatalf("want the reply's picture asked for, got %d requests", len(reqs))
	}
	k := reqs[0].Key
	r, err := preview.NewCache(0, 0).Render(preview.NewSource(reqs[0].Data), k.Cols, k.Rows, preview.Options{Mode: preview.Blocks, Profile: colorprofile.TrueColor, Background: color.Black})
	if err != nil {
		t.Fatal(err)
	}
	tr.SetPicture(k, r.Lines)
	plain := ansi.Strip(tr.List().View())
	text, pic, path := strings.Index(plain, "Here is a fox."), strings.Index(plain, "▀"), strings.Index(plain, "paint-a-fox-1.png")
	if text < 0 || pic < text || path < pic {
		t.Fatalf("text at %d, picture at %d, path at %d:\n%s", text, pic, path, plain)
	}
}
