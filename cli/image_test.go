package cli

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parley/api/apitest"
	"parley/media/mediatest"
)

func picturesDir(h *harness) string { return filepath.Join(h.env["XDG_PICTURES_DIR"], "parley") }

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestImageSavesPNGsAndPrintsOnlyTheirPaths(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "image", "-m", "gpt-image-1", "--size", "1024x1024", "A red bicycle!")
	r.mustCode(t, 0)
	want := filepath.Join(picturesDir(h), "20261121-143005-a-red-bicycle-1.png")
	if r.stdout != want+"\n" {
		t.Fatalf("stdout = %q, want %q", r.stdout, want+"\n")
	}
	f, err := os.Open(want)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(f)
	if err != nil || format != "png" || cfg.Width != 1024 {
		t.Fatalf("saved file: %v %s %dx%d", err, format, cfg.Width, cfg.Height)
	}
	req, _ := h.gw.LastRequest()
	if _, ok := req.JSON["response_format"]; ok {
		t.Fatalf("response_format sent to gpt-image-1: %s", req.Body)
	}
	if _, ok := req.JSON["n"]; ok {
		t.Fatalf("n sent though not asked for: %s", req.Body)
	}
	if req.JSON["size"] != "1024x1024" || req.JSON["prompt"] != "A red bicycle!" {
		t.Fatalf("request = %s", req.Body)
	}
}

func TestImageNeverOverwrites(t *testing.T) {
	h := newHarness(t)
	first := h.run(nil, "image", "-m", "dall-e-2", "-n", "2", "--size", "256x256", "-o", t.TempDir(), "cat")
	first.mustCode(t, 0)
	paths := strings.Fields(first.stdout)
	if len(paths) != 2 {
		t.Fatalf("stdout = %q", first.stdout)
	}
	req, _ := h.gw.LastRequest()
	if req.JSON["response_format"] != "b64_json" || req.JSON["n"] != float64(2) {
		t.Fatalf("dall-e-2 request = %s", req.Body)
	}
	dir := filepath.Dir(paths[0])
	before, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	second := h.run(nil, "image", "-m", "dall-e-2", "-n", "2", "--size", "256x256", "-o", dir, "cat")
	second.mustCode(t, 0)
	again := strings.Fields(second.stdout)
	if len(again) != 2 || again[0] == paths[0] || again[1] == paths[1] {
		t.Fatalf("second run reused names: %v then %v", paths, again)
	}
	after, _ := os.ReadFile(paths[0])
	if !bytes.Equal(before, after) {
		t.Fatal("the first image was overwritten")
	}
	if n := len(listDir(t, dir)); n != 4 {
		t.Fatalf("%d files, want 4", n)
	}
}

func TestImageRefusesWhatTheModelCannotDoBeforeAnyRequest(t *testing.T) {
	img := writePNG(t, t.TempDir(), "in.png", 32, 32, false)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-m", "dall-e-3", "-n", "3", "x"}, "-n must be from 1 to 1, not 3 (what dall-e-3 makes per request)"},
		{[]string{"-m", "gpt-image-1", "-n", "0", "x"}, "-n must be from 1 to 10, not 0 (what gpt-image-1 makes per request)"},
		{[]string{"-m", "unknown-image-model", "-n", "0", "x"}, "-n must be from 1 to 1, not 0."},
		// A model whose max_n is not known makes 1: more is refused before
		// any request, saying how to allow it.
		{[]string{"-m", "unknown-image-model", "-n", "5", "x"}, "parley: -n must be 1, not 5, while how many images unknown-image-model makes per request is not known; if it makes 5, set max_n = 5 under [[models]] name = \"unknown-image-model\" in "},
		{[]string{"-m", "gpt-image-1", "--size", "999x999", "x"}, "1536x1024"},
		{[]string{"-m", "gpt-image-1", "--size", "big", "x"}, "<width>x<height>"},
		{[]string{"-m", "dall-e-3", "--edit", img, "x"}, "image_edit = true"},
		{[]string{"-m", "gpt-4o", "x"}, "image_generation = true"},
		{[]string{"-m", "gpt-image-1", "--mask", img, "x"}, "--edit"},
		{[]string{"-m", "gpt-image-1"}, "prompt"},
		{[]string{"-m", "gpt-image-1", "-n", "-1", "x"}, "-n must be from 1 to 10, not -1"},
	}
	for _, c := range cases {
		h := newHarness(t)
		r := h.run(nil, append([]string{"image"}, c.args...)...)
		r.mustCode(t, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: stderr %q lacks %q", c.args, r.stderr, c.want)
		}
		if n := imageRequests(h); n != 0 {
			t.Errorf("%v: %d image requests sent", c.args, n)
		}
	}
}

