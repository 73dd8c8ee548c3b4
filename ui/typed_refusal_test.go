package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A path with a space typed without quotes is the file it names: the
// words joined with spaces are attached, as quoted they would be.
func TestAttachUnquotedPathWithASpace(t *testing.T) {
	h := newHarness(t, 120, 30)
	dir := filepath.Join(t.TempDir(), "my photos")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "my pic.png")
	if err := os.Rename(pngFile(t, dir, 40, 30), one); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notes, []byte("# notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.typeText("/attach " + one + " " + notes)
	h.key("enter")
	h.wait("two chips", func() bool { return len(h.attached()) == 2 })
	if got := h.attached()[0].Name; got != "my pic.png" {
		t.Fatalf("the first attachment is %q, want my pic.png", got)
	}
	if h.draft() != "" {
		t.Fatalf("the composer kept %q after the command ran", h.draft())
	}
	// Words that name no file, apart or joined: the refusal says the
	// joined name is no file either, and the line stays to be corrected.
	other := filepath.Join(dir, "other pic.png")
	h.typeText("/attach " + other)
	h.key("enter")
	want := "and no file is named \"" + other + "\" either, the words joined"
	h.wait("the refusal", func() bool { text, _ := h.notice(); return strings.HasSuffix(text, want) })
	if h.draft() != "/attach "+other {
		t.Fatalf("the line was lost: %q", h.draft())
	}
	// A folder named as the path's first word, beside the file: the file
	// is meant, not the folder.
	h.clearDraft()
	h.key("esc")
	pictures := t.TempDir()
	holiday := filepath.Join(pictures, "Holiday")
	if err := os.Mkdir(holiday, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(pngFile(t, pictures, 30, 20), holiday+" 2023.png"); err != nil {
		t.Fatal(err)
	}
	h.typeText("/attach " + holiday + " 2023.png")
	h.key("enter")
	h.wait("a third chip", func() bool { return len(h.attached()) == 3 })
	if got := h.attached()[2].Name; got != "Holiday 2023.png" {
		t.Fatalf("the third attachment is %q, want Holiday 2023.png", got)
	}
}

// A refused /attach keeps the command line in the composer (the attaching
// fails off Update), so a long path need not be typed again; so does a
// refused command that fails at once (/detach, /copy, /tools, /theme),
// and the attachments stay on the message.
func TestRefusedCommandsKeepTheirLine(t *testing.T) {
	h := newHarness(t, 120, 30)
	missing := filepath.Join(t.TempDir(), "no such", "photo.png")
	line := "/attach " + missing
	h.typeText(line)
	h.key("enter")
	h.wait("the refusal", func() bool { return strings.Contains(h.screen(), "no such file") })
	if h.draft() != line {
		t.Fatalf("the line was lost: %q, want %q", h.draft(), line)
	}
	h.clearDraft()
	h.typeText("/attach " + pngFile(t, t.TempDir(), 20, 20))
	h.key("enter")
	h.wait("a chip", func() bool { return len(h.attached()) == 1 })
	for _, c := range []struct{ line, said string }{
		{"/detach 7", "/detach takes the number of an attachment, 1 to 1"},
		{"/copy x", "/copy takes the number of a code block"},
		{"/tools start", "/tools takes nothing, or restart"},
		{"/theme no-such-theme", `there is no theme named "no-such-theme"`},
	} {
		h.key("esc")
		h.clearDraft()
		h.typeText(c.line)
		h.key("enter")
		h.wait(c.line+" refused", func() bool { return strings.Contains(h.screen(), c.said) })
		if h.draft() != c.line {
			t.Errorf("%s: the composer holds %q after the refusal", c.line, h.draft())
		}
		if len(h.attached()) != 1 {
			t.Errorf("%s: the attachment went", c.line)
		}
	}
	// A command that works empties the composer.
	h.clearDraft()
	h.typeText("/attached")
	h.key("enter")
	h.wait("the list", func() bool { return strings.Contains(h.screen(), "1 attachment on the next message") })
	if h.draft() != "" {
		t.Fatalf("the composer kept %q after a command that ran", h.draft())
	}
}

// /export to a folder that does not exist is refused in one sentence,
// makes no folder, and keeps the line; the export folder parley chooses
// itself is made when missing.
func TestExportIntoAMissingFolderIsRefused(t *testing.T) {
	h := newHarness(t, 160, 30, withHistory(History{Off: "--no-save"}))
	replyWith(t, h, "an answer only in memory")
	root := t.TempDir()
	out := filepath.Join(root, "typo", "dir", "x.md")
	line := "/export " + out
	h.typeText(line)
	h.key("enter")
	want := "the folder " + filepath.Dir(out) + " does not exist, so nothing was exported; create it first, or give a path in a folder that exists: /export PATH"
	h.wait("the refusal", func() bool { text, _ := h.notice(); return text == want })
	if _, err := os.Stat(filepath.Join(root, "typo")); !os.IsNotExist(err) {
		t.Fatalf("a folder was made: %v", err)
	}
	if h.draft() != line {
		t.Fatalf("the line was lost: %q", h.draft())
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
		t.Fatal(err)
	}
	h.key("enter")
	h.wait("the export", func() bool { text, _ := h.notice(); return strings.HasPrefix(text, "exported to ") })
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}

// The image pane's "save a copy" into a folder that does not exist is
// refused and makes none; parley's own image folder is made.
func TestSaveCopyIntoAMissingFolder(t *testing.T) {
	root := t.TempDir()
	data, err := os.ReadFile(pngFile(t, root, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(root, "Pictures", "parley")
	msg := saveImageCopy(filepath.Join(root, "typo", "a.png"), data, own).(noticeMsg)
	if msg.kind != toastErr || !strings.Contains(msg.text, "the folder "+filepath.Join(root, "typo")+" does not exist") {
		t.Fatalf("the refusal: %+v", msg)
	}
	if _, err := os.Stat(filepath.Join(root, "typo")); !os.IsNotExist(err) {
		t.Fatalf("a folder was made: %v", err)
	}
	if msg := saveImageCopy(filepath.Join(own, "a.png"), data, own).(noticeMsg); msg.kind != toastOK {
		t.Fatalf("saving into parley's own folder: %+v", msg)
	}
}

// joinSpaced tries at most maxJoinedWords words (and maxJoinedBytes) for
// one path, so a pasted line of thousands of words costs a bounded number
// of lookups: a file whose name is 65 words joined is not found that way.
func TestJoinSpacedIsBounded(t *testing.T) {
	dir := t.TempDir()
	words := strings.Fields(strings.Repeat("a ", maxJoinedWords+1))
	words[0] = filepath.Join(dir, "a")
	if err := os.WriteFile(strings.Join(words, " "), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := joinSpaced(t.Context(), words); len(got) != len(words) {
		t.Fatalf("%d words were joined into %d paths; the run is longer than the bound", len(words), len(got))
	}
	if got := joinSpaced(t.Context(), words[:maxJoinedWords]); len(got) != maxJoinedWords {
		t.Fatalf("a run within the bound naming no file was joined: %d paths", len(got))
	}
	if err := os.WriteFile(strings.Join(words[:maxJoinedWords], " "), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := joinSpaced(t.Context(), words[:maxJoinedWords]); len(got) != 1 {
		t.Fatalf("a file named by %d words joined was not found: %d paths", maxJoinedWords, len(got))
	}
}
