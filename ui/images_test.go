package ui

import (
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/conversation"
	"parley/internal/desktop"
	"parley/media/mediatest"
	"parley/ui/overlay"
)

// imageHarness is a chat whose images land in a folder of the test.
func imageHarness(t *testing.T, w, h int) (*harness, string) {
	t.Helper()
	pics := filepath.Join(t.TempDir(), "pics")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": pics, "HOME": t.TempDir()}
	hs := newHarness(t, w, h, func(o *Options) { o.Getenv = func(k string) string { return env[k] } })
	return hs, filepath.Join(pics, "parley")
}

func pngFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".png") {
			f, err := os.Open(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			_, err = png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s is no valid PNG: %v", e.Name(), err)
			}
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

func TestImageCommandMakesTwoImagesInTheTranscript(t *testing.T) {
	h, dir := imageHarness(t, 120, 50)
	h.typeText("/image a red fox in snow --n 2 --model gpt-image-1 --size 1024x1024")
	h.key("enter")
	h.wait("the image turn", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateDone
	})
	files := pngFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("want two PNGs in %s, got %v", dir, files)
	}
	reqs := h.srv.RequestsTo("/images/generations")
	if len(reqs) != 1 || reqs[0].Image == nil || reqs[0].Image.N != 2 || reqs[0].Image.Size != "1024x1024" || reqs[0].Image.Prompt != "a red fox in snow" {
		t.Fatalf("requests %+v", reqs)
	}
	h.wait("paths and pictures", func() bool {
		scr := h.screen()
		return strings.Contains(scr, filepath.Base(files[0])) && strings.Contains(scr, filepath.Base(files[1])) &&
			strings.Count(h.m.View().Content, "▀") > 100
	})
	if !strings.Contains(h.screen(), "a red fox in snow") {
		t.Fatalf("the prompt is not shown:\n%s", h.screen())
	}
}

func TestImageRefusedBeforeAnyRequest(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	for _, c := range []struct{ line, want string }{
		{"/image --model gpt-image-1", "missing its arguments"},
		{"/image a fox --model gpt-image-1 --size 300x300", "1024x1024"},
		{"/image a fox --model gpt-4o", "cannot generate images"},
		{"/image a fox --model gpt-image-1 --n 0", "--n"},
	} {
		h.typeText(c.line)
		h.key("enter")
		h.wait(c.want, func() bool { return strings.Contains(h.screen(), c.want) })
		if got := h.draft(); got != c.line {
			t.Fatalf("the composer holds %q after the refusal, want %q kept", got, c.line)
		}
		h.key("esc")
		h.clearDraft()
	}
	if n := h.srv.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
	if files := pngFiles(t, dir); len(files) != 0 {
		t.Fatalf("files written: %v", files)
	}
}

func TestEscDuringGenerationSavesNothing(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/images/generations", Delay: 3 * time.Second})
	h.typeText("/image a slow fox --model gpt-image-1")
	h.key("enter")
	h.wait("the status", func() bool { return strings.Contains(h.screen(), "generating 1 image with gpt-image-1") })
	h.key("esc")
	h.wait("the stop", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateInterrupted
	})
	// The run's end is what would have saved a file.
	h.wait("the run's end", func() bool { return arrived[imagesMadeMsg](h) > 0 })
	if files := pngFiles(t, dir); len(files) != 0 {
		t.Fatalf("files written after esc: %v", files)
	}
	if !strings.Contains(h.screen(), "nothing was saved") {
		t.Fatalf("screen:\n%s", h.screen())
	}
}

func TestFailedGenerationShowsInlineAndRetries(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/images/generations", Status: 413, Body: `{"error":{"message":"prompt too large","type":"invalid_request_error"}}`})
	h.typeText("/image a fox --model gpt-image-1")
	h.key("enter")
	h.wait("the failure", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateFailed
	})
	if !strings.Contains(h.screen(), "ctrl+r to retry") {
		t.Fatalf("no retry hint:\n%s", h.screen())
	}
	h.key("ctrl+r")
	h.wait("the retry", func() bool {
		n := h.eng.Conv().Len()
		return n == 1 && h.eng.Conv().At(0).State == conversation.StateDone
	})
	if files := pngFiles(t, dir); len(files) != 1 {
		t.Fatalf("after the retry: %v", files)
	}
}

