package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/internal/demo"
)

// demoUserConfig is a user's real setup, which --demo must neither use nor
// show: a provider whose key command would fail (and must not even run)
// and a theme, which still applies.
func demoUserConfig(h *harness) string {
	marker := filepath.Join(h.home, "key-command-ran")
	return `theme = "nord"
default_model = "gpt-4o"
image_dir = "` + filepath.Join(h.home, "pictures") + `"

[[providers]]
name = "work"
base_url = "https://gateway.work.example/v1"
api_key_cmd = "touch ` + marker + `; exit 1"
`
}

// checkUntouched fails when the user's gateways were used or shown.
func checkUntouched(t *testing.T, h *harness, r result) {
	t.Helper()
	if n := h.gw.RequestCount(); n != 0 {
		t.Errorf("the gateway of OPENAI_BASE_URL got %d requests under --demo", n)
	}
	if _, err := os.Stat(filepath.Join(h.home, "key-command-ran")); err == nil {
		t.Error("--demo ran the user's api_key_cmd")
	}
	for _, s := range []string{h.gw.URL(), "gateway.work.example", "key from OPENAI", "api_key_cmd"} {
		if strings.Contains(r.stdout+r.stderr, s) {
			t.Errorf("--demo shows %q:\nstdout %q\nstderr %q", s, r.stdout, r.stderr)
		}
	}
}

