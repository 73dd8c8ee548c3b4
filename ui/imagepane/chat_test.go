package imagepane

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"runtime"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
	"parley/media/mediatest"
	"parley/ui/sidepane"
)

// The pane is a side pane that takes the keys and pictures.
var _ sidepane.Focusable = (*Pane)(nil)
var _ sidepane.PictureWanter = (*Pane)(nil)

// attachment is a real PNG of w×h pixels in one colour, attached as the
// chat attaches a file (its hash, size and format read from the bytes).
func attachment(t testing.TB, name string, w, h int, c color.RGBA) api.Attachment {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, c)
		}
	}
	a, err := api.AttachBytesContext(context.Background(), name, mediatest.PNG(t, img), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// clock is a conversation's clock that moves a minute each reading.
func clock() func() time.Time {
	t := base
	return func() time.Time { t = t.Add(time.Minute); return t }
}

// chatWithImages is a conversation with an image the user sent, one an
// image model made, and one it made from that (an edit).
func chatWithImages(t *testing.T) (*conversation.Conversation, []api.Attachment) {
	t.Helper()
	conv := conversation.New(conversation.Options{Now: clock()})
	sent := attachment(t, "sent.png", 40, 30, color.RGBA{200, 0, 0, 255})
	if _, err := conv.AddUser("look", []api.Attachment{sent}); err != nil {
		t.Fatal(err)
	}
	made := attachment(t, "/pics/fox.png", 32, 32, color.RGBA{0, 200, 0, 255})
	id, err := conv.StartImages("a fox", "gpt-image-1", conversation.ImageTurn{Size: "1024x1024", N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := conv.FinishImages(id, []api.Attachment{made}, nil); err != nil {
		t.Fatal(err)
	}
	edited := attachment(t, "/pics/fox-night.png", 32, 32, color.RGBA{0, 0, 200, 255})
	id, err = conv.StartImages("at night", "gpt-image-1", conversation.ImageTurn{N: 1, From: "/pics/fox.png"})
	if err != nil {
		t.Fatal(err)
	}
	if err := conv.FinishImages(id, []api.Attachment{edited}, nil); err != nil {
		t.Fatal(err)
	}
	return conv, []api.Attachment{sent, made, edited}
}

func TestShowListsTheChatsImages(t *testing.T) {
	conv, imgs := chatWithImages(t)
	next := attachment(t, "next.png", 20, 10, color.RGBA{9, 9, 9, 255})
	notes, err := api.AttachBytesContext(context.Background(), "notes.md", []byte("# notes\n"), api.AttachLimits{})
	if err != nil || !notes.IsText() {
		t.Fatalf("a text file attached as %+v, %v", notes, err)
	}
	p := newPane(t, "/home/u")
	p.SetSize(120, 40)
	p.Show(sidepane.Input{
		Conv: conv, Pending: []api.Attachment{next, notes}, Now: base.Add(time.Hour),
		Stored: func(hash string) string { return "/data/blobs/" + hash },
	}, true)
	// Newest first: the composer's image, the edit, the generation, the
	// one sent; the text file is not an image.
	want := []string{next.SHA256, imgs[2].SHA256, imgs[1].SHA256, imgs[0].SHA256}
	if got := keysOf(p); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("the pane lists %q, want %q", got, want)
	}
	pending, edit, gen, sent := p.items[0], p.items[1], p.items[2], p.items[3]
	if pending.Origin != Attached || pending.Name != "next message: next.png" || pending.Path != "" {
		t.Errorf("the composer's image is listed as %+v", pending)
	}
	if edit.Origin != Edited || edit.From != "/pics/fox.png" || edit.Prompt != "at night" || edit.Path != "/pics/fox-night.png" {
		t.Errorf("the edit is listed as %+v", edit)
	}
	if gen.Origin != Generated || gen.Prompt != "a fox" || gen.Model != "gpt-image-1" || gen.Size != "1024x1024" || gen.Path != "/pics/fox.png" {
		t.Errorf("the generated image is listed as %+v", gen)
	}
	if sent.Origin != Attached || !sent.Kept || sent.Path != "/data/blobs/"+imgs[0].SHA256 || sent.DisplayName() != "sent.png" {
		t.Errorf("the image sent is listed as %+v", sent)
	}
	frame, _, _ := p.Draw()
	checkFrame(t, frame, 120, 40)
	for _, s := range []string{"1 of 4", "▸+ next mess", "✎ fox-night.png", "✦ fox.png", "+ sent.png", "+ Attached", "pasted, not saved yet"} {
		if !strings.Contains(plain(frame), s) {
			t.Errorf("the pane does not show %q:\n%s", s, plain(frame))
		}
	}
}

// The items are made again only when what they are made from changed:
// a frame that changed nothing makes none.
func TestShowMakesItemsOnlyWhenTheChatChanged(t *testing.T) {
	conv, _ := chatWithImages(t)
	p := newPane(t, "/home/u")
	in := sidepane.Input{Conv: conv, Now: base}
	p.Show(in, false)
	gen := p.gen
	in.Now = base.Add(time.Hour) // the clock alone changes nothing
	p.Show(in, true)
	if p.gen != gen {
		t.Fatal("a Show with the same conversation made the items again")
	}
	in.Pending = []api.Attachment{attachment(t, "next.png", 8, 8, color.RGBA{1, 2, 3, 255})}
	p.Show(in, true)
	if p.gen == gen || p.Len() != 4 {
		t.Fatalf("an image in the composer is not listed (%d items)", p.Len())
	}
	gen = p.gen
	if _, err := conv.AddUser("more", []api.Attachment{attachment(t, "more.png", 8, 8, color.RGBA{4, 5, 6, 255})}); err != nil {
		t.Fatal(err)
	}
	p.Show(in, true)
	if p.gen == gen || p.Len() != 5 {
		t.Fatalf("an image sent is not listed (%d items)", p.Len())
	}
	other, _ := chatWithImages(t)
	in.Conv, in.Pending = other, nil
	p.Show(in, true)
	if p.Len() != 3 {
		t.Fatalf("another conversation's images are not listed (%d items)", p.Len())
	}
}

// longChat is a conversation of n text messages after one image.
func longChat(t testing.TB, n int) *conversation.Conversation {
	t.Helper()
	conv := conversation.New(conversation.Options{Now: clock()})
	if _, err := conv.AddUser("see", []api.Attachment{attachment(t, "a.png", 8, 8, color.RGBA{7, 7, 7, 255})}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := conv.AddUser("message "+string(rune('a'+i%26)), nil); err != nil {
			t.Fatal(err)
		}
	}
	return conv
}

// allocated is how many bytes f allocates, on average over runs.
func allocated(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// Making the items and finding an image's bytes walk the conversation's
// own messages: neither copies it (a copy of 3,000 messages is about a
// megabyte), and a Show that changed nothing reads one message.
func TestTheConversationIsNotCopied(t *testing.T) {
	conv := longChat(t, 3000)
	key := conv.At(0).Attachments[0].SHA256
	// The first walk brings each message's place among its alternatives
	// up to date (once: the conversation keeps it).
	itemsOf(conv, nil, base, nil)
	if n := allocated(5, func() { itemsOf(conv, nil, base, nil) }); n > 16<<10 {
		t.Errorf("making the items allocates %d bytes for a conversation of 3,000 messages", n)
	}
	if n := allocated(5, func() { findImage(conv, nil, key) }); n > 16<<10 {
		t.Errorf("finding an image allocates %d bytes in a conversation of 3,000 messages", n)
	}
	p := newPane(t, "/home/u")
	in := sidepane.Input{Conv: conv, Now: base}
	p.Show(in, true)
	if n := testing.AllocsPerRun(20, func() { p.Show(in, true) }); n > 2 {
		t.Errorf("a Show that changed nothing allocates %v times with 3,000 messages", n)
	}
}

// The pane names the preview its selection needs once, shows it when it
// comes, asks again when the work was stopped, shows why when it failed,
// and asks for none with previews off.
func TestPreviewIsAskedForOnceAndShown(t *testing.T) {
	conv, imgs := chatWithImages(t)
	p := newPane(t, "/home/u")
	p.SetSize(120, 40)
	p.Show(sidepane.Input{Conv: conv, Now: base}, true)
	if _, ok := p.WantedPicture(); ok {
		t.Fatal("a picture is wanted before the pane was drawn")
	}
	p.Draw()
	req, ok := p.WantedPicture()
	_, _, pw, ph := p.previewArea(120, 40)
	if !ok || req.W != pw || req.H != ph || !bytes.Equal(req.Src.Data, imgs[2].Data) {
		t.Fatalf("the pane wants %+v (%v), want the edit's bytes at %dx%d", req.Key, ok, pw, ph)
	}
	p.Draw()
	if _, again := p.WantedPicture(); again {
		t.Fatal("the picture being made is asked for again")
	}
	// Stopped (its conversation was left): asked for again.
	p.TakePicture(sidepane.Picture{Key: req.Key, Stopped: true})
	p.Draw()
	if again, ok := p.WantedPicture(); !ok || again.Key != req.Key {
		t.Fatal("a stopped picture is not asked for again")
	}
	p.TakePicture(sidepane.Picture{Key: req.Key, Lines: halfBlocks(req.W, req.H)})
	frame, _, _ := p.Draw()
	if strings.Count(frame, "▀") < req.W*req.H {
		t.Fatalf("the preview is not shown:\n%s", plain(frame))
	}
	if _, ok := p.WantedPicture(); ok {
		t.Fatal("the picture shown is asked for again")
	}
	// Another image: its own preview, the last one no longer shown.
	handle(p, press("down"))
	frame, _, _ = p.Draw()
	next, ok := p.WantedPicture()
	if !ok || next.Key == req.Key || !bytes.Equal(next.Src.Data, imgs[1].Data) || strings.Contains(frame, "▀") {
		t.Fatalf("after a move the pane wants %q (%v) and shows the old preview %v", next.Key, ok, strings.Contains(frame, "▀"))
	}
	p.TakePicture(sidepane.Picture{Key: next.Key, Failed: "cannot decode the image: it is cut short"})
	if frame, _, _ := p.Draw(); !strings.Contains(plain(frame), "cannot decode the image") {
		t.Fatalf("the failure is not shown where the preview goes:\n%s", plain(frame))
	}

	off := New(testCtx(t, false), Dirs{}, false)
	off.SetSize(120, 40)
	off.Show(sidepane.Input{Conv: conv, Now: base}, true)
	off.Draw()
	if _, ok := off.WantedPicture(); ok {
		t.Fatal("a pane with previews off asks for a picture")
	}
}

// What the pane chooses carries the image's bytes, found among what the
// chat showed it; a paste is its own only while the save prompt is open.
func TestChosenCarriesTheImage(t *testing.T) {
	conv, imgs := chatWithImages(t)
	next := attachment(t, "next.png", 20, 10, color.RGBA{9, 9, 9, 255})
	p := newPane(t, "/home/u")
	p.Show(sidepane.Input{Conv: conv, Pending: []api.Attachment{next}, Now: base.Add(time.Hour)}, true)
	for _, c := range []struct {
		keys []string
		want api.Attachment
	}{{[]string{"a"}, next}, {[]string{"down", "a"}, imgs[2]}, {[]string{"G", "a"}, imgs[0]}} {
		var got outcome
		for _, k := range c.keys {
			got, _ = handle(p, press(k))
		}
		if got.kind != "attach" || !bytes.Equal(got.chosen.Image.Data, c.want.Data) || got.chosen.Item.Key != c.want.SHA256 {
			t.Fatalf("%v chose %s of %q", c.keys, got.kind, got.chosen.Item.Key)
		}
		if a, ok := p.SelectedImage(); !ok || a.SHA256 != c.want.SHA256 {
			t.Fatalf("%v: the selected image is %q", c.keys, a.SHA256)
		}
	}
	if p.Binds(pasteOf("x")) {
		t.Fatal("the pane takes a paste without its save prompt")
	}
	handle(p, press("s"))
	if !p.Binds(pasteOf("x")) || !p.Binds(press("q")) {
		t.Fatal("the save prompt does not take a paste and every key")
	}
}
