package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestAskSendsImagesToAModelTheGatewayListsWithVision: a model neither
// configured nor known by name, listed by the gateway with image input,
// takes images; one it lists as text only is refused with the usual
// sentence; what the list said is kept for the next run.
func TestAskSendsImagesToAModelTheGatewayListsWithVision(t *testing.T) {
	h := newHarness(t)
	h.gw = apitest.New(t, apitest.WithModels(
		apitest.ModelSpec{ID: "seer-1", Vision: true, Modalities: true},
		apitest.ModelSpec{ID: "plain-1", Modalities: true},
	))
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	h.env["XDG_CACHE_HOME"] = filepath.Join(h.home, ".cache")
	img := writePNG(t, t.TempDir(), "shot.png", 8, 8, false)

	r := h.run(nil, "ask", "-m", "seer-1", "-a", img, "what is this?")
	r.mustCode(t, 0)
	chats := h.gw.RequestsTo("/chat/completions")
	if len(chats) != 1 || len(chats[0].Chat.Messages[0].Content.ImageURLs()) != 1 {
		t.Fatalf("the image was not sent: %d chat requests", len(chats))
	}
	cache, err := os.ReadFile(filepath.Join(h.env["XDG_CACHE_HOME"], "parley", "models.json"))
	if err != nil || !strings.Contains(string(cache), `"seer-1","input":["text","image"]`) {
		t.Fatalf("the model list's word was not cached: %v %s", err, cache)
	}

	r = h.run(nil, "ask", "-m", "plain-1", "-a", img, "what is this?")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, `Model "plain-1" cannot see images. If it can, add vision = true`) || !strings.Contains(r.stderr, "seer-1") {
		t.Fatalf("refusal: %q", r.stderr)
	}
	if n := len(h.gw.RequestsTo("/models")); n != 1 {
		t.Fatalf("the list was asked %d times; the cache should have answered the second run", n)
	}
}

// TestAskSavesTheReplysImages: the images a model makes with its reply
// are saved in --save-dir and named on stderr; stdout keeps the text.
func TestAskSavesTheReplysImages(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	want, err := os.ReadFile(writePNG(t, t.TempDir(), "made.png", 24, 16, false))
	if err != nil {
		t.Fatal(err)
	}
	h.gw.Enqueue(apitest.Reply{Text: "Here it is.", ReplyImages: [][]byte{want, []byte("not a picture")}})
	r := h.run(nil, "ask", "-m", "gpt-4o", "--save-dir", dir, "paint a lake")
	r.mustCode(t, 0)
	if r.stdout != "Here it is.\n" {
		t.Fatalf("stdout %q", r.stdout)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*paint-a-lake*.png"))
	if len(files) != 1 {
		t.Fatalf("saved %v", files)
	}
	if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, want) {
		t.Fatal("the saved file is not the image sent")
	}
	if !strings.Contains(r.stderr, "parley: Saved image "+files[0]) || !strings.Contains(r.stderr, "the reply's image 2 is not an image") {
		t.Fatalf("stderr %q", r.stderr)
	}
}
