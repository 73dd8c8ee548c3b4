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

// sentImage is a user message with a real 400×300 PNG attached, as the
// composer makes it.
func sentImage(t *testing.T, id int) conversation.Message {
	t.Helper()
	a, err := api.AttachBytesContext(context.Background(), "shot.png", mediatest.PNG(t, mediatest.Screenshot(400, 300)), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return conversation.Message{ID: id, Role: api.RoleUser, Text: "what is this?", Attachments: []api.Attachment{a}}
}

func TestPicturesReserveTheirBoxAndArriveWithoutMovingAnything(t *testing.T) {
	tr := newTest(t, 80, 40)
	tr.SetPictures(true)
	msg := sentImage(t, 1)
	tr.Append(msg)
	reqs := tr.TakePictureRequests()
	if len(reqs) != 1 {
		t.Fatalf("want one picture asked for, got %d", len(reqs))
	}
	k := reqs[0].Key
	wantCols, wantRows := preview.FitCells(400, 300, pictureMaxCols, pictureMaxRows)
	if k.Cols != wantCols || k.Rows != wantRows || k.Rows < 2 {
		t.Fatalf("box %dx%d, want %dx%d", k.Cols, k.Rows, wantCols, wantRows)
	}
	if tr.TakePictureRequests() != nil {
		t.Fatal("the same picture was asked for twice")
	}
	before := tr.list.hs.get(0)

	r, err := preview.NewCache(0, 0).Render(preview.NewSource(reqs[0].Data), k.Cols, k.Rows, preview.Options{Mode: preview.Blocks, Profile: colorprofile.TrueColor, Background: color.Black})
	if err != nil {
		t.Fatal(err)
	}
	tr.SetPicture(k, r.Lines)
	if got := tr.list.hs.get(0); got != before {
		t.Fatalf("the message's height went from %d to %d when its picture arrived", before, got)
	}
	view := tr.List().View()
	if n := strings.Count(view, "▀"); n < k.Cols*(k.Rows-1) {
		t.Fatalf("the picture is not under the message (%d half blocks):\n%s", n, ansi.Strip(view))
	}
	for i, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w != 80 {
			t.Fatalf("line %d is %d cells wide, want 80", i, w)
		}
	}
	// The chip stays above the picture.
	plain := ansi.Strip(view)
	if ci, pi := strings.Index(plain, "shot.png"), strings.Index(plain, "▀"); ci < 0 || pi < ci {
		t.Fatalf("chip at %d, picture at %d:\n%s", ci, pi, plain)
	}
}

func TestPictureThatCannotBeMadeLeavesTheChip(t *testing.T) {
	tr := newTest(t, 80, 40)
	tr.SetPictures(true)
	tr.Append(sentImage(t, 1))
	reqs := tr.TakePictureRequests()
	if len(reqs) != 1 {
		t.Fatalf("want one request, got %d", len(reqs))
	}
	before := tr.list.hs.get(0)
	tr.SetPicture(reqs[0].Key, nil)
	if got := tr.list.hs.get(0); got != before-reqs[0].Key.Rows {
		t.Fatalf("height %d, want %d (the box given back)", got, before-reqs[0].Key.Rows)
	}
	if !strings.Contains(ansi.Strip(tr.List().View()), "shot.png") {
		t.Fatal("the chip is gone")
	}
}

func TestNoPicturesWhenOffOrForLinks(t *testing.T) {
	tr := newTest(t, 80, 40)
	tr.Append(sentImage(t, 1)) // pictures off: the default
	link := conversation.Message{ID: 2, Role: api.RoleUser, Text: "and this",
		Attachments: []api.Attachment{{URL: "https://example.com/cat.png", Name: "cat.png"}}}
	tr.SetPictures(true)
	tr.TakePictureRequests() // message 1, now that pictures are on
	tr.Append(link)
	if reqs := tr.TakePictureRequests(); len(reqs) != 0 {
		t.Fatalf("a link asked for a picture: %+v", reqs)
	}
	tr2 := newTest(t, 80, 40)
	tr2.Append(sentImage(t, 1))
	if reqs := tr2.TakePictureRequests(); len(reqs) != 0 {
		t.Fatal("pictures were asked for while off")
	}
	if strings.Contains(tr2.List().View(), "▀") {
		t.Fatal("a picture shows while off")
	}
}

func TestPicturesFollowTheWidth(t *testing.T) {
	tr := newTest(t, 30, 40)
	tr.SetPictures(true)
	tr.Append(sentImage(t, 1))
	reqs := tr.TakePictureRequests()
	if len(reqs) != 1 || reqs[0].Key.Cols > 30-userBarW {
		t.Fatalf("at 30 columns: %+v", reqs)
	}
	tr.SetSize(120, 40)
	reqs = tr.TakePictureRequests()
	if len(reqs) != 1 || reqs[0].Key.Cols <= 28 {
		t.Fatalf("after widening, want a wider picture asked for, got %+v", reqs)
	}
}