// TestImageRefusalNamesTheModelsThatCan: a model that cannot generate or
// edit is refused naming those of the gateway that can, as `parley
// models` lists them, whether the list is in the cache or not yet.
func TestImageRefusalNamesTheModelsThatCan(t *testing.T) {
	h := newHarness(t)
	h.env["XDG_CACHE_HOME"] = filepath.Join(h.home, ".cache")
	img := writePNG(t, t.TempDir(), "cat.png", 32, 32, false)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-m", "dall-e-3", "--edit", img, "blue"}, `Model "dall-e-3" cannot edit images. If it can, add image_edit = true under [[models]] name = "dall-e-3" in ` + filepath.Join(h.home, ".config", "parley", "config.toml") + "; otherwise use one of the models that edit images: dall-e-2, gpt-image-1.\n"},
		{[]string{"-m", "gpt-4o", "kite"}, "; otherwise use one of the models that generate images: dall-e-2, dall-e-3, gpt-image-1.\n"},
	} {
		r := h.run(nil, append([]string{"image"}, c.args...)...)
		r.mustCode(t, 2)
		if !strings.HasSuffix(r.stderr, c.want) {
			t.Errorf("%v: stderr %q, want it to end %q", c.args, r.stderr, c.want)
		}
	}
	// The first refusal asked for the list; the second found it cached.
	if n, images := len(h.gw.RequestsTo("/models")), imageRequests(h); n != 1 || images != 0 {
		t.Errorf("%d model lists asked for and %d image requests; want one list and no image request", n, images)
	}
}

// imageRequests counts the requests that make or edit images.
func imageRequests(h *harness) int {
	return len(h.gw.RequestsTo("/images/generations")) + len(h.gw.RequestsTo("/images/edits"))
}

func TestImageInvalidBase64WritesNothing(t *testing.T) {
	for _, body := range []string{`{"data":[{"b64_json":"!!not base64!!"}]}`, `{"data":[]}`} {
		h := newHarness(t)
		h.gw.Enqueue(apitest.Reply{Body: body})
		r := h.run(nil, "image", "-m", "gpt-image-1", "x")
		r.mustCode(t, 1)
		if r.stdout != "" {
			t.Fatalf("stdout = %q", r.stdout)
		}
		if files := listDir(t, picturesDir(h)); len(files) != 0 {
			t.Fatalf("files written: %v", files)
		}
	}
}

func TestImageSavesOtherFormatsWithTheRightExtension(t *testing.T) {
	h := newHarness(t)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 16, 16)), nil); err != nil {
		t.Fatal(err)
	}
	h.gw.Enqueue(apitest.Reply{Images: [][]byte{jpg.Bytes()}})
	r := h.run(nil, "image", "-m", "gpt-image-1", "x")
	r.mustCode(t, 0)
	if !strings.HasSuffix(strings.TrimSpace(r.stdout), ".jpg") || !strings.Contains(r.stderr, "JPEG") {
		t.Fatalf("stdout = %q, stderr = %q", r.stdout, r.stderr)
	}
}

func TestImageEditUploadsImageAndMask(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	img := writePNG(t, dir, "room.png", 64, 64, false)
	mask := writePNG(t, dir, "mask.png", 64, 64, true)
	r := h.run(nil, "image", "-m", "gpt-image-1", "--edit", img, "--mask", mask, "put a cat on the sill")
	r.mustCode(t, 0)
	if len(strings.Fields(r.stdout)) != 1 {
		t.Fatalf("stdout = %q", r.stdout)
	}
	req, _ := h.gw.LastRequest()
	if req.Path != "/v1/images/edits" || req.Edit == nil {
		t.Fatalf("request = %s %s", req.Method, req.Path)
	}
	if req.Edit.Prompt != "put a cat on the sill" || len(req.Edit.Images) != 1 || req.Edit.Mask == nil {
		t.Fatalf("edit form = %+v", req.Edit.Fields)
	}
	if req.Edit.Images[0].ContentType != "image/png" || req.Edit.Images[0].Filename != "room.png" {
		t.Fatalf("image part = %q %q", req.Edit.Images[0].Filename, req.Edit.Images[0].ContentType)
	}
}

func TestImageEditRefusesAMaskOfAnotherSize(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	img := writePNG(t, dir, "room.png", 64, 64, false)
	mask := writePNG(t, dir, "mask.png", 32, 32, true)
	r := h.run(nil, "image", "-m", "gpt-image-1", "--edit", img, "--mask", mask, "x")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "64") || h.gw.RequestCount() != 0 {
		t.Fatalf("stderr = %q, requests = %d", r.stderr, h.gw.RequestCount())
	}
}