// An image turn the gateway refused (a size it does not make) does not
// offer ctrl+r, in the turn or on the hint line: the key sends the same
// request, which the gateway would refuse again. Its words say why.
func TestRefusedImageTurnDoesNotOfferTheRetryKey(t *testing.T) {
	h, _ := imageHarness(t, 100, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/images/generations", Status: 400, Body: `{"error":{"message":"Invalid value: '1536x1024'. Supported values are: '1024x1024'","type":"invalid_request_error","code":"invalid_value"}}`})
	h.typeText("/image a kite --model gpt-image-1 --size 1536x1024")
	h.key("enter")
	h.wait("the failure", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateFailed
	})
	h.quiet()
	screen := h.screen()
	if !strings.Contains(screen, "400 Bad Request") {
		t.Fatalf("the refused image turn does not say the refusal:\n%s", screen)
	}
	if strings.Contains(screen, "ctrl+r to retry") || strings.Contains(screen, "ctrl+r retry") {
		t.Fatalf("the refused image turn offers ctrl+r, which would be refused again:\n%s", screen)
	}
}

// fakeDesktop is a Wayland session whose tools are scripts in bin.
func fakeDesktop(bin string) *desktop.System {
	return &desktop.System{
		Getenv: func(k string) string {
			if k == "WAYLAND_DISPLAY" {
				return "wayland-0"
			}
			return ""
		},
		LookPath: func(name string) (string, error) {
			p := filepath.Join(bin, name)
			if _, err := os.Stat(p); err != nil {
				return "", exec.ErrNotFound
			}
			return p, nil
		},
		GOOS: "linux",
	}
}

// makeTwo makes two images with /image and returns their paths.
func makeTwo(t *testing.T, h *harness, dir string) []string {
	t.Helper()
	h.typeText("/image two foxes --n 2 --model gpt-image-1")
	h.key("enter")
	h.wait("the images", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateDone
	})
	files := pngFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	return files
}

