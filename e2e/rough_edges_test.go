package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// The rough edges a new user hit (issue 15), in the real binary.

// TestQuestionMarkTypesItself (§9): "?" in an empty composer is the start
// of a question, not the help.
func TestQuestionMarkTypesItself(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startChat(t, gw)
	tm.typeText("?why does this happen")
	s := tm.waitText("?why does this happen")
	if strings.Contains(s, "retry / regenerate") {
		t.Fatalf("? opened the help:\n%s", frame(s))
	}
}

// TestSystemPromptClear (§10): /system sets one, the status says so,
// /system --clear removes it.
func TestSystemPromptClear(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 120, Height: 30})
	tm.waitText(composerReady)
	tm.send("/system answer in French")
	tm.waitText("⚙ system prompt")
	tm.send("/system --clear")
	tm.waitText("system prompt removed")
	tm.waitGone("⚙ system prompt")
	tm.send("bonjour")
	tm.waitText("You said: bonjour")
	if msgs := chatRequests(gw)[0].Chat.Messages; len(msgs) != 1 || msgs[0].Role != "user" {
		t.Fatalf("the request carries %+v", msgs)
	}
}

// TestExportWithoutHistory (§11): with --no-save, /export writes what the
// chat holds into Documents/parley and says where.
func TestExportWithoutHistory(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "Documents"), 0o700); err != nil {
		t.Fatal(err)
	}
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 120, Height: 30, home: home, args: []string{"--no-save"}})
	tm.waitText(composerReady)
	tm.send("keep this only in memory")
	waitReply(tm, "You said: keep this only in memory")
	tm.send("/export")
	tm.waitText("exported to ~/Documents/parley/")
	files, _ := filepath.Glob(filepath.Join(home, "Documents", "parley", "*.md"))
	if len(files) != 1 {
		t.Fatalf("exports: %v", files)
	}
	if b, _ := os.ReadFile(files[0]); !strings.Contains(string(b), "You said: keep this only in memory") {
		t.Fatalf("the export lacks the reply:\n%s", b)
	}
}

// TestReopenedSessionKeepsItsModelAndPictures (§5, §6): a session chatted
// with another model than default_model, with an image sent and one made
// with /image, comes back with --continue on its own model, with both
// pictures, and the image pane lists both images with their stored files.
func TestReopenedSessionKeepsItsModelAndPictures(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := t.TempDir()
	made := filepath.Join(t.TempDir(), "made")
	img, data := writeTestPNG(t, t.TempDir(), "gradient.png", 64, 48)
	tm := startParley(t, launch{Gateway: gw, Config: imageConfig(made), home: home, Width: 120, Height: 40})
	tm.waitText(composerReady)
	tm.send("/model gpt-4o-mini")
	tm.waitText("Message gpt-4o-mini")
	tm.send("/attach " + img)
	tm.waitText("1 ▣ gradient.png")
	tm.send("what is this?")
	waitReply(tm, "You said: what is this?")
	tm.send("/image a lighthouse at dusk")
	tm.waitText("saved 1 image")
	files := savedPNGs(t, made)
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	live := tm.waitFor("the picture", func(s string) bool { return pictureRows(s) > 0 })
	quitChat(t, tm)

	again := startParley(t, launch{Gateway: gw, Config: imageConfig(made), home: home, Width: 120, Height: 40, args: []string{"--continue"}})
	s := again.waitText("a lighthouse at dusk", "Message gpt-4o-mini")
	if strings.Contains(s, "● gpt-4o ") {
		t.Fatalf("the reopened session switched to default_model:\n%s", frame(s))
	}
	again.waitFor("the same picture", func(s string) bool { return pictureRows(s) == pictureRows(live) })

	// The pane lists both, newest first: the made image with the file it
	// was saved to, then the sent one by its name, with the file the
	// history keeps (named by the hash of its bytes).
	again.keys("M-i")
	again.waitCheck("the made image's file in the pane", paneShows("▸ Images · 1 of 2", files[0]))
	again.keys("Down")
	sum := sha256.Sum256(data)
	again.waitCheck("the sent image's stored file in the pane", paneShows("▸ Images · 2 of 2", hex.EncodeToString(sum[:])))
}

// paneShows checks that the pane's title says title and its path line
// names the end of want. It waits for both, since tmux can capture a frame
// half-written, with the title new and the path line not yet (seen under
// load).
func paneShows(title, want string) func(string) error {
	return func(s string) error {
		if !strings.Contains(s, title) {
			return fmt.Errorf("the pane's title is not %q", title)
		}
		if shown := panePath(s); len(shown) < 12 || !strings.HasSuffix(want, shown) {
			return fmt.Errorf("the pane shows the path %q, not %s", shown, want)
		}
		return nil
	}
}

// panePath is the path the image pane's details show, without the "…"
// that stands for a cut beginning.
func panePath(screen string) string {
	for _, l := range lines(screen) {
		if i := strings.Index(l, " path "); i >= 0 {
			return strings.TrimPrefix(strings.TrimSpace(l[i+len(" path "):]), "…")
		}
	}
	return ""
}

