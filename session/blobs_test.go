package session

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"sort"
	"testing"

	"parley/api"
	"parley/conversation"
)

// TestScreenshotSentFiveTimesIsStoredOnce: image bytes live once by hash,
// whatever refers to them (messages of two sessions, a draft, a generated
// image), and go when nothing does.
func TestScreenshotSentFiveTimesIsStoredOnce(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	ctx := context.Background()
	shot := imageAttachment(t, "shot.png", 32, 20, 1)
	other := imageAttachment(t, "other.png", 32, 20, 2)
	a := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	for i := 0; i < 4; i++ {
		answer(t, a, c, "again", "same picture", shot)
	}
	b := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	answer(t, b, c, "once more", "yes", shot, other)
	flush(t, r)
	want := []string{HashBytes(shot.Data), HashBytes(other.Data)}
	sort.Strings(want)
	if got := sortedBlobs(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("blobs %v, want %v (one per distinct image)", got, want)
	}
	// Deleting a: the screenshot is still used by b.
	if n, err := s.Delete(ctx, a.ID()); err != nil || n != 1 {
		t.Fatalf("Delete = %d, %v", n, err)
	}
	if got := sortedBlobs(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("after deleting a: %v", got)
	}
	// A draft and a generated image hold on to "other" after b goes.
	if err := s.SaveDraft(ctx, "d1", "draft", []api.Attachment{other}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddGeneratedImage(ctx, GeneratedImage{Prompt: "p", Model: "gpt-image-1", Data: shot.Data, MIME: "image/png"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete(ctx, b.ID()); err != nil {
		t.Fatal(err)
	}
	if got := sortedBlobs(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("after deleting b: %v, want both kept", got)
	}
	// Emptying the draft frees "other"; the generated image keeps "shot".
	if err := s.SaveDraft(ctx, "d1", "", nil); err != nil {
		t.Fatal(err)
	}
	if got := sortedBlobs(t, dir); !reflect.DeepEqual(got, []string{HashBytes(shot.Data)}) {
		t.Fatalf("after emptying the draft: %v", got)
	}
	if n, _ := s.Count(ctx); n != 0 {
		t.Fatalf("%d sessions listed after everything was deleted", n)
	}
}

// TestEditKeepsAndRemovalFreesAnImage: edit and resend keeps the message
// with the image in its branch, so the image stays; a message dropped
// from the tree (RemoveLast) takes its image with it.
func TestEditKeepsAndRemovalFreesAnImage(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	answer(t, conv, c, "look", "ok", imageAttachment(t, "a.png", 10, 10, 3))
	flush(t, r)
	if n := len(blobFiles(t, dir)); n != 1 {
		t.Fatalf("%d blobs", n)
	}
	tn, err := conv.Begin(&conversation.UserInput{Text: "never mind", EditOf: 1}, conversation.TurnOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	conv.Close(tn, nil)
	flush(t, r)
	if n := len(blobFiles(t, dir)); n != 1 {
		t.Fatalf("%d blobs after the edit, want the earlier branch's image", n)
	}
	id, _ := conv.AddUser("another", []api.Attachment{imageAttachment(t, "b.png", 10, 10, 4)})
	flush(t, r)
	if n := len(blobFiles(t, dir)); n != 2 || !conv.RemoveLast(id) {
		t.Fatalf("%d blobs", n)
	}
	flush(t, r)
	if n := len(blobFiles(t, dir)); n != 1 {
		t.Fatalf("%d blobs after the removal", n)
	}
}

// TestMissingBlobStillOpens: a blob removed behind parley's back leaves
// the message readable, the image without bytes.
func TestMissingBlobStillOpens(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	img := imageAttachment(t, "a.png", 10, 10, 4)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	answer(t, conv, c, "look", "ok", img)
	flush(t, r)
	os.Remove(s.BlobPath(HashBytes(img.Data)))
	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	a := got.Snapshot.Messages[0].Attachments[0]
	if a.Data != nil || a.URL != "" || a.Name != "a.png" || a.Width != 10 {
		t.Fatalf("attachment %+v", a)
	}
}

// TestBlobRemovedDuringAWriteIsWrittenAgain: a collection that runs
// between a blob's write and the commit of the row that refers to it
// (another process deleting a session) cannot leave that row dangling.
func TestBlobRemovedDuringAWriteIsWrittenAgain(t *testing.T) {
	s, _ := openStore(t, newClock())
	data := pngBytes(t, 5, 5, 5)
	h := HashBytes(data)
	b := blobs{h: data}
	if err := s.folder.put(b); err != nil {
		t.Fatal(err)
	}
	// The other process collects: nothing refers to the blob yet.
	if err := s.collect(context.Background(), []string{h}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.BlobPath(h)); !os.IsNotExist(err) {
		t.Fatalf("blob not collected: %v", err)
	}
	// The writer commits its row, then makes sure.
	if err := s.folder.ensure(b); err != nil {
		t.Fatal(err)
	}
	if got, err := s.folder.readBlob(h); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("blob after ensure: %v", err)
	}
}

func TestDraftRoundTrip(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	ctx := context.Background()
	img := imageAttachment(t, "d.png", 12, 9, 6)
	link := linkAttachment("https://example.com/x.png")
	if err := s.SaveDraft(ctx, "s1", "half a thought", []api.Attachment{img, link}); err != nil {
		t.Fatal(err)
	}
	text, atts, err := s.Draft(ctx, "s1")
	if err != nil || text != "half a thought" || !reflect.DeepEqual(atts, []api.Attachment{img, link}) {
		t.Fatalf("Draft = %q %+v %v", text, atts, err)
	}
	// A draft-only session is listed (and is the latest), so --continue
	// finds what was being typed.
	latest, err := s.Latest(ctx)
	if err != nil || latest.ID != "s1" || !latest.HasDraft || latest.Messages != 0 {
		t.Fatalf("Latest = %+v, %v", latest, err)
	}
	// Replacing keeps only the new draft.
	s.SaveDraft(ctx, "s1", "whole thought", nil)
	if text, atts, _ := s.Draft(ctx, "s1"); text != "whole thought" || atts != nil {
		t.Fatalf("replaced draft %q %+v", text, atts)
	}
	if text, atts, err := s.Draft(ctx, "unknown"); text != "" || atts != nil || err != nil {
		t.Fatalf("draft of an unknown session: %q %v %v", text, atts, err)
	}
	// A session with messages keeps them when its draft is emptied.
	r := record(t, s)
	conv := chat(t, r, c, "s2", "q", "a")
	flush(t, r)
	s.SaveDraft(ctx, conv.ID(), "next", nil)
	s.SaveDraft(ctx, conv.ID(), "", nil)
	if m, err := s.Get(ctx, conv.ID()); err != nil || m.Messages != 2 || m.HasDraft {
		t.Fatalf("after emptying the draft: %+v %v", m, err)
	}
}

func TestGeneratedImages(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	ctx := context.Background()
	data := pngBytes(t, 16, 16, 7)
	id, err := s.AddGeneratedImage(ctx, GeneratedImage{SessionID: "s1", Prompt: "a lighthouse", Model: "gpt-image-1",
		Size: "1024x1024", Path: "/pics/lighthouse.png", MIME: "image/png", Width: 16, Height: 16, Data: data})
	if err != nil || id == 0 {
		t.Fatalf("AddGeneratedImage = %d, %v", id, err)
	}
	s.AddGeneratedImage(ctx, GeneratedImage{Prompt: "outside", Model: "m", Data: data})
	got, err := s.GeneratedImages(ctx, "s1")
	if err != nil || len(got) != 1 {
		t.Fatalf("GeneratedImages = %+v, %v", got, err)
	}
	g := got[0]
	if g.Prompt != "a lighthouse" || g.Size != "1024x1024" || g.Path != "/pics/lighthouse.png" || g.SHA256 != HashBytes(data) ||
		!bytes.Equal(g.Data, data) || g.Bytes != len(data) || !g.Created.Equal(c.now()) {
		t.Fatalf("generated image %+v", g)
	}
	if loose, _ := s.GeneratedImages(ctx, ""); len(loose) != 1 || loose[0].Prompt != "outside" {
		t.Fatalf("images outside sessions: %+v", loose)
	}
	if _, err := s.AddGeneratedImage(ctx, GeneratedImage{Prompt: "empty"}); err == nil {
		t.Fatal("an image without bytes was recorded")
	}
}

func sortedBlobs(t *testing.T, dir string) []string {
	got := blobFiles(t, dir)
	sort.Strings(got)
	return got
}

// TestRecorderDraftsAndSending: the chat saves its draft through the
// recorder without blocking; sending the message clears it (its image is
// then kept by the message, not twice).
func TestRecorderDraftsAndSending(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	ctx := context.Background()
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	img := imageAttachment(t, "a.png", 9, 9, 11)
	r.SaveDraft(conv.ID(), "wha", nil)
	r.SaveDraft(conv.ID(), "what is", []api.Attachment{img})
	flush(t, r)
	if text, atts, err := s.Draft(ctx, conv.ID()); err != nil || text != "what is" || len(atts) != 1 {
		t.Fatalf("draft %q %d %v", text, len(atts), err)
	}
	if m, _ := s.Latest(ctx); m.ID != conv.ID() || !m.HasDraft {
		t.Fatalf("a new chat's draft is not listed: %+v", m)
	}
	conv.AddUser("what is this?", []api.Attachment{img})
	flush(t, r)
	if text, atts, _ := s.Draft(ctx, conv.ID()); text != "" || atts != nil {
		t.Fatalf("draft after sending: %q %+v", text, atts)
	}
	if n := len(blobFiles(t, dir)); n != 1 {
		t.Fatalf("%d blobs, want the image once (now the message's)", n)
	}
	if m, _ := s.Get(ctx, conv.ID()); m.HasDraft || m.Messages != 1 {
		t.Fatalf("meta %+v", m)
	}
	r.Close()
	r.SaveDraft(conv.ID(), "after close", nil) // dropped, no panic
}
