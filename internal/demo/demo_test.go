package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/config"
)

// start runs a demo gateway for one test; dps < 0 streams without pauses.
func start(t *testing.T, dps float64) *Gateway {
	t.Helper()
	g, err := Start(Options{DeltasPerSecond: dps})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// client talks to g the way parley does, through its Override, without
// retries so failures show at once.
func client(t *testing.T, g *Gateway) *api.Client {
	t.Helper()
	o := g.Override()
	c, err := api.NewClient(api.ClientConfig{BaseURL: o.BaseURL, APIKey: o.APIKey, Retry: api.RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func ctx(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// streamChat sends one user message and collects the streamed text and
// the error that ended the stream (nil at a clean end).
func streamChat(t *testing.T, c *api.Client, model string, parts ...api.Part) (string, int, error) {
	t.Helper()
	msg := api.Message{Role: api.RoleUser, Content: api.Content{Parts: parts}}
	s, err := c.ChatStream(ctx(t), api.ChatRequest{Model: model, Messages: []api.Message{msg}})
	if err != nil {
		return "", 0, err
	}
	defer s.Close()
	var b strings.Builder
	deltas := 0
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return b.String(), deltas, nil
		}
		if err != nil {
			return b.String(), deltas, err
		}
		if ev.Text != "" {
			deltas++
		}
		b.WriteString(ev.Text)
	}
}

func TestChatStreamsMarkdownTour(t *testing.T) {
	c := client(t, start(t, -1))
	text, deltas, err := streamChat(t, c, ModelChat, api.TextPart("What can you do?"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Hello from the parley demo", "You asked: *What can you do?*",
		"| model | what it shows |", "| `demo-vision` |", "| `demo-fail` |",
		"1. Switch to `demo-vision`", "- `parley ask --demo", "```sh\nexport OPENAI_BASE_URL=", "\n> ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo-chat answer lacks %q:\n%s", want, text)
		}
	}
	if deltas < 100 {
		t.Errorf("the answer came in %d deltas; it should stream in small pieces", deltas)
	}
	if strings.Count(text, "```")%2 != 0 {
		t.Errorf("unbalanced code fences:\n%s", text)
	}
}

// TestPace: the stream keeps the asked pace, so the default gives the
// human-visible stream of a few seconds the demo promises.
func TestPace(t *testing.T) {
	const dps = 400
	c := client(t, start(t, dps))
	began := time.Now()
	text, deltas, err := streamChat(t, c, ModelEcho, api.TextPart(strings.Repeat("pace ", 40)))
	if err != nil {
		t.Fatal(err)
	}
	if took, least := time.Since(began), time.Duration(deltas)*time.Second/dps; took < least {
		t.Errorf("%d deltas at %d/s took %v, less than %v", deltas, dps, took, least)
	}
	if strings.TrimSpace(text) != strings.TrimSpace(strings.Repeat("pace ", 40)) {
		t.Errorf("echo = %q", text)
	}
	// The default pace streams the chat answer in a few seconds.
	n := len(splitCount(chatAnswer("What can you do?")))
	if d := time.Duration(n) * time.Second / DefaultDeltasPerSecond; d < 2*time.Second || d > 12*time.Second {
		t.Errorf("demo-chat streams %d deltas in %v at the default pace; want a few seconds", n, d)
	}
	if _, err := Start(Options{DeltasPerSecond: MaxDeltasPerSecond + 1}); err == nil {
		t.Error("a pace above the maximum was accepted")
	}
}

func splitCount(s string) []string {
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := min(runesPerDelta, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}

func TestEcho(t *testing.T) {
	c := client(t, start(t, -1))
	text, _, err := streamChat(t, c, ModelEcho, api.TextPart("  hello there  "))
	if err != nil || text != "hello there" {
		t.Fatalf("echo = %q, %v", text, err)
	}
}

func testPNG(t *testing.T, w, h int, alpha func(x, y int) uint8) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha != nil {
				a = alpha(x, y)
			}
			img.SetNRGBA(x, y, color.NRGBA{200, 200, 200, a})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func dataURI(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

func TestVisionDescribesImages(t *testing.T) {
	c := client(t, start(t, -1))
	var jp bytes.Buffer
	if err := jpeg.Encode(&jp, image.NewRGBA(image.Rect(0, 0, 64, 48)), nil); err != nil {
		t.Fatal(err)
	}
	text, _, err := streamChat(t, c, ModelVision,
		api.TextPart("what are these?"),
		api.ImagePart(dataURI("image/png", testPNG(t, 37, 21, nil))),
		api.ImagePart(dataURI("image/jpeg", jp.Bytes())),
		api.ImagePart("https://example.com/cat.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"You asked: *what are these?*", "3 images",
		"1. a **PNG** image of **37×21** pixels (", "2. a **JPEG** image of **64×48** pixels (",
		"3. an image given by its URL (https://example.com/cat.png)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the description lacks %q:\n%s", want, text)
		}
	}

	text, _, err = streamChat(t, c, ModelVision, api.TextPart("hello"))
	if err != nil || !strings.Contains(text, "no image") {
		t.Errorf("without an image: %q, %v", text, err)
	}

	// A model without vision is refused by the strict gateway.
	_, _, err = streamChat(t, c, ModelChat, api.TextPart("x"), api.ImagePart(dataURI("image/png", testPNG(t, 2, 2, nil))))
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 {
		t.Errorf("an image for demo-chat: %v, want a 400", err)
	}
}

// TestDescribeImageHeaderOnly: a description never decodes more than the
// header budget, and says so when the header cannot be read.
func TestDescribeImageHeaderOnly(t *testing.T) {
	huge := dataURI("image/png", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 3*maxHeaderBytes)...))
	if d := describeImage(huge); !strings.Contains(d, "could not read") {
		t.Errorf("broken image: %q", d)
	}
	if got := decodedLen(base64.StdEncoding.EncodeToString(make([]byte, 2500))); got != 2500 {
		t.Errorf("decodedLen = %d, want 2500", got)
	}
	long := "https://example.com/" + strings.Repeat("a", 300)
	if d := describeImage(long); len([]rune(d)) > maxShownURL+120 || !strings.Contains(d, "…") {
		t.Errorf("a long URL is not shortened: %q", d)
	}
}

func decode(t *testing.T, d api.GeneratedImage) (image.Image, []byte) {
	t.Helper()
	b := d.File
	img, format, err := image.Decode(bytes.NewReader(b))
	if err != nil || format != "png" {
		t.Fatalf("not a PNG (%q): %v", format, err)
	}
	return img, b
}

func TestImageGeneration(t *testing.T) {
	c := client(t, start(t, -1))
	gen := func(prompt string, n int, size string) (*api.ImageReply, error) {
		return c.GenerateImages(ctx(t), api.ImageRequest{Model: ModelImage, Prompt: prompt, N: n, Size: size})
	}
	resp, err := gen("a red kite over green hills", 2, "300x200")
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Data) != 2 {
		t.Fatalf("%d images, want 2", len(resp.Data))
	}
	img0, b0 := decode(t, resp.Data[0])
	_, b1 := decode(t, resp.Data[1])
	if s := img0.Bounds().Size(); s.X != 300 || s.Y != 200 {
		t.Errorf("size %v, want 300x200", s)
	}
	if bytes.Equal(b0, b1) {
		t.Error("the two images of one request are the same")
	}
	again, err := gen("A  red kite over green hills", 1, "300x200")
	if err != nil {
		t.Fatal(err)
	}
	if _, b := decode(t, again.Data[0]); !bytes.Equal(b, b0) {
		t.Error("the same prompt drew another picture")
	}
	other, err := gen("a lighthouse", 1, "300x200")
	if err != nil {
		t.Fatal(err)
	}
	if _, b := decode(t, other.Data[0]); bytes.Equal(b, b0) {
		t.Error("another prompt drew the same picture")
	}
	// Colour words choose colours: "red" puts red in the picture.
	if !hasColour(img0, color.NRGBA{220, 40, 40, 255}) {
		t.Error("a red kite has no red in it")
	}
	// No size: the largest square.
	def, err := gen("x", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if img, _ := decode(t, def.Data[0]); img.Bounds().Dx() != maxImageSide {
		t.Errorf("default size %v", img.Bounds())
	}

	// Bounds: OpenAI-shaped 400s.
	for _, c := range []struct {
		n    int
		size string
	}{{1, "2048x2048"}, {1, "1025x10"}, {maxImages + 1, "64x64"}} {
		_, err := gen("x", c.n, c.size)
		var ae *api.APIError
		if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Message == "" {
			t.Errorf("n=%d size=%s: %v, want a 400 with a message", c.n, c.size, err)
		}
	}
}

func hasColour(img image.Image, want color.NRGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) == want {
				return true
			}
		}
	}
	return false
}