// TestImageChecksTheDirectoryFirst: an image directory that cannot be
// written is refused before the (billed) request.
func TestImageChecksTheDirectoryFirst(t *testing.T) {
	h := newHarness(t)
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := writeFile(blocker, "not a directory"); err != nil {
		t.Fatal(err)
	}
	r := h.run(nil, "image", "-m", "gpt-image-1", "-o", filepath.Join(blocker, "sub"), "x")
	r.mustCode(t, 2)
	if !strings.HasPrefix(r.stderr, "parley: Cannot create the image directory ") {
		t.Fatalf("stderr %q", r.stderr)
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
	if files := listDir(t, filepath.Dir(blocker)); len(files) != 1 {
		t.Fatalf("files left behind: %v", files)
	}
}

// TestImageKeepsAtMostNImages: a gateway that returns five images when one
// was asked for gets one saved and a note about the rest.
func TestImageKeepsAtMostNImages(t *testing.T) {
	h := newHarness(t)
	var pngs [][]byte
	for i := range 5 {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8+i, 8))); err != nil {
			t.Fatal(err)
		}
		pngs = append(pngs, b.Bytes())
	}
	h.gw.Enqueue(apitest.Reply{Images: pngs})
	r := h.run(nil, "image", "-m", "gpt-image-1", "x")
	r.mustCode(t, 0)
	if files := listDir(t, picturesDir(h)); len(files) != 1 || len(strings.Fields(r.stdout)) != 1 {
		t.Fatalf("files %v, stdout %q: want exactly one image saved", files, r.stdout)
	}
	if !strings.HasSuffix(r.stderr, "parley: The gateway sent 5 images though 1 was asked for; saved 1 image and dropped the other 4.\n") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// TestImageRefusesAGatewayBomb: a 20000x20000 PNG (about 400 KB, 400 MB
// decoded) is refused from its header with one sentence; nothing is saved.
func TestImageRefusesAGatewayBomb(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Images: [][]byte{mediatest.ZeroPNG(t, 20000, 20000, 8, mediatest.Gray, false, false)}})
	r := h.run(nil, "image", "-m", "gpt-image-1", "x")
	r.mustCode(t, 1)
	want := "parley: The gateway's image 1 of 1 is 20000x20000 pixels (400.3 MB decoded), more than parley decodes (256.0 MB), so nothing was saved; ask for a smaller size"
	if !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("stderr %q, want %q", r.stderr, want)
	}
	if files := listDir(t, picturesDir(h)); len(files) != 0 {
		t.Fatalf("files written: %v", files)
	}
}

func writeTestText(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := writeFile(p, body); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImage413AdviceFitsImages: a 413 for an image request talks about the
// size and number of images (or the uploads of an edit), not attachments.
func TestImage413AdviceFitsImages(t *testing.T) {
	body := `{"error":{"message":"Request too large.","type":"invalid_request_error"}}`
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Status: 413, Body: body})
	r := h.run(nil, "image", "-m", "gpt-image-1", "x")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "The gateway refused the request as too large (413 Request Entity Too Large: Request too large); ask for a smaller size or fewer images") ||
		strings.Contains(r.stderr, "attach") {
		t.Fatalf("stderr %q", r.stderr)
	}
	h = newHarness(t)
	h.gw.Enqueue(apitest.Reply{Status: 413, Body: body})
	img := writePNG(t, t.TempDir(), "room.png", 64, 64, false)
	r = h.run(nil, "image", "-m", "gpt-image-1", "--edit", img, "x")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "upload smaller images to edit, or ask for a smaller size or fewer images") {
		t.Fatalf("edit stderr %q", r.stderr)
	}
}

// TestImageNoProgressWithoutATerminal: with stderr a pipe or file, parley
// image writes nothing but its result, even while it waits.
func TestImageNoProgressWithoutATerminal(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Delay: 1200 * time.Millisecond})
	r := h.run(nil, "image", "-m", "gpt-image-1", "x")
	r.mustCode(t, 0)
	if r.stderr != "" {
		t.Fatalf("stderr %q, want nothing", r.stderr)
	}
}

func TestImageProgressLine(t *testing.T) {
	var (
		mu  sync.Mutex
		now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	frames := func(w *lockedWriter) []string { return strings.Split(w.String(), "\r\x1b[K")[1:] }

	// A tick too long to fire, so every draw is the test's own.
	w := &lockedWriter{w: &bytes.Buffer{}}
	p := runProgress(context.Background(), w, 80, "generating 1 image with \x1b]0;evil\x07gpt-image-1 (1024x1024)", clock, time.Hour)
	advance(400 * time.Millisecond)
	p.draw() // the same second: nothing is written
	advance(700 * time.Millisecond)
	p.draw()
	p.set("saving 1 image")
	p.stop()
	p.stop()
	want := []string{
		"parley: generating 1 image with ␛]0;evil␇gpt-image-1 (1024x1024) · 0 s",
		"parley: generating 1 image with ␛]0;evil␇gpt-image-1 (1024x1024) · 1 s",
		"parley: saving 1 image · 1 s",
		"", // cleared at the end, once
	}
	if got := frames(w); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("frames %q\nwant   %q (the model name sanitised, redrawn only on change)", got, want)
	}

	// A narrow terminal: the line is cut to fit, never wrapped.
	w = &lockedWriter{w: &bytes.Buffer{}}
	p = runProgress(context.Background(), w, 30, "generating 4 images with a-very-long-model-name", clock, time.Hour)
	p.stop()
	if f := frames(w); len(f) != 2 || ansi.StringWidth(f[0]) != 29 || !strings.HasSuffix(f[0], "…") {
		t.Fatalf("narrow frames %q", f)
	}

	// The goroutine ends with its context too.
	ctx, cancel := context.WithCancel(context.Background())
	p = runProgress(ctx, &lockedWriter{w: &bytes.Buffer{}}, 80, "x", clock, time.Millisecond)
	cancel()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the progress goroutine outlived its context")
	}
	p.stop()
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}
