package chat

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
)

// pngOf encodes a w×h PNG of one colour.
func pngOf(t *testing.T, w, h int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// painter is a chat model the catalog knows to make images in its replies.
var painter = conversation.TurnOptions{Model: "gpt-4o", Catalog: api.NewCatalog([]api.Model{{Name: "gpt-4o", Caps: api.Capabilities{Vision: true, ImageOutput: true}}})}

// TestAReplysImagesAreSavedAndKept: a streamed reply's images are asked
// for (modalities), decoded whole, saved in the image folder like /image's
// and put on the reply; a damaged one is said, not kept; the next
// request sends the reply's text alone.
func TestAReplysImagesAreSavedAndKept(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	e, gw := newEngine(t, c, Options{ImageDir: dir})
	good := pngOf(t, 32, 24, color.RGBA{200, 10, 10, 255})
	cut := pngOf(t, 64, 64, color.RGBA{0, 0, 200, 255})
	cut = cut[:len(cut)-20] // the header reads, the pixels do not
	gw.Enqueue(apitest.Reply{Text: "A red square.", ReplyImages: [][]byte{good, cut}})
	r, err := e.Begin(ask("draw a red square"), painter)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(0)
	end, ok := e.Drain()
	if !ok || end.Err != nil {
		t.Fatalf("the reply did not end well: %v %v", ok, end.Err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(gw.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if string(body["modalities"]) != `["image","text"]` {
		t.Fatalf("modalities sent as %s", body["modalities"])
	}
	msg := e.Conv().At(e.Conv().Len() - 1)
	if msg.Text != "A red square." || len(msg.Attachments) != 1 {
		t.Fatalf("reply %q with %d images, want the text and one image", msg.Text, len(msg.Attachments))
	}
	a := msg.Attachments[0]
	if filepath.Dir(a.Name) != dir || !strings.Contains(filepath.Base(a.Name), "draw-a-red-square") || a.Width != 32 || a.Height != 24 {
		t.Fatalf("kept as %+v", a)
	}
	if got, err := os.ReadFile(a.Name); err != nil || !bytes.Equal(got, good) {
		t.Fatalf("the saved file: %v (%d bytes)", err, len(got))
	}
	if len(end.Reply.Images.Notes) != 1 || !strings.Contains(end.Reply.Images.Notes[0], "image 2 is a damaged PNG image") {
		t.Fatalf("notes %q", end.Reply.Images.Notes)
	}

	gw.Enqueue(apitest.Reply{Text: "ok"})
	r, err = e.Begin(ask("thanks"), painter)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(0)
	if _, ok := e.Drain(); !ok {
		t.Fatal("the second reply did not end")
	}
	if next := gw.Requests()[1]; strings.Contains(string(next.Body), "image_url") {
		t.Fatalf("the reply's image was sent back to the model: %.300s", next.Body)
	}
}

// TestCompleteKeepsAReplysImages: ask's path, streamed and not, without
// an image folder (kept with the conversation only).
func TestCompleteKeepsAReplysImages(t *testing.T) {
	img := pngOf(t, 10, 10, color.RGBA{0, 200, 0, 255})
	for _, stream := range []bool{true, false} {
		c := newClock()
		e, gw := newEngine(t, c, Options{})
		gw.Enqueue(apitest.Reply{Text: "green", ReplyImages: [][]byte{img}})
		r, err := e.Begin(ask("paint"), painter)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Complete(t.Context(), r, stream, Handlers{Text: func(string) {}, Reasoning: func(string) {}})
		if err != nil {
			t.Fatal(err)
		}
		msg := e.Conv().At(e.Conv().Len() - 1)
		if len(res.Images.Kept) != 1 || res.Images.Saved != 0 || len(msg.Attachments) != 1 || !bytes.Equal(msg.Attachments[0].Data, img) || msg.Attachments[0].Name != "image 1.png" {
			t.Fatalf("stream %v: result %+v, message images %d", stream, res.Images, len(msg.Attachments))
		}
	}
}