func TestImageEdit(t *testing.T) {
	c := client(t, start(t, -1))
	in := testPNG(t, 50, 40, nil)
	// The mask is transparent on the left half: only that half changes.
	mask := testPNG(t, 50, 40, func(x, _ int) uint8 {
		if x < 25 {
			return 0
		}
		return 255
	})
	resp, err := c.EditImages(ctx(t), api.EditRequest{
		Model: ModelImage, Prompt: "make it blue", N: 2,
		Images: []api.ImageFile{{Name: "in.png", Data: in, MIME: "image/png"}},
		Mask:   &api.ImageFile{Name: "mask.png", Data: mask, MIME: "image/png"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Data) != 2 {
		t.Fatalf("%d images, want 2", len(resp.Data))
	}
	img, b0 := decode(t, resp.Data[0])
	if s := img.Bounds().Size(); s.X != 50 || s.Y != 40 {
		t.Errorf("edit size %v, want the input's 50x40", s)
	}
	left := color.NRGBAModel.Convert(img.At(5, 5)).(color.NRGBA)
	right := color.NRGBAModel.Convert(img.At(45, 5)).(color.NRGBA)
	if right != (color.NRGBA{200, 200, 200, 255}) {
		t.Errorf("outside the mask the image changed: %v", right)
	}
	if left.B <= left.R || left == right {
		t.Errorf("inside the mask the image is not tinted blue: %v", left)
	}
	if _, b1 := decode(t, resp.Data[1]); bytes.Equal(b0, b1) {
		t.Error("the two edits are the same")
	}

	// A size scales the result.
	resp, err = c.EditImages(ctx(t), api.EditRequest{Model: ModelImage, Prompt: "x", Size: "100x20",
		Images: []api.ImageFile{{Name: "in.png", Data: in, MIME: "image/png"}}})
	if err != nil {
		t.Fatal(err)
	}
	if img, _ := decode(t, resp.Data[0]); img.Bounds().Dx() != 100 || img.Bounds().Dy() != 20 {
		t.Errorf("size 100x20 gave %v", img.Bounds())
	}

	// Too large an input: a 400 that says the limit.
	big := testPNG(t, maxEditSide+1, 1, nil)
	_, err = c.EditImages(ctx(t), api.EditRequest{Model: ModelImage, Prompt: "x", Images: []api.ImageFile{{Name: "big.png", Data: big, MIME: "image/png"}}})
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || !strings.Contains(ae.Message, "pixels per side") {
		t.Errorf("too large an input: %v", err)
	}
}

func TestFail(t *testing.T) {
	c := client(t, start(t, -1))
	text, _, err := streamChat(t, c, ModelFail, api.TextPart("hello"))
	var ae *api.APIError
	if !errors.As(err, &ae) || !ae.InStream || !strings.Contains(ae.Message, "demo-fail failed in the middle") {
		t.Fatalf("mid-stream: %v", err)
	}
	if !strings.HasPrefix(text, "This reply starts well") || len([]rune(text)) != failDeltas*runesPerDelta {
		t.Errorf("text before the error = %q", text)
	}
	for _, c2 := range []struct {
		prompt string
		status int
	}{{"show me a 429", 429}, {"401 please", 401}, {"500", 500}} {
		_, _, err := streamChat(t, c, ModelFail, api.TextPart(c2.prompt))
		if !errors.As(err, &ae) || ae.StatusCode != c2.status || ae.Message == "" {
			t.Errorf("%q: %v, want %d", c2.prompt, err, c2.status)
		}
		if c2.status == 429 && ae.RetryAfter != time.Second {
			t.Errorf("429 asks to retry after %v, want 1s", ae.RetryAfter)
		}
	}
	_, err = c.Chat(ctx(t), api.ChatRequest{Model: ModelFail, Messages: []api.Message{api.TextMessage(api.RoleUser, "hi")}})
	if !errors.As(err, &ae) || ae.StatusCode != 500 {
		t.Errorf("non-streaming: %v, want 500", err)
	}
}

// TestSlowStalls: demo-slow stops sending after a few deltas for longer
// than the chat's 15 s notice, then finishes; Close ends a stalled reply.
func TestSlowStalls(t *testing.T) {
	g := start(t, -1)
	r := g.respond(apitest.Call{Endpoint: "/chat/completions", Model: apitest.ModelSpec{ID: ModelSlow}, Stream: true,
		Chat: &apitest.ChatRequest{Messages: []apitest.Message{{Role: "user", Content: apitest.Content{Text: "hi"}}}}})
	if r.Stall <= 15*time.Second || r.StallAfterDeltas <= 0 || len([]rune(r.Text)) <= r.StallAfterDeltas*runesPerDelta {
		t.Errorf("demo-slow reply = stall %v after %d deltas of %q", r.Stall, r.StallAfterDeltas, r.Text)
	}

	c := client(t, g)
	s, err := c.ChatStream(ctx(t), api.ChatRequest{Model: ModelSlow, Messages: []api.Message{api.TextMessage(api.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := 0
	for got < slowStallAfter*runesPerDelta {
		ev, err := s.Recv()
		if err != nil {
			t.Fatalf("before the stall: %v", err)
		}
		got += len([]rune(ev.Text))
	}
	closed := make(chan struct{})
	go func() { g.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a stalled reply")
	}
	if _, err := s.Recv(); err == nil {
		t.Error("the stream went on after Close")
	}
}

func TestLongAnswer(t *testing.T) {
	text := longAnswer()
	if n := len(text); n < 18_000 || n > 26_000 {
		t.Errorf("the long answer is %d bytes; want about 20 KB", n)
	}
	if strings.Count(text, "```")%2 != 0 || strings.Count(text, "| step |") != longSections {
		t.Error("the long answer's fences or tables are broken")
	}
}

// TestOverride: the configuration the demo hands parley names every model
// of the gateway with the same capabilities, and the key works.
func TestOverride(t *testing.T) {
	g := start(t, -1)
	home := t.TempDir()
	cfg, err := config.Load(config.Env{Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return filepath.Join(home, ".config")
		}
		return ""
	}, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	cfg.ApplyOverride(g.Override())
	cat := cfg.Catalog()
	for _, m := range models() {
		caps := cat.Lookup(m.Name).Caps
		s := m.spec
		if caps.Vision != s.Vision || caps.StreamUsage != s.StreamUsage || caps.ImageGeneration != s.ImageGeneration || caps.ImageEdit != s.ImageEdit || caps.ResponseFormat != s.ResponseFormat {
			t.Errorf("%s: catalog %+v, gateway %+v", m.Name, caps, s)
		}
		if (s.ImageGeneration || s.ImageEdit) && caps.MaxImages() != maxImages {
			t.Errorf("%s: n ≤ %d, want %d", m.Name, caps.MaxImages(), maxImages)
		}
	}
	if cfg.DefaultModel != ModelChat || cfg.ImageModel != ModelImage {
		t.Errorf("defaults %q %q", cfg.DefaultModel, cfg.ImageModel)
	}
	p, err := cfg.ProviderFor(ModelChat)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := p.ClientConfig("parley-test")
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(cc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ids, err := c.ListModels(ctx(t))
	if err != nil || len(ids) != len(models()) {
		t.Errorf("ListModels = %v, %v", ids, err)
	}
}

// TestThinkStreamsReasoningApart: demo-think sends its reasoning as
// reasoning_content before the answer, with reasoning tokens in the usage.
func TestThinkStreamsReasoningApart(t *testing.T) {
	c := client(t, start(t, -1))
	msg := api.Message{Role: api.RoleUser, Content: api.Content{Text: "Why is the sky blue?"}}
	s, err := c.ChatStream(ctx(t), api.ChatRequest{Model: ModelThink, Messages: []api.Message{msg}, StreamOptions: &api.StreamOptions{IncludeUsage: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var reasoning, text strings.Builder
	var usage *api.Usage
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Reasoning != "" && text.Len() > 0 {
			t.Fatal("reasoning came after the answer began")
		}
		reasoning.WriteString(ev.Reasoning)
		text.WriteString(ev.Text)
		if ev.Usage != nil {
			usage = ev.Usage
		}
	}
	if !strings.Contains(reasoning.String(), `The user asks: "Why is the sky blue?"`) || strings.Contains(text.String(), "The user asks") {
		t.Fatalf("reasoning %q", reasoning.String())
	}
	if !strings.Contains(text.String(), "apart from this answer") || !strings.Contains(text.String(), "ctrl+t") {
		t.Fatalf("answer %q", text.String())
	}
	if usage.ReasoningTokens() == 0 {
		t.Fatalf("usage %+v", usage)
	}
}

// TestFilesDescribesTextFiles: demo-files reads the text files parley
// attached (real api.Attach parts): lines, words, first line; it needs no
// vision.
func TestFilesDescribesTextFiles(t *testing.T) {
	c := client(t, start(t, -1))
	notes, err := api.AttachBytesContext(context.Background(), "notes.md", []byte("# Shopping\n\nmilk and bread\n```sh\nls\n```\n"), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := api.AttachBytesContext(context.Background(), "data.csv", []byte("a,b\n1,2"), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := streamChat(t, c, ModelFiles, api.TextPart("what is in these?"), notes.Part(), data.Part())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Your message carries 2 text files", "| `notes.md` | 6 | 8 |", "| `data.csv` | 2 | 2 |",
		"- `notes.md` begins: \"# Shopping\"", "- `data.csv` begins: \"a,b\"",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	text, _, err = streamChat(t, c, ModelFiles, api.TextPart("anything?"))
	if err != nil || !strings.Contains(text, "Your last message has no text file") {
		t.Fatalf("no file: %v %q", err, text)
	}
}
