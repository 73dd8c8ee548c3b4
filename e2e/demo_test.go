package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"parley/api/apitest"
)

// demoLabel is the word "demo" on its own, as the status bar labels the
// demo; model names such as "demo-chat" do not count.
var demoLabel = regexp.MustCompile(`(^|[^\w-])demo([^\w-]|$)`)

// bottom is the last n lines of a screen: the status bar, the composer and
// the key hint, below the transcript (whose replies may say "demo" too).
func bottom(screen string, n int) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// startDemo runs `parley --demo` with args in a terminal whose
// environment names another gateway, which must never be asked.
func startDemo(t *testing.T, args ...string) (*term, *apitest.Server) {
	t.Helper()
	other := apitest.New(t)
	tm := startParley(t, launch{Width: 120, Height: 40, Gateway: other, args: append([]string{"--demo"}, args...)})
	return tm, other
}

// TestDemoChat: the README's first command on a fresh machine (no config)
// opens the chat against the built-in demo, labelled as a demo, and
// streams a Markdown reply with a table and a code block at a pace a
// person can watch.
func TestDemoChat(t *testing.T) {
	t.Parallel()
	tm, other := startDemo(t, "--demo-dps", "120")
	ready := tm.waitText("demo-chat")
	if !demoLabel.MatchString(bottom(ready, 6)) {
		t.Errorf("the status bar does not say this is a demo:\n%s", frame(ready))
	}

	tm.send("What can you do?")
	partial := tm.waitFor("a partial reply", func(s string) bool {
		return strings.Contains(s, "Hello from the parley demo") && !strings.Contains(s, "Using a real gateway")
	})
	if !strings.Contains(partial, "writing") {
		t.Errorf("while the reply streams, nothing says it is being written:\n%s", frame(partial))
	}

	// The end of the reply, and the status bar's spinner gone: the turn
	// is over.
	final := tm.waitFor("the finished reply", func(s string) bool {
		return containsAll(s, "export OPENAI_BASE_URL=https://api.openai.com/v1", "shows the config file") &&
			!strings.ContainsAny(s, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
	})
	// Rendered, not shown as source: the table as rows with their cells on
	// one line, no pipes around code spans, no fences, no emphasis marks.
	if strings.Contains(final, "| `demo-") || strings.Contains(final, "```") || strings.Contains(final, "**") {
		t.Errorf("Markdown source shown as is:\n%s", frame(final))
	}
	row := false
	for _, l := range strings.Split(final, "\n") {
		if strings.Contains(l, "demo-vision") && strings.Contains(l, "describes the images") {
			row = true
		}
	}
	if !row {
		t.Errorf("the table has no row with demo-vision and its description:\n%s", frame(final))
	}
	if !demoLabel.MatchString(bottom(final, 6)) {
		t.Errorf("after the reply the status bar does not say this is a demo:\n%s", frame(final))
	}
	if n := other.RequestCount(); n != 0 {
		t.Errorf("the gateway of OPENAI_BASE_URL got %d requests under --demo", n)
	}
}

// TestDemoVisionDescribesAPastedImage: an image file pasted as a path is
// attached, and the demo's vision model names its real format and size.
func TestDemoVisionDescribesAPastedImage(t *testing.T) {
	t.Parallel()
	img := image.NewNRGBA(image.Rect(0, 0, 123, 45))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "screenshot.png")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	tm, _ := startDemo(t, "--demo-dps", "-1", "--model", "demo-vision")
	tm.waitText("demo-vision")
	// A bracketed paste, as a terminal sends a dropped file.
	tm.must("set-buffer", "--", path)
	tm.must("paste-buffer", "-p", "-t", sessionName)
	tm.waitText("screenshot.png")
	tm.send("what is this?")
	final := tm.waitText("PNG image of 123×45 pixels")
	if !strings.Contains(final, "1 image") {
		t.Errorf("the reply does not count the image:\n%s", frame(final))
	}
}

// TestDemoImageCommand: `parley image --demo` saves a real PNG of the
// asked size, run from a shell in tmux like the README's commands.
func TestDemoImageCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tm := startParley(t, launch{args: []string{"image", "--demo", "--size", "200x120", "-o", dir, "a red kite"}})
	ex := tm.waitExit()
	if ex.status != 0 {
		t.Fatalf("parley image --demo exited with %d:\n%s", ex.status, frame(ex.screen))
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, %v:\n%s", files, err, frame(ex.screen))
	}
	if !strings.Contains(ex.screen, files[0]) {
		t.Errorf("the saved path is not printed:\n%s", frame(ex.screen))
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 200 || cfg.Height != 120 {
		t.Errorf("%s: %dx%d, %v", files[0], cfg.Width, cfg.Height, err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("%s does not decode: %v", files[0], fmt.Sprint(err))
	}
}

// TestDemoThinksAndReadsFiles: the demo's reasoning model shows its
// thinking apart, and its files model answers about an attached text file.
func TestDemoThinksAndReadsFiles(t *testing.T) {
	t.Parallel()
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notes, []byte("# Plan\n\nship it\non friday\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm, _ := startDemo(t, "--model", "demo-think")
	tm.waitText("Message demo-think")
	tm.send("why is the sky blue?")
	tm.waitFor("the thinking folded and the answer", func(s string) bool {
		return strings.Contains(s, "Thought for") && strings.Contains(s, "enter send")
	})
	tm.send("/model demo-files")
	tm.waitText("Message demo-files")
	tm.send("/attach " + notes)
	tm.waitText("1 ≡ notes.md · 4 lines")
	tm.send("what is in it?")
	s := tm.waitText("Your message carries 1 text file", "Plan")
	if !strings.Contains(s, "notes.md") {
		t.Fatalf("the files model does not name the file:\n%s", frame(s))
	}
}