func TestAskDemo(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(demoUserConfig(h))

	r := h.run(nil, "ask", "--demo", "-m", "demo-echo", "hello demo")
	r.mustCode(t, 0)
	if r.stdout != "hello demo\n" || r.stderr != "" {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	checkUntouched(t, h, r)

	// The default model is the Markdown one; the pace flag makes it fast.
	r = h.run(nil, "ask", "--demo", "--demo-dps", "-1", "--usage", "what can you do?")
	r.mustCode(t, 0)
	for _, want := range []string{"## Hello from the parley demo", "| `demo-vision` |", "```sh\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the demo-chat reply lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "usage: ") || strings.Contains(r.stderr, "did not report") {
		t.Errorf("stderr %q: demo-chat reports usage", r.stderr)
	}
	checkUntouched(t, h, r)

	// Vision through --attach: the reply names the real format and size.
	img := writePNG(t, t.TempDir(), "shot.png", 120, 80, false)
	r = h.run(nil, "ask", "--demo", "--demo-dps", "-1", "-m", "demo-vision", "-a", img, "what is this?")
	r.mustCode(t, 0)
	if !strings.Contains(r.stdout, "**PNG** image of **120×80** pixels") {
		t.Errorf("vision reply %q", r.stdout)
	}

	// demo-think: the answer alone on stdout; its reasoning on stderr only
	// where asked for (stderr is no terminal here).
	r = h.run(nil, "ask", "--demo", "--demo-dps", "-1", "-m", "demo-think", "why?")
	r.mustCode(t, 0)
	if !strings.Contains(r.stdout, "apart from this answer") || strings.Contains(r.stdout, "The user asks") || r.stderr != "" {
		t.Errorf("demo-think: stdout %q stderr %q", r.stdout, r.stderr)
	}
	r = h.run(nil, "ask", "--demo", "--demo-dps", "-1", "-m", "demo-think", "--reasoning", "why?")
	if !strings.HasPrefix(r.stderr, `The user asks: "why?"`) {
		t.Errorf("demo-think --reasoning: stderr %q", r.stderr)
	}

	// demo-files through --attach: a text file, to a model without vision.
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := writeFile(notes, "# Plan\nship it\n"); err != nil {
		t.Fatal(err)
	}
	r = h.run(nil, "ask", "--demo", "--demo-dps", "-1", "-m", "demo-files", "-a", notes, "what is in it?")
	r.mustCode(t, 0)
	if !strings.Contains(r.stdout, "| `notes.md` | 2 | 4 |") || !strings.Contains(r.stdout, "begins: \"# Plan\"") {
		t.Errorf("demo-files reply %q", r.stdout)
	}

	// The failing model fails with exit status 1 and one sentence.
	r = h.run(nil, "ask", "--demo", "--demo-dps", "-1", "-m", "demo-fail", "hi")
	r.mustCode(t, 1)
	if !strings.HasPrefix(r.stdout, "This reply starts well") || !strings.Contains(r.stderr, "demo-fail failed in the middle of the reply on purpose") {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestImageDemoWritesPNGOfTheAskedSize(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(demoUserConfig(h))
	tmp := t.TempDir()
	h.env["TMPDIR"] = tmp
	r := h.run(nil, "image", "--demo", "-n", "2", "--size", "320x200", "a red kite")
	r.mustCode(t, 0)
	paths := strings.Fields(r.stdout)
	if len(paths) != 2 {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	// The demo keeps nothing: a temporary folder, named on stderr, not
	// the config's image_dir.
	demoDir := filepath.Dir(paths[0])
	if filepath.Dir(demoDir) != tmp || !strings.HasPrefix(filepath.Base(demoDir), "parley-demo-images-") ||
		r.stderr != "parley: The demo keeps nothing: its images go to the temporary folder "+demoDir+" (copy the ones you want to keep).\n" {
		t.Fatalf("demo folder %s, stderr %q", demoDir, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(h.home, "pictures")); !os.IsNotExist(err) {
		t.Errorf("the demo wrote into image_dir (%v)", err)
	}
	for _, p := range paths {
		if filepath.Dir(p) != demoDir {
			t.Errorf("%s is not in the demo's folder", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s is not a PNG: %v", p, err)
		}
		if s := img.Bounds().Size(); s != (image.Point{320, 200}) {
			t.Errorf("%s is %v, want 320x200", p, s)
		}
	}
	checkUntouched(t, h, r)

	// An edit: the input's size, tinted.
	in := writePNG(t, t.TempDir(), "in.png", 64, 48, false)
	r = h.run(nil, "image", "--demo", "--edit", in, "-o", t.TempDir(), "make it blue")
	r.mustCode(t, 0)
	b, err := os.ReadFile(strings.TrimSpace(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(b)); err != nil || format != "png" || cfg.Width != 64 || cfg.Height != 48 {
		t.Errorf("edit: %s %dx%d %v", format, cfg.Width, cfg.Height, err)
	}

	// Beyond the demo's bounds: refused before the request, saying what
	// demo-image takes, with no config advice (no config changes it).
	r = h.run(nil, "image", "--demo", "--size", "2048x2048", "x")
	r.mustCode(t, 2)
	if r.stderr != "parley: Model \"demo-image\" of the built-in demo does not accept size 2048x2048; it accepts auto or any <width>x<height> up to 1024x1024.\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// TestImageDemoFailingLeavesNoFolder: what is refused before the request
// neither makes nor names the demo's folder, and a request that fails
// leaves no empty folder behind.
func TestImageDemoFailingLeavesNoFolder(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(demoUserConfig(h))
	tmp := t.TempDir()
	h.env["TMPDIR"] = tmp
	in := writePNG(t, t.TempDir(), "in.png", 64, 48, false)
	mask := writePNG(t, t.TempDir(), "mask.png", 32, 32, true)
	wide := writePNG(t, t.TempDir(), "wide.png", 2100, 8, false)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--edit", filepath.Join(tmp, "nothere.png"), "blue"}, 2, "there is no such file"},
		{[]string{"--size", "abc", "kite"}, 2, `Size "abc" is not <width>x<height>`},
		{[]string{"--edit", in, "--mask", mask, "blue"}, 2, "the mask is 32x32 but the image is 64x48"},
		{[]string{"-n", "0", "kite"}, 2, "parley: -n must be from 1 to 4, not 0 (what demo-image makes per request).\n"},
		{[]string{"-n", "5", "kite"}, 2, "parley: -n must be from 1 to 4, not 5 (what demo-image makes per request).\n"},
		{[]string{"--size", "2000x2000", "kite"}, 2, "does not accept size 2000x2000; it accepts auto or any <width>x<height> up to 1024x1024."},
		// The gateway refuses an input wider than the demo edits.
		{[]string{"--edit", wide, "blue"}, 1, "400"},
	} {
		r := h.run(nil, append([]string{"image", "--demo"}, c.args...)...)
		r.mustCode(t, c.code)
		if !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%v: stdout %q, stderr %q lacks %q", c.args, r.stdout, r.stderr, c.want)
		}
		if c.code == 2 && strings.Contains(r.stderr, "temporary folder") {
			t.Errorf("%v: a refused run names a folder: %q", c.args, r.stderr)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%v: left %v in TMPDIR", c.args, left)
		}
	}
	checkUntouched(t, h, result{})
}

func TestModelsDemo(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(demoUserConfig(h))
	r := h.run(nil, "models", "--demo")
	r.mustCode(t, 0)
	for _, want := range []string{
		"replaced by the built-in demo", "(key from the built-in demo)",
		"model demo-chat [demo, the built-in demo]: chat, usage (default)",
		"model demo-vision [demo, the built-in demo]: chat, vision, usage",
		"model demo-image [demo, the built-in demo]: image generation, image editing, sizes up to 1024x1024, n ≤ 4 (image default)",
		"* demo-fail", "(provider \"demo\"): 9",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("parley models --demo lacks %q:\n%s", want, r.stdout)
		}
	}
	checkUntouched(t, h, r)
	if _, err := os.Stat(modelCachePath(func(k string) string { return h.env[k] }, h.home)); err == nil {
		t.Error("the demo's models went into the completion cache")
	}
}

// TestChatDemoRequest: the chat gets a configuration pointing at the demo,
// marked as a demo, with the config's theme; the gateway is stopped when
// the command ends.
func TestChatDemoRequest(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(demoUserConfig(h))
	h.stdoutTTY = true
	var base string
	r := runChat(t, h, func(ctx context.Context, req TUIRequest) error {
		c, err := req.NewClient(demo.ModelVision)
		if err != nil {
			return err
		}
		defer c.CloseIdleConnections()
		base = c.BaseURL()
		ids, err := c.ListModels(ctx)
		if err != nil || len(ids) != len(demo.Models()) {
			t.Errorf("the demo gateway lists %v, %v", ids, err)
		}
		return nil
	}, "--demo")
	r.mustCode(t, 0)
	req := h.tui
	if req == nil || !req.Demo || req.Model != demo.ModelChat || req.Theme != "nord" || len(req.Warnings) != 0 {
		t.Fatalf("request = %+v", req)
	}
	if !req.Config.Catalog().Lookup(demo.ModelVision).Caps.Vision {
		t.Error("demo-vision has no vision in the chat's catalog")
	}
	u, err := url.Parse(base)
	if err != nil || u.Hostname() != "127.0.0.1" {
		t.Fatalf("the demo is at %q, not on loopback", base)
	}
	checkUntouched(t, h, r)

	// After the command, nothing listens there any more.
	c, err := api.NewClient(api.ClientConfig{BaseURL: base, Retry: api.RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.ListModels(ctx); err == nil {
		t.Error("the demo gateway still answers after the command ended")
	}

	// Without --demo the chat is not a demo.
	r = h.run(nil)
	r.mustCode(t, 0)
	if h.tui.Demo {
		t.Error("a chat without --demo is marked as a demo")
	}
}

// The chat's demo keeps nothing either, as parley image --demo: /image
// saves into a temporary folder stderr names, never image_dir; the folder
// goes when the chat ends unless images were made in it.
func TestChatDemoSavesImagesInATemporaryFolder(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(demoUserConfig(h))
	tmp := t.TempDir()
	h.env["TMPDIR"] = tmp
	var dirs []string
	for _, keep := range []bool{false, true} {
		r := runChat(t, h, func(_ context.Context, req TUIRequest) error {
			dir := req.Config.ImageDir()
			dirs = append(dirs, dir)
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return fmt.Errorf("the demo's folder %s: %v", dir, err)
			}
			if keep {
				return writeFile(filepath.Join(dir, "made.png"), "an image")
			}
			return nil
		}, "--demo")
		r.mustCode(t, 0)
		dir := dirs[len(dirs)-1]
		if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "parley-demo-images-") {
			t.Fatalf("the chat's demo saves images in %s, not a temporary folder in %s", dir, tmp)
		}
		if r.stderr != "parley: The demo keeps nothing: its images go to the temporary folder "+dir+" (copy the ones you want to keep).\n" {
			t.Fatalf("stderr %q", r.stderr)
		}
		if _, err := os.Stat(dir); os.IsNotExist(err) == keep {
			t.Fatalf("keep %v: after the chat the folder's state is %v", keep, err)
		}
		checkUntouched(t, h, r)
	}
	if _, err := os.Stat(filepath.Join(h.home, "pictures")); !os.IsNotExist(err) {
		t.Errorf("the chat's demo made image_dir (%v)", err)
	}
	// Without --demo the chat saves in image_dir.
	runChat(t, h, func(context.Context, TUIRequest) error { return nil }).mustCode(t, 0)
	if got := h.tui.Config.ImageDir(); got != filepath.Join(h.home, "pictures") {
		t.Fatalf("without --demo images go to %s", got)
	}
}

func TestDemoPaceFlag(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "ask", "--demo-dps", "100", "hi")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "add --demo") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = h.run(nil, "ask", "--demo", "--demo-dps", "1e9", "hi")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "too fast") {
		t.Errorf("stderr %q", r.stderr)
	}
	if h.gw.RequestCount() != 0 {
		t.Error("a refused flag still sent a request")
	}
}

// runChat runs parley as h.run does, with stdin and stdout terminals and
// the chat replaced by open, which is called while the command runs.
func runChat(t *testing.T, h *harness, open func(context.Context, TUIRequest) error, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{
		Stdout: &out, Stderr: &errb,
		StdinIsTerminal: true, StdoutIsTerminal: true,
		RunTUI: func(ctx context.Context, req TUIRequest) error {
			h.tui = &req
			return open(ctx, req)
		},
		Getenv:  func(k string) string { return h.env[k] },
		HomeDir: h.home,
		Now:     func() time.Time { return h.now },
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code := Main(ctx, args, env)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}