// The image pane lists the images, newest first; its keys open the file
// (xdg-open), copy the image (wl-copy), copy the path, save a copy, and
// attach one to the next message, which the gateway then receives.
func TestImagePaneActions(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "calls")
	fakeTool(t, bin, "xdg-open", `echo "xdg-open $*" >> '`+log+`'`+"\n")
	fakeTool(t, bin, "wl-copy", `echo "wl-copy $* $(wc -c)" >> '`+log+`'`+"\n")
	pics := filepath.Join(t.TempDir(), "pics")
	home := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": pics, "HOME": home}
	h := newHarness(t, 140, 50, func(o *Options) {
		o.Getenv = func(k string) string { return env[k] }
		o.Desktop = fakeDesktop(bin)
	})
	files := makeTwo(t, h, filepath.Join(pics, "parley"))

	h.key("alt+i")
	p, ok := h.m.imagePaneFocused()
	if !ok || p.Len() != 2 {
		t.Fatalf("pane open %v with %d images", ok, p.Len())
	}
	h.wait("the pane's preview", func() bool { return strings.Contains(h.screen(), filepath.Base(files[0])) && h.panePicture() })
	sel, _ := p.Selected()

	h.key("o")
	h.wait("the viewer", func() bool { b, _ := os.ReadFile(log); return strings.Contains(string(b), "xdg-open "+sel.Path) })
	h.key("y")
	h.wait("the image copy", func() bool { b, _ := os.ReadFile(log); return strings.Contains(string(b), "wl-copy --type image/png") })
	h.key("c")
	h.wait("the path copy", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.clipboard) > 0 && h.clipboard[len(h.clipboard)-1] == sel.Path
	})

	// Save a copy: the prompt takes a path; enter writes it.
	h.key("s")
	if !p.PromptOpen() {
		t.Fatal("s opened no prompt")
	}
	dst := filepath.Join(t.TempDir(), "copy.png")
	for range 200 {
		h.key("ctrl+u")
	}
	h.typeText(dst)
	h.key("enter")
	// Done when the pane says so: the file exists from its first byte.
	h.wait("the copy", func() bool { return strings.Contains(h.screen(), "saved a copy") })
	if a, b := readFile(t, dst), readFile(t, sel.Path); a != b {
		t.Fatal("the copy differs from the image")
	}

	// Attach, then send: the gateway gets the image.
	h.key("a")
	h.wait("the attachment", func() bool { return len(h.attached()) == 1 })
	if _, focused := h.m.imagePaneFocused(); focused {
		t.Fatal("the pane kept the keys after attaching")
	}
	h.typeText("what is this?")
	h.key("enter")
	h.wait("the reply", func() bool { return len(h.srv.RequestsTo("/chat/completions")) == 1 && !h.streaming() })
	chat := h.srv.RequestsTo("/chat/completions")[0].Chat
	last := chat.Messages[len(chat.Messages)-1]
	images := 0
	for _, part := range last.Content.Parts {
		if part.ImageURL != nil && strings.HasPrefix(part.ImageURL.URL, "data:image/png;base64,") {
			images++
		}
	}
	if images != 1 {
		t.Fatalf("the gateway got %d images", images)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// /edit edits the image selected in the pane: a multipart POST to the edit
// endpoint with the image's bytes, and a new file linked to its source.
func TestEditFromThePane(t *testing.T) {
	h, dir := imageHarness(t, 140, 50)
	files := makeTwo(t, h, dir)
	h.key("alt+i")
	p, _ := h.m.imagePaneFocused()
	h.key("down") // the older of the two
	sel, _ := p.Selected()
	h.key("e")
	if got := h.draft(); got != "/edit " {
		t.Fatalf("composer %q", got)
	}
	// The edit comes back as an image of its own (the fake gateway's
	// default is the image it was given).
	h.srv.Enqueue(apitest.Reply{Images: [][]byte{mediatest.PNG(t, mediatest.Screenshot(64, 48))}})
	h.typeText("make it night --model gpt-image-1")
	h.key("enter")
	h.wait("the edit", func() bool {
		n := h.eng.Conv().Len()
		return n == 2 && h.eng.Conv().At(1).State == conversation.StateDone
	})
	edits := h.srv.RequestsTo("/images/edits")
	if len(edits) != 1 || edits[0].Edit == nil {
		t.Fatalf("edit requests %+v", edits)
	}
	form := edits[0].Edit
	if form.Model != "gpt-image-1" || form.Prompt != "make it night" || len(form.Images) != 1 ||
		string(form.Images[0].Data) != readFile(t, sel.Path) {
		t.Fatalf("form %+v", form)
	}
	turn := h.eng.Conv().At(1)
	if turn.Image == nil || turn.Image.From != sel.Path || len(turn.Attachments) != 1 {
		t.Fatalf("edit turn %+v", turn)
	}
	if now := pngFiles(t, dir); len(now) != len(files)+1 {
		t.Fatalf("files %v", now)
	}
	if !strings.Contains(h.screen(), "Edit · gpt-image-1") {
		t.Fatalf("screen:\n%s", h.screen())
	}
	// The pane, still open, lists the edit as an edit of the image (the
	// test's clock stands still, so it is listed after the two made at
	// the same time).
	h.key("alt+i")
	h.key("G")
	side := h.region(h.lay().Side)
	if !strings.Contains(side, "3 of 3") || !strings.Contains(side, "✎ Edited") ||
		!strings.Contains(side, "edited from") || !strings.Contains(side, "make it night") {
		t.Fatalf("the pane does not list the edit with its source:\n%s", side)
	}
}

// The image form (alt+g): prompt, model, size and n; bad values are said
// in the form, which stays open; enter makes the images; the next opening
// remembers what was asked.
func TestImageForm(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.key("alt+g")
	if h.m.layerName() != "image form" {
		t.Fatalf("top layer %q", h.m.layerName())
	}
	h.key("enter")
	h.wait("the empty prompt", func() bool { return strings.Contains(h.screen(), "the prompt is empty") })
	h.typeText("a lighthouse")
	h.key("tab")
	h.typeText("gpt-image-1")
	h.key("tab")
	h.typeText("12x")
	h.key("tab")
	h.typeText("2")
	h.key("enter")
	h.wait("the size refusal", func() bool { return strings.Contains(h.screen(), "the size is width x height") })
	if h.m.layerName() != "image form" {
		t.Fatal("the form closed on a bad size")
	}
	for range 3 {
		h.key("backspace")
	}
	h.typeText("1024x1536")
	h.key("enter")
	h.wait("the images", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateDone
	})
	if files := pngFiles(t, dir); len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	req := h.srv.RequestsTo("/images/generations")[0].Image
	if req.Prompt != "a lighthouse" || req.Size != "1024x1536" || req.N != 2 || req.Model != "gpt-image-1" {
		t.Fatalf("request %+v", req)
	}
	h.key("alt+g")
	// The form remembers: enter at once asks for the same again.
	if scr := h.screen(); !strings.Contains(scr, "a lighthouse") || !strings.Contains(scr, "1024x1536") {
		t.Fatalf("the form forgot what was asked:\n%s", scr)
	}
	h.key("esc")
	if h.m.layerName() != "" {
		t.Fatal("esc did not close the form")
	}
}