// TestLongRefusalGivesTheAdviceFirst (§2): attaching an image to a model
// without vision, with many models that have it, shows the advice that
// fixes it, not a list pushing it out; the notices pane has it whole.
func TestLongRefusalGivesTheAdviceFirst(t *testing.T) {
	t.Parallel()
	var models []apitest.ModelSpec
	for _, id := range []string{"llava:7b", "llava:13b", "llava:34b", "qwen2.5-vl:3b", "qwen2.5-vl:7b", "qwen2.5-vl:32b", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gemma3:4b", "gemma3:12b", "gemma3:27b"} {
		models = append(models, apitest.ModelSpec{ID: id})
	}
	gw := apitest.New(t, apitest.WithModels(models...))
	img, _ := writeTestPNG(t, t.TempDir(), "shot.png", 20, 10)
	tm := startParley(t, launch{Gateway: gw, Config: "default_model = \"text-only\"\n[[models]]\nname = \"text-only\"\nvision = false\n", Width: 100, Height: 30})
	tm.waitText("Message text-only")
	tm.send("/model")
	tm.waitText("llava:7b")
	tm.keys("Escape")
	tm.waitGone("llava:7b")
	tm.send("/attach " + img)
	s := tm.waitText("cannot see images")
	flat := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(flat, "If it can, add vision = true") || !strings.Contains(flat, "~/.config/parley/config.toml") || !strings.Contains(flat, "and 9 more (/model lists them)") {
		t.Fatalf("the advice is not on screen:\n%s", frame(s))
	}
	tm.keys("F4")
	s = tm.waitText("Notices ·")
	// The pane's column: what follows its border on each row.
	var pane []string
	for _, l := range lines(s) {
		if i := strings.Index(l, "│ "); i >= 0 {
			pane = append(pane, l[i+len("│ "):])
		}
	}
	flat = strings.Join(strings.Fields(strings.Join(pane, " ")), " ")
	if !strings.Contains(flat, "more (/model lists them)") || strings.Contains(strings.Join(pane[:len(pane)-2], " "), "…") {
		t.Fatalf("the notices pane does not show the refusal whole (%q):\n%s", flat, frame(s))
	}
}

// TestImagePaneSaveProposesANewFile (§17): s in the image pane proposes a
// file that does not exist yet beside the image, and enter saves it.
func TestImagePaneSaveProposesANewFile(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	dir := filepath.Join(t.TempDir(), "made")
	tm := startParley(t, launch{Gateway: gw, Config: imageConfig(dir), Width: 150, Height: 45})
	tm.waitText(composerReady)
	tm.send("/image a lighthouse at dusk")
	tm.waitText("saved 1 image")
	files := savedPNGs(t, dir)
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	tm.keys("M-i")
	tm.waitText("▸ Images")
	tm.keys("s")
	want := strings.TrimSuffix(filepath.Base(files[0]), ".png") + "-2.png"
	s := tm.waitText("Save a copy to:", "-2.png")
	// The whole path enter saves to is in view (wrapped when long), not
	// only its end.
	if whole := filepath.Join(dir, want); !strings.Contains(paneText(s, "▸ Images"), whole) {
		t.Fatalf("the prompt does not show the whole path %s:\n%s", whole, frame(s))
	}
	tm.keys("Enter")
	tm.waitText("saved a copy as")
	if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
		t.Fatalf("no copy: %v", err)
	}
}

// paneText is the text of the side pane whose title starts with title:
// its column of every row, joined without spaces, so a path wrapped over
// rows reads whole.
func paneText(screen, title string) string {
	col := -1
	for _, l := range lines(screen) {
		if i := strings.Index(l, title); i >= 0 {
			col = len([]rune(l[:i]))
			break
		}
	}
	if col < 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range lines(screen) {
		if r := []rune(l); len(r) > col {
			b.WriteString(strings.Join(strings.Fields(string(r[col:])), ""))
		}
	}
	return b.String()
}

// pictureRows counts the screen's rows of half blocks (a picture).
func pictureRows(screen string) int {
	n := 0
	for _, l := range lines(screen) {
		if strings.Count(l, "▀") > 8 {
			n++
		}
	}
	return n
}

// TestRepliesKeepAngleBracketsAndWholeWords (§1, §3): text that looks
// like HTML shows as written, in the chat and in what ask prints; names
// with hyphens and paths are not broken at a hyphen, and no line holds
// only punctuation.
func TestRepliesKeepAngleBracketsAndWholeWords(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	reply := "Use List<String> or Vec<u8> here; wrap it in a <div>, and a<b>c stays. " +
		"Install wl-clipboard and demo-vision-preview-model from /usr/local/share/parley-tools/bin today."
	gw.Enqueue(apitest.Reply{Text: reply})
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 44, Height: 30})
	tm.waitText("Message gpt-4o")
	tm.send("generics?")
	s := tm.waitText("today.")
	flat := strings.Join(strings.Fields(s), " ")
	for _, want := range []string{"List<String>", "Vec<u8>", "<div>", "a<b>c", "wl-clipboard", "demo-vision-preview-model", "/usr/local/share/parley-tools/bin"} {
		if !strings.Contains(flat, want) {
			t.Errorf("%q is not on screen whole:\n%s", want, frame(s))
		}
	}
	for _, l := range lines(s) {
		switch strings.TrimSpace(l) {
		case ".", ";", ",":
			t.Errorf("a line holds only punctuation:\n%s", frame(s))
		}
	}
}

// TestCodeLabelsRunThroughTheTranscript (§14): the second reply's block
// is [2], and /copy 1 copies the first reply's block.
func TestCodeLabelsRunThroughTheTranscript(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "First:\n\n```sh\necho first\n```\n"})
	gw.Enqueue(apitest.Reply{Text: "Second:\n\n```sh\necho second\n```\n"})
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30, SetClipboard: true})
	tm.waitText(composerReady)
	tm.send("one")
	waitReply(tm, "echo first")
	tm.send("two")
	s := tm.waitText("echo second")
	if !strings.Contains(s, "[1] sh") || !strings.Contains(s, "[2] sh") {
		t.Fatalf("the labels do not run through the transcript:\n%s", frame(s))
	}
	tm.send("/copy 1")
	tm.waitText("code block [1]")
	if got := newestBuffer(t, tm, 1); strings.TrimSpace(got) != "echo first" {
		t.Fatalf("/copy 1 copied %q", got)
	}
}
