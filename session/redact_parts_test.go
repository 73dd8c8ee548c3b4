package session

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api"
	"parley/conversation"
)

// TestKeysInTextFilesAreNotStored: a configured API key inside a pasted
// block or a text file is stored as [redacted], in the blob, in the
// draft's and a fork's copies and in an export, with the size, line count
// and hash of what is stored; the conversation in memory (what the
// request carries) keeps what the user sent; images are stored as they
// are.
func TestKeysInTextFilesAreNotStored(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	dir := t.TempDir()
	key := "sk-proj-pasted0123456789abcdef"
	s, err := Open(ctx, dir, Options{Now: c.now, Secrets: func() []string { return []string{key, "short"} }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := record(t, s)
	var paste strings.Builder
	for i := range 301 {
		if i == 150 {
			paste.WriteString("OPENAI_API_KEY=" + key + "\n")
			continue
		}
		paste.WriteString("line short\n")
	}
	block := api.TextAttachment("pasted-1.txt", []byte(paste.String()))
	file := api.TextAttachment("env.txt", []byte("export KEY="+key+"\nexport AGAIN="+key))
	img := imageAttachment(t, "shot.png", 8, 6, 1)
	conv := conversation.New(conversation.Options{ID: "keys", Listeners: []conversation.Listener{r}, Now: c.now})
	answer(t, conv, c, "what is in these?", "a key", block, file, img)
	r.SaveDraft(conv.ID(), "later", []api.Attachment{file})
	flush(t, r)

	if sent := conv.At(0).Attachments; !bytes.Contains(sent[0].Data, []byte(key)) || !bytes.Contains(sent[1].Data, []byte(key)) {
		t.Fatal("the conversation in memory lost what the user sent")
	}
	got, err := s.Load(ctx, "keys")
	if err != nil {
		t.Fatal(err)
	}
	stored := got.Snapshot.Messages[0].Attachments
	if len(stored) != 3 {
		t.Fatalf("%d attachments stored", len(stored))
	}
	for _, a := range stored[:2] {
		if bytes.Contains(a.Data, []byte(key)) || !bytes.Contains(a.Data, []byte("[redacted]")) {
			t.Fatalf("%s stored with the key (%d bytes)", a.Name, len(a.Data))
		}
		if a.Bytes != len(a.Data) || a.Lines != api.CountLines(a.Data) || a.SHA256 != api.HashBytes(a.Data) {
			t.Fatalf("%s: %d bytes, %d lines, hash %s do not describe what is stored", a.Name, a.Bytes, a.Lines, a.SHA256)
		}
	}
	if stored[0].Lines != 301 {
		t.Fatalf("the block has %d lines", stored[0].Lines)
	}
	if !bytes.Equal(stored[2].Data, img.Data) {
		t.Fatal("the image was changed")
	}
	if _, atts, err := s.Draft(ctx, "keys"); err != nil || len(atts) != 1 || bytes.Contains(atts[0].Data, []byte(key)) {
		t.Fatalf("draft attachments %v, err %v", atts, err)
	}
	// A fork of the conversation in memory (which holds the key) is
	// stored redacted too, and the snapshot handed in is left alone.
	snap, err := conv.Fork(conv.At(1).ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fork(ctx, snap); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(snap.Messages[0].Attachments[0].Data, []byte(key)) {
		t.Fatal("Fork changed the caller's snapshot")
	}
	out := filepath.Join(t.TempDir(), "keys.md")
	if err := s.ExportFile(ctx, "keys", out, ExportOptions{Format: FormatMarkdown}); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{dir, filepath.Dir(out)} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ".db") || strings.Contains(p, ".db-") {
				return err
			}
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(key)) {
				t.Errorf("%s holds the key", p)
			}
			return nil
		})
	}
	var raw int
	s.db.QueryRow("SELECT count(*) FROM parts WHERE sha256 = ?", block.SHA256).Scan(&raw)
	if raw != 0 {
		t.Fatal("a part still names the blob of the text with the key")
	}
}
