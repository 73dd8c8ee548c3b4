package session

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// TestImageTurnRoundTrip: an image turn made in the chat is saved with its
// images (by hash, in the blobs folder) and how they were asked for, comes
// back when the session is reopened, and is never part of a chat request.
func TestImageTurnRoundTrip(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{ID: "0190bbbb", Listeners: []conversation.Listener{r}, Now: c.now})
	answer(t, conv, c, "hello", "hi")
	id, err := conv.StartImages("a red fox in snow", "gpt-image-1", conversation.ImageTurn{Size: "1024x1024", N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conv.AddUser("meanwhile", nil); err == nil {
		t.Fatal("a message was added while images were being made")
	}
	flush(t, r) // the turn in progress is saved too
	imgs := []api.Attachment{imageAttachment(t, "/p/fox-1.png", 16, 16, 3), imageAttachment(t, "/p/fox-2.png", 16, 16, 4)}
	if err := conv.FinishImages(id, imgs, []string{"saved as JPEG"}); err != nil {
		t.Fatal(err)
	}
	flush(t, r)

	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(comparable(got.Snapshot.Messages), comparable(conv.Snapshot().Messages)) {
		t.Fatalf("messages differ:\n got %+v\nwant %+v", comparable(got.Snapshot.Messages), comparable(conv.Snapshot().Messages))
	}
	turn := got.Snapshot.Messages[2]
	if !turn.IsImages() || turn.Image.N != 2 || turn.Image.Notes[0] != "saved as JPEG" || len(turn.Attachments) != 2 {
		t.Fatalf("image turn %+v", turn)
	}
	req := conv.BuildRequest(conversation.RequestOptions{})
	for _, m := range req.Messages {
		if m.Role != api.RoleUser && m.Role != api.RoleAssistant {
			t.Fatalf("a %q message went into a chat request", m.Role)
		}
	}
	if len(req.Messages) != 2 {
		t.Fatalf("request has %d messages, want the 2 of the chat", len(req.Messages))
	}

	// The export copies the images next to the Markdown and names the turn.
	out := filepath.Join(t.TempDir(), "fox.md")
	if err := s.ExportFile(context.Background(), conv.ID(), out, ExportOptions{Format: FormatMarkdown, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(out)
	if !strings.Contains(string(md), "### Images by gpt-image-1") || strings.Count(string(md), "](fox-images/") != 2 {
		t.Fatalf("export:\n%s", md)
	}
	entries, _ := os.ReadDir(filepath.Join(filepath.Dir(out), "fox-images"))
	if len(entries) != 2 {
		t.Fatalf("%d images copied, want 2", len(entries))
	}
}

// TestReplyImagesRoundTrip: the images a model made with its reply are
// stored with the reply (by hash, like every image) and come back with it
// when the session is reopened.
func TestReplyImagesRoundTrip(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{ID: "0190cccc", Listeners: []conversation.Listener{r}, Now: c.now})
	turn, err := conv.Begin(&conversation.UserInput{Text: "paint a fox"}, conversation.TurnOptions{Model: "painter"})
	if err != nil {
		t.Fatal(err)
	}
	flush(t, r) // the reply in progress is stored without images
	conv.Receive(turn, "Here is a fox.", nil, "stop")
	img := imageAttachment(t, "/p/paint-a-fox-1.png", 16, 12, 5)
	if !conv.AddReplyImages(turn, []api.Attachment{img}) {
		t.Fatal("the reply in flight took no images")
	}
	if err := conv.Close(turn, nil); err != nil {
		t.Fatal(err)
	}
	flush(t, r)

	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	reply := got.Snapshot.Messages[len(got.Snapshot.Messages)-1]
	if reply.Role != api.RoleAssistant || reply.Text != "Here is a fox." || len(reply.Attachments) != 1 {
		t.Fatalf("reopened reply %+v", reply)
	}
	if a := reply.Attachments[0]; a.Name != img.Name || a.SHA256 != img.SHA256 || a.Width != 16 || a.Height != 12 || len(a.Data) != len(img.Data) {
		t.Fatalf("reopened image %+v", a)
	}
}