// Without image_model and with several models that can generate, /image
// asks for one in a picker that lists only those, before the gateway's
// list arrives and after; the model chosen makes the images asked for.
func TestImageAsksForAModel(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.typeText("/image a fox")
	h.key("enter")
	if h.m.layerName() != "models" {
		t.Fatalf("top layer %q", h.m.layerName())
	}
	chatOnly := []string{"gpt-4o-mini", "llama3", "llava"}
	for _, name := range chatOnly {
		if strings.Contains(h.screen(), name) {
			t.Fatalf("the picker lists %q, which cannot generate:\n%s", name, h.screen())
		}
	}
	h.wait("the gateway's list", func() bool { return arrived[overlay.ModelsListed](h) > 0 })
	scr := h.screen()
	for _, name := range chatOnly {
		if strings.Contains(scr, name) {
			t.Fatalf("with the gateway's list, the picker lists %q, which cannot generate:\n%s", name, scr)
		}
	}
	if !strings.Contains(scr, "dall-e-3") || !strings.Contains(scr, "gpt-image-1") {
		t.Fatalf("the gateway's image models are not listed:\n%s", scr)
	}
	h.typeText("gpt-image-1")
	h.key("enter")
	h.wait("the images", func() bool {
		n := h.eng.Conv().Len()
		return n > 0 && h.eng.Conv().At(n-1).State == conversation.StateDone
	})
	last := h.eng.Conv().At(h.eng.Conv().Len() - 1)
	if !last.IsImages() || last.Text != "a fox" || last.Model != "gpt-image-1" {
		t.Fatalf("the picker lost the request: %q by %q (images: %v)", last.Text, last.Model, last.IsImages())
	}
	if files := pngFiles(t, dir); len(files) != 1 {
		t.Fatalf("files %v", files)
	}
}

// Leaving the conversation (ctrl+l) while images are made abandons them:
// the late answer saves nothing and touches nothing of the new one.
func TestNewConversationAbandonsImages(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/images/generations", Delay: 500 * time.Millisecond})
	h.typeText("/image a slow fox --model gpt-image-1")
	h.key("enter")
	h.wait("the run", func() bool { return h.eng.Images() != nil })
	h.typeText("hello")
	h.key("enter")
	if h.draft() != "hello" {
		t.Fatalf("a message typed meanwhile was lost: %q", h.draft())
	}
	h.clearDraft()
	h.key("ctrl+l")
	h.key("ctrl+l")
	if h.eng.Images() != nil || h.eng.Conv().Len() != 0 {
		t.Fatalf("run %v, %d messages", h.eng.Images(), h.eng.Conv().Len())
	}
	h.wait("the late answer", func() bool { return arrived[imagesMadeMsg](h) > 0 })
	if h.eng.Conv().Len() != 0 {
		t.Fatalf("the late answer reached the new conversation: %d messages", h.eng.Conv().Len())
	}
	if files := pngFiles(t, dir); len(files) != 0 {
		t.Fatalf("files %v", files)
	}
}

// In the demo the notice of images made says their folder is a temporary
// one, so nobody expects the demo to have kept them.
func TestDemoImagesSayTheFolderIsTemporary(t *testing.T) {
	pics := filepath.Join(t.TempDir(), "pics")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": pics, "HOME": t.TempDir()}
	for _, demo := range []bool{false, true} {
		h := newHarness(t, 140, 40, func(o *Options) {
			o.Getenv = func(k string) string { return env[k] }
			o.Demo = demo
		})
		h.typeText("/image a fox --model gpt-image-1")
		h.key("enter")
		h.wait("the notice", func() bool { return strings.Contains(h.screen(), "saved 1 image in") })
		flat := strings.Join(strings.Fields(h.screen()), " ")
		if says := strings.Contains(flat, "a temporary folder: the demo keeps nothing"); says != demo {
			t.Fatalf("demo %v: the notice says the folder is temporary: %v\n%s", demo, says, h.screen())
		}
	}
}

// A model that takes any size up to a side (max_side, as the demo's
// demo-image) has a larger size refused before any request, saying what
// it takes; a size within it goes out.
func TestImageSizeOverMaxSideRefusedBeforeAnyRequest(t *testing.T) {
	cfg := configFrom(t, `
default_model = "gpt-4o"

[[providers]]
name = "gw"
base_url = "http://127.0.0.1:9/v1"

[[models]]
name = "free-size"
image_generation = true
max_side = 1024
max_n = 4
`)
	pics := filepath.Join(t.TempDir(), "pics")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": pics, "HOME": t.TempDir()}
	h := newHarness(t, 160, 40, func(o *Options) {
		o.Config = cfg
		o.Getenv = func(k string) string { return env[k] }
	})
	line := "/image kite --model free-size --size 2000x2000"
	h.typeText(line)
	h.key("enter")
	want := "auto or any <width>x<height> up to 1024x1024"
	h.wait("the refusal", func() bool { return strings.Contains(strings.Join(strings.Fields(h.screen()), " "), want) })
	if got := h.draft(); got != line {
		t.Fatalf("the composer holds %q after the refusal, want %q kept", got, line)
	}
	if n := h.srv.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
	h.key("esc")
	h.clearDraft()
	h.typeText("/image kite --model free-size --size 800x600")
	h.key("enter")
	h.wait("the request", func() bool {
		reqs := h.srv.RequestsTo("/images/generations")
		return len(reqs) == 1 && reqs[0].Image != nil && reqs[0].Image.Size == "800x600"
	})
}
