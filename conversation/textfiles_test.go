package conversation

import (
	"context"
	"strings"
	"testing"

	"parley/api"
)

func textFile(t *testing.T, name, content string) api.Attachment {
	t.Helper()
	a, err := api.AttachBytesContext(context.Background(), name, []byte(content), api.AttachLimits{})
	if err != nil || !a.IsText() {
		t.Fatalf("%s: %+v, %v", name, a, err)
	}
	return a
}

// A model that cannot see images still takes text files; an earlier image
// left out for it leaves the text files of its message in.
func TestTextFilesNeedNoVision(t *testing.T) {
	cat := api.NewCatalog(nil)
	c := New(Options{})
	log := textFile(t, "app.log", "started\nfailed\n")
	turn, err := c.Begin(&UserInput{Text: "why?", Attachments: []api.Attachment{log}}, TurnOptions{Model: "llama3", Catalog: cat})
	if err != nil {
		t.Fatalf("text file to llama3: %v", err)
	}
	if turn.Built.HasImages {
		t.Fatal("a text file counted as an image")
	}
	parts := turn.Chat.Messages[0].Content.Parts
	if len(parts) != 2 || parts[0].Text != "why?" || !strings.HasPrefix(parts[1].Text, "File: app.log\n\n```text\nstarted\nfailed\n```") {
		t.Fatalf("parts %+v", parts)
	}
	c.Receive(turn, "it failed", nil, "stop")
	c.Close(turn, nil)

	// A message with a text file and an image, to a model with vision.
	turn, err = c.Begin(&UserInput{Attachments: []api.Attachment{textFile(t, "a.go", "package a"), pngAttachment()}}, TurnOptions{Model: "gpt-4o", Catalog: cat})
	if err != nil || !turn.Built.HasImages {
		t.Fatalf("gpt-4o: %v", err)
	}
	c.Receive(turn, "a package", nil, "stop")
	c.Close(turn, nil)

	// Back to llama3: the earlier image stays behind, its text file goes.
	turn, err = c.Begin(&UserInput{Text: "and?"}, TurnOptions{Model: "llama3", Catalog: cat, WithoutImages: true})
	if err != nil || turn.Built.HasImages {
		t.Fatalf("without images: %v", err)
	}
	second := turn.Chat.Messages[2].Content
	if len(second.Parts) != 1 || second.Parts[0].Type != api.PartText || !strings.HasPrefix(second.Parts[0].Text, "File: a.go") {
		t.Fatalf("the second message went as %+v", second)
	}
}
