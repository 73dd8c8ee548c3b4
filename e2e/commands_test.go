package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestSlashCommands: "/" opens the command list, which says how many
// commands match and where the highlight is ("2/25"); typing filters it,
// enter runs /model and /theme, /new starts over, and an unknown command
// names the nearest one while the typed text stays.
func TestSlashCommands(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30})
	tm.waitText(composerReady)
	tm.send("hello there")
	tm.waitText("You said: hello there")

	tm.typeText("/")
	s := tm.waitText("Commands · ", "/model", "/theme", "/system", "ctrl+o")
	pos := regexp.MustCompile(`╰─+ 1/(\d+) ─╯`).FindStringSubmatch(s)
	if pos == nil {
		t.Fatalf("the command list shows no position:\n%s", s)
	}
	tm.keys("Down")
	tm.waitText(" 2/" + pos[1] + " ")
	tm.keys("Up")
	tm.waitText(" 1/" + pos[1] + " ")
	tm.typeText("the")
	s = tm.waitGone("/model")
	if !strings.Contains(s, "/theme") {
		t.Fatalf("the list is not filtered to /theme:\n%s", s)
	}
	tm.keys("Enter")
	tm.waitText("Theme") // the theme picker
	tm.keys("Escape")
	tm.waitGone("Theme")

	tm.typeText("/model llama3")
	tm.keys("Enter")
	tm.waitText("● llama3", "next reply from llama3")

	tm.typeText("/modle")
	tm.keys("Enter")
	s = tm.waitText("did you mean /model")
	if !strings.Contains(s, "/modle") {
		t.Fatalf("the typed command is gone:\n%s", s)
	}
	tm.keys("Escape")
	tm.waitGone("Commands")
	tm.keys("C-u")
	tm.waitText("Message llama3")
	tm.typeText("/new")
	tm.keys("Enter")
	tm.waitGone("You said: hello there")
}

// TestEarlierImageToModelWithoutVision: an image sent earlier, then a model
// that cannot see: the send says so, keeps the text, and the next enter
// sends the text without the image.
func TestEarlierImageToModelWithoutVision(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 20, 10))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shot.png")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 120, Height: 30})
	tm.waitText(composerReady)
	tm.must("set-buffer", "--", path)
	tm.must("paste-buffer", "-p", "-t", sessionName)
	tm.waitText("shot.png")
	tm.send("what is this?")
	tm.waitText("You said: what is this?")

	tm.typeText("/model llama3")
	tm.keys("Enter")
	tm.waitText("● llama3")
	tm.send("and in words?")
	tm.waitText("cannot see the images of earlier messages")
	if n := len(chatRequests(gw)); n != 1 {
		t.Fatalf("%d requests: the refused message went out", n)
	}
	tm.keys("Enter")
	tm.waitText("You said: and in words?")
	reqs := chatRequests(gw)
	for _, m := range reqs[len(reqs)-1].Chat.Messages {
		for _, p := range m.Content.Parts {
			if p.ImageURL != nil {
				t.Fatalf("the image went to llama3: %s", reqs[len(reqs)-1].Body)
			}
		}
	}
}

// TestStartupWarningsInTheChat: OPENAI_BASE_URL is ignored when the config
// file defines providers; the chat says so at start, whole.
func TestStartupWarningsInTheChat(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	other := apitest.New(t)
	cfg := chatConfig + "[[providers]]\nname = \"file\"\nbase_url = \"" + other.URL() + "\"\napi_key_env = \"OPENAI_API_KEY\"\n"
	tm := startParley(t, launch{Gateway: gw, Config: cfg, Width: 120, Height: 30})
	s := tm.waitText("OPENAI_BASE_URL", "is ignored")
	if strings.Contains(s, "widen the window") {
		t.Fatalf("the banner asks to widen the window:\n%s", s)
	}
}
