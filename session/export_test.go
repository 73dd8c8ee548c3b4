package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// exportSession records a session with every kind of content an export
// shows: a system prompt, a stored image and a linked one, usage, an
// interrupted and a failed reply, a generated image. Times are fixed.
func exportSession(t *testing.T) (*Store, string, []byte) {
	t.Helper()
	fixed := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	dir := filepath.Join(t.TempDir(), "parley")
	s := openIn(t, dir, nil)
	s.now = func() time.Time { return fixed }
	r := record(t, s)
	c := newClock()
	conv := conversation.New(conversation.Options{ID: "0190f0a1b2c3d4e5f60718293a4b5c6d", SystemPrompt: "Answer briefly.\nUse metric units.",
		Listeners: []conversation.Listener{r}, Now: c.now})
	img := imageAttachment(t, "My Chart (final).png", 8, 6, 9)
	answer(t, conv, c, "What does this chart show?", "A **rising** line:\n\n| year | value |\n|---|---|\n| 2025 | 3 |\n", img, linkAttachment("https://example.com/cat.png"))
	conv.AddUser("And the same chart again?", []api.Attachment{img})
	id, _ := conv.StartReply("gpt-4o")
	conv.AppendDelta(id, "The same line, cut")
	conv.Interrupt(id)
	conv.AddUser("Try once more", nil)
	id, _ = conv.StartReply("gpt-4o-mini")
	conv.Fail(id, "the gateway answered 503: overloaded")
	// A text file, and a reply that thought first, under a role.
	conv.SetRole("analyst")
	temp, _ := api.ParseParam("temperature", "0.2")
	conv.SetParams(temp)
	notes, err := api.AttachBytesContext(context.Background(), "data notes.csv", []byte("year,value\n2025,3\n"), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	conv.AddUser("And this file?", []api.Attachment{notes})
	id, _ = conv.StartReply("o3")
	conv.AppendReasoning(id, "One row: 2025 is 3.\nSay so.")
	c.advance(4200 * time.Millisecond)
	conv.AppendReasoning(id, " Briefly.")
	conv.AppendDelta(id, "One row: **3** in 2025.")
	conv.Finish(id, "stop", &api.Usage{PromptTokens: 20, CompletionTokens: 400, TotalTokens: 420, CompletionTokensDetails: &api.TokensDetails{ReasoningTokens: 380}})
	conv.SetTitle("Chart questions")
	flush(t, r)
	if _, err := s.AddGeneratedImage(context.Background(), GeneratedImage{SessionID: conv.ID(), Prompt: "a lighthouse at dusk",
		Model: "gpt-image-1", Size: "1024x1024", Path: "/home/u/Pictures/lighthouse.png", MIME: "image/png", Width: 8, Height: 6,
		Data: pngBytes(t, 8, 6, 10), Created: fixed}); err != nil {
		t.Fatal(err)
	}
	return s, conv.ID(), img.Data
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *updateFixtures {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to write it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestExportMarkdownGolden(t *testing.T) {
	s, id, img := exportSession(t)
	out := filepath.Join(t.TempDir(), "chat.md")
	if err := s.ExportFile(context.Background(), id, out, ExportOptions{Format: FormatMarkdown, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	golden(t, "export.md", got)
	// The image is copied once next to the file, under the name the
	// Markdown links to.
	copied, err := os.ReadFile(filepath.Join(filepath.Dir(out), "chat-images", "My-Chart--final-"+HashBytes(img)[:8]+".png"))
	if err != nil || !bytes.Equal(copied, img) {
		t.Fatalf("copied image: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(filepath.Dir(out), "chat-images"))
	if len(entries) != 3 {
		t.Fatalf("%d files in the images folder, want 3 (the chart once, the text file, the generated image)", len(entries))
	}
	// The text file is copied under its own extension.
	csv, err := os.ReadFile(filepath.Join(filepath.Dir(out), "chat-images", "data-notes-a90b82c9.csv"))
	if err != nil || string(csv) != "year,value\n2025,3\n" {
		t.Fatalf("copied text file %q, %v", csv, err)
	}
	if !strings.Contains(string(got), "](chat-images/My-Chart--final-") {
		t.Fatal("the image is not linked relatively")
	}
}

func TestExportJSONGolden(t *testing.T) {
	s, id, _ := exportSession(t)
	out := filepath.Join(t.TempDir(), "chat.json")
	if err := s.ExportFile(context.Background(), id, out, ExportOptions{Format: FormatJSON, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	golden(t, "export.json", got)
	var doc jsonSession
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	file := doc.Messages[0].Attachments[0].File
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), filepath.FromSlash(file))); err != nil {
		t.Fatalf("the JSON's file reference %q does not exist: %v", file, err)
	}
}

// TestExportToAWriterLinksTheBlobs: without a file to put images next to,
// the export refers to parley's own copies.
func TestExportToAWriterLinksTheBlobs(t *testing.T) {
	s, id, img := exportSession(t)
	var md bytes.Buffer
	if err := s.Export(context.Background(), id, &md, ExportOptions{Format: FormatMarkdown}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "]("+s.BlobPath(HashBytes(img))+")") {
		t.Fatalf("no link to the blob:\n%s", md.String())
	}
	os.Remove(s.BlobPath(HashBytes(img)))
	md.Reset()
	s.Export(context.Background(), id, &md, ExportOptions{Format: FormatMarkdown})
	if !strings.Contains(md.String(), "*(image My Chart (final).png: its stored copy is missing)*") {
		t.Fatalf("missing image not said:\n%s", md.String())
	}
	if err := s.Export(context.Background(), id, &md, ExportOptions{Format: "pdf"}); err == nil || !strings.Contains(err.Error(), "md or json") {
		t.Fatalf("unknown format: %v", err)
	}
}

func TestWriteJSONEscapesTerminalControls(t *testing.T) {
	var b bytes.Buffer
	WriteJSON(&b, map[string]string{"t": "a\x1b[2J\u009b\u202e\x7fé"})
	if got := b.String(); !strings.Contains(got, `a\u001b[2J\u009b\u202e\u007fé`) {
		t.Fatalf("got %s", got)
	}
	var back map[string]string
	json.Unmarshal(b.Bytes(), &back)
	if back["t"] != "a\x1b[2J\u009b\u202e\x7fé" {
		t.Fatalf("the value changed: %q", back["t"])
	}
}

// TestExportFileNeverReplacesNorFollowsLinks: an export over an existing
// file, a link to a file, or a dangling link is refused (fs.ErrExist, and
// os.IsExist for the chat's /export) and changes nothing: the link's
// target is neither written nor created. With Force the file or the link
// itself is replaced, never its target. Files are 0600, the images
// folder 0700, and an images folder that is a link is refused.
func TestExportFileNeverReplacesNorFollowsLinks(t *testing.T) {
	s, id, _ := exportSession(t)
	ctx := context.Background()
	dir := t.TempDir()
	md := ExportOptions{Format: FormatMarkdown}
	path := filepath.Join(dir, "chat.md")
	if err := s.ExportFile(ctx, id, path, md); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, filepath.Join(dir, "chat-images")} {
		st, _ := os.Stat(p)
		entries, _ := os.ReadDir(filepath.Join(dir, "chat-images"))
		if p == path && st.Mode().Perm() != 0o600 || p != path && st.Mode().Perm() != 0o700 || len(entries) != 3 {
			t.Fatalf("%s: mode %v", p, st.Mode())
		}
		for _, e := range entries {
			if info, _ := e.Info(); info.Mode().Perm() != 0o600 {
				t.Fatalf("image %s: mode %v", e.Name(), info.Mode())
			}
		}
	}
	// The same path again: refused, the file untouched.
	os.WriteFile(path, []byte("my notes"), 0o600)
	err := s.ExportFile(ctx, id, path, md)
	if !errors.Is(err, fs.ErrExist) || !os.IsExist(err) {
		t.Fatalf("over a file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "my notes" {
		t.Fatalf("the file was changed: %q", b)
	}
	// A dangling link: refused, its target not created.
	target := filepath.Join(dir, "elsewhere", "target.md")
	os.Mkdir(filepath.Dir(target), 0o700)
	link := filepath.Join(dir, "link.md")
	os.Symlink(target, link)
	if err := s.ExportFile(ctx, id, link, md); !os.IsExist(err) {
		t.Fatalf("over a dangling link: %v", err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the link's target was created: %v", err)
	}
	// Force: the link itself is replaced by the export, the target stays
	// absent; a file is replaced.
	force := ExportOptions{Format: FormatMarkdown, Force: true}
	if err := s.ExportFile(ctx, id, link, force); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
		t.Fatalf("after --force the link is %v, %v", st.Mode(), err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the link's target was created by --force")
	}
	if err := s.ExportFile(ctx, id, path, force); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), "# Chart questions") {
		t.Fatalf("not replaced: %q", b[:20])
	}
	// An images folder that is a link elsewhere is refused.
	os.Symlink(filepath.Dir(target), filepath.Join(dir, "other-images"))
	if err := s.ExportFile(ctx, id, filepath.Join(dir, "other.md"), md); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("images folder as a link: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(target)); len(entries) != 0 {
		t.Fatalf("images were written through the link: %v", entries)
	}
	if err := s.ExportFile(ctx, id, dir, force); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatalf("export to a folder: %v", err)
	}
}

// TestMarkdownExportIsInertInATerminal: escape sequences and control
// characters of a reply (and numeric references to them) are visible
// placeholders in the Markdown export, as on screen.
func TestMarkdownExportIsInertInATerminal(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "hi \x1b]0;title\x07", "ok \x1b[2J\x1b]52;c;cGF3bmVk\x07 and &#27;[31m red \u009b1m \u202egnp.exe")
	flush(t, r)
	out := filepath.Join(t.TempDir(), "chat.md")
	if err := s.ExportFile(context.Background(), conv.ID(), out, ExportOptions{Format: FormatMarkdown}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	got := string(b)
	if strings.ContainsAny(got, "\x1b\x07\u009b\u202e") || strings.Contains(got, "&#27;") {
		t.Fatalf("raw control characters in the export: %q", got)
	}
	for _, want := range []string{"ok ␛[2J␛]52;c;cGF3bmVk␇ and", "hi ␛]0;title␇", "⟨U+202E⟩gnp.exe"} {
		if !strings.Contains(got, want) {
			t.Errorf("export lacks %q:\n%s", want, got)
		}
	}
}

// treeExport records branchy (with its first turn left out) at fixed
// times for the tree's golden exports.
func treeExport(t *testing.T) (*Store, *conversation.Conversation) {
	t.Helper()
	fixed := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	s := openIn(t, filepath.Join(t.TempDir(), "parley"), nil)
	s.now = func() time.Time { return fixed }
	r := record(t, s)
	conv := branchy(t, r, newClock(), "0190f0a1b2c3d4e5f60718293a4b5c70")
	conv.SetExcluded(1, true)
	conv.SetRole("zoologist")
	temp, _ := api.ParseParam("temperature", "0.5")
	conv.SetParams(temp)
	flush(t, r)
	return s, conv
}

// TestExportTreeGolden: the default export is the active path, saying
// how many branches there are and which messages have alternatives;
// --all-branches writes a section per branch (Markdown) or every message
// with its parent (JSON).
func TestExportTreeGolden(t *testing.T) {
	s, conv := treeExport(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts ExportOptions
	}{
		{"export-tree.md", ExportOptions{Format: FormatMarkdown}},
		{"export-tree-all.md", ExportOptions{Format: FormatMarkdown, AllBranches: true}},
		{"export-tree.json", ExportOptions{Format: FormatJSON}},
		{"export-tree-all.json", ExportOptions{Format: FormatJSON, AllBranches: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Location = time.UTC
			var b bytes.Buffer
			if err := s.Export(ctx, conv.ID(), &b, tc.opts); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
	var doc jsonSession
	var b bytes.Buffer
	s.Export(ctx, conv.ID(), &b, ExportOptions{Format: FormatJSON, AllBranches: true})
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	parents := map[int]int{}
	for _, m := range doc.Messages {
		parents[m.ID] = m.Parent
	}
	if want := map[int]int{1: 0, 2: 1, 3: 2, 4: 3, 5: 3, 6: 2, 7: 6}; !reflect.DeepEqual(parents, want) || doc.ActiveLeaf != 7 || doc.Branches != 3 {
		t.Fatalf("the tree in JSON: %v, leaf %d, %d branches", parents, doc.ActiveLeaf, doc.Branches)
	}
}

// TestExportSnapshotWithBranches: a conversation held in memory exports
// its active path, or every branch, with its role and params, as the
// store's export does.
func TestExportSnapshotWithBranches(t *testing.T) {
	s, conv := treeExport(t)
	ctx := context.Background()
	dir := t.TempDir()
	for _, all := range []bool{false, true} {
		opts := ExportOptions{Format: FormatMarkdown, AllBranches: all, Location: time.UTC}
		path := filepath.Join(dir, fmt.Sprintf("all-%v.md", all))
		if err := ExportSnapshotFile(conv.Snapshot(), conv.ID(), time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC), path, opts); err != nil {
			t.Fatal(err)
		}
		fromMemory, _ := os.ReadFile(path)
		var stored bytes.Buffer
		s.Export(ctx, conv.ID(), &stored, opts)
		// The header differs (the store knows the model); the messages
		// do not.
		body := func(s string) string { return s[strings.Index(s, "\n---\n"):] }
		if body(string(fromMemory)) != body(stored.String()) {
			t.Fatalf("all branches %v: from memory\n%s\nstored\n%s", all, fromMemory, stored.String())
		}
		// The settings are in its header too.
		if !strings.Contains(string(fromMemory), "\n- Role: zoologist\n- Parameters: temperature = 0.5\n") {
			t.Fatalf("all branches %v: the header from memory lacks the settings:\n%s", all, fromMemory)
		}
	}
}

// The export says a reasoning's time as the chat does: 150 ms is "0.2 s"
// in both, not "0.1 s" here.
func TestExportThoughtTimeMatchesTheChat(t *testing.T) {
	start := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	m := conversation.Message{Role: api.RoleAssistant, Reasoning: "Look again.", Created: start,
		ReasoningStart: start, ReasoningEnd: start.Add(150 * time.Millisecond)}
	if got := thinking(m); !strings.HasPrefix(got, "**Thinking** (0.2 s)") {
		t.Fatalf("thinking section: %q", got)
	}
}
