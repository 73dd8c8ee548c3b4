package cli

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

func TestModelsListsConfiguredAndGatewayModels(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(`
[[models]]
name = "llama3"
vision = true
`)
	r := h.run(nil, "models")
	r.mustCode(t, 0)
	configured, gateway, ok := strings.Cut(r.stdout, "Models offered by")
	if !ok {
		t.Fatalf("stdout = %q", r.stdout)
	}
	if !strings.Contains(configured, "llama3") || !strings.Contains(configured, "vision") {
		t.Fatalf("configured part = %q", configured)
	}
	for _, id := range []string{"gpt-4o", "dall-e-3", "gpt-image-1"} {
		if !strings.Contains(gateway, id) {
			t.Fatalf("gateway part lacks %s: %q", id, gateway)
		}
	}
	if !strings.Contains(gateway, "* llama3") {
		t.Fatalf("configured model not marked: %q", gateway)
	}
	if !strings.Contains(configured, "provider default: "+h.gw.URL()+" (key from OPENAI_API_KEY)") {
		t.Fatalf("provider line missing: %q", configured)
	}
	if r.stderr != "" {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

// TestModelsSanitisesGatewayIDs: ids from the gateway are made inert
// before they reach the terminal.
func TestModelsSanitisesGatewayIDs(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Body: `{"data":[{"id":"evil\u001b]0;pwned\u0007-model"},{"id":"plain"}]}`})
	r := h.run(nil, "models")
	r.mustCode(t, 0)
	if strings.ContainsAny(r.stdout, "\x1b\x07") || !strings.Contains(r.stdout, "evil␛]0;pwned␇-model") || !strings.Contains(r.stdout, "  plain") {
		t.Fatalf("stdout = %q", r.stdout)
	}
}

// TestModelsShowsDefaultsFromTheConfig: default_model and image_model are
// listed with their built-in capabilities even without a [[models]] entry.
func TestModelsShowsDefaultsFromTheConfig(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("default_model = \"gpt-4.1\"\nimage_model = \"dall-e-3\"\n")
	r := h.run(nil, "models")
	r.mustCode(t, 0)
	for _, want := range []string{"model gpt-4.1 [default, builtin]: chat, vision, usage (default)", "model dall-e-3 [default, builtin]: image generation", "(image default)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ask", "--bogus"}, `parley: Unknown flag --bogus for parley ask; see "parley ask --help".`},
		{[]string{"image", "-x", "cat"}, `parley: Unknown flag -x for parley image; see "parley image --help".`},
		{[]string{"frobnicate"}, `parley: "frobnicate" is not a parley command; the commands are ask, image, models, sessions and doctor (see "parley --help").`},
		{[]string{"models", "extra"}, `parley: Unexpected argument "extra": parley models takes none; see "parley models --help".`},
		{[]string{"image", "-n", "many", "x"}, `parley: "many" is not a whole number, as the flag -n/--n needs; see "parley image --help".`},
		{[]string{"ask", "-m"}, `parley: The flag -m/--model needs a value; see "parley ask --help".`},
		{[]string{"ask", "--usage=maybe", "q"}, `parley: "maybe" is not true or false, as the flag --usage needs; see "parley ask --help".`},
		{[]string{"--config", "nope.toml", "ask", "q"}, `parley: nope.toml: this file, given with --config, does not exist; check the path.`},
	} {
		r := h.run(nil, c.args...)
		r.mustCode(t, 2)
		if r.stderr != c.want+"\n" {
			t.Errorf("%v: stderr = %q, want %q", c.args, r.stderr, c.want+"\n")
		}
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
}

// TestMessagesAreSentences: whatever produced it, a message on stderr
// starts with a capital and ends with a full stop, also after a closing
// quote or bracket.
func TestMessagesAreSentences(t *testing.T) {
	for in, want := range map[string]string{
		"the gateway answered 404 (see x)":      "The gateway answered 404 (see x).",
		`give a prompt, e.g. parley ask "why?"`: `Give a prompt, e.g. parley ask "why?"`,
		"done (all of it.)":                     "Done (all of it.)",
		"/path/config.toml:3:1: bad value":      "/path/config.toml:3:1: bad value.",
		"  already a sentence.  ":               "Already a sentence.",
		"":                                      "Something went wrong.",
		`model "x" cannot see images; add "y"`:  `Model "x" cannot see images; add "y".`,
		"check the base URL (http://h:1/v1)":    "Check the base URL (http://h:1/v1).",
		"ends with a question?":                 "Ends with a question?",
		"quoted end: `parley models`":           "Quoted end: `parley models`.",
		"Warning: the base URL uses plain http": "Warning: the base URL uses plain http.",
		"adir: this is a directory":             "adir: this is a directory.",
		"png: invalid format":                   "png: invalid format.",
		"über is not ASCII so stays as it is":   "über is not ASCII so stays as it is.",
		"interrupted":                           "Interrupted.",
		"cannot attach \"a.png\": it is empty.": "Cannot attach \"a.png\": it is empty.",
	} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAMissingFileIsSaidBeforeVision: a file that is not there is the
// first thing to fix, whatever model it goes to (no model can see it);
// a file that is there goes on to the vision refusal without being read.
func TestAMissingFileIsSaidBeforeVision(t *testing.T) {
	h := newHarness(t)
	for _, args := range [][]string{
		{"ask", "-m", "llama3", "-a", "/no/such/file.png", "q"},
		{"ask", "--demo", "-a", "/no/such/file.png", "q"},
		{"ask", "-m", "gpt-4o", "-a", "/no/such/file.png", "q"},
	} {
		r := h.run(nil, args...)
		r.mustCode(t, 2)
		if r.stderr != "parley: Cannot attach \"/no/such/file.png\": there is no such file; check the path.\n" {
			t.Errorf("%v: stderr %q", args, r.stderr)
		}
	}
	img := writePNG(t, t.TempDir(), "there.png", 8, 8, false)
	r := h.run(nil, "ask", "-m", "llama3", "-a", img, "q")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, `Model "llama3" cannot see images`) {
		t.Fatalf("stderr %q", r.stderr)
	}
	if n := len(h.gw.RequestsTo("/chat/completions")); n != 0 {
		t.Errorf("%d chat requests sent", n)
	}
}

func TestMalformedConfigExitsTwoWithFileAndLine(t *testing.T) {
	h := newHarness(t)
	path := h.writeConfig("default_model = \"gpt-4o\"\n[[providers]\nname = 1\n")
	r := h.run(nil, "ask", "q")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, path+":2:") {
		t.Fatalf("stderr = %q, want %s:2:", r.stderr, path)
	}
}

func TestVersionAndHelp(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "--version")
	r.mustCode(t, 0)
	if r.stdout != CurrentBuild().String() || !strings.HasPrefix(r.stdout, "parley "+Version()+"\n") {
		t.Fatalf("stdout = %q", r.stdout)
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"ask", "--help"}, {"image", "--help"}, {"models", "--help"}, {"help", "ask"}, {"help", "config"}, {"-h"}} {
		r := h.run(nil, args...)
		r.mustCode(t, 0)
		if r.stdout == "" {
			t.Fatalf("%v printed nothing", args)
		}
	}
	for cmd, flags := range map[string][]string{
		"ask":   {"--model", "--attach", "--no-stream", "--usage", "--raw"},
		"image": {"--model", "-n,", "--size", "--out", "--edit", "--mask"},
	} {
		r := h.run(nil, cmd, "--help")
		for _, f := range flags {
			if !strings.Contains(r.stdout, f) {
				t.Errorf("%s --help lacks %s: %q", cmd, f, r.stdout)
			}
		}
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("help sent %d requests", n)
	}
}

func TestTheChatNeedsATerminal(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil)
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "parley ask") {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

func TestTheChatGetsTheFlagsAndConfig(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("default_model = \"gpt-4o\"\ntheme = \"nord\"\n")
	h.stdoutTTY = true
	h.run(nil).mustCode(t, 0)
	if h.tui == nil || h.tui.Model != "gpt-4o" || h.tui.Theme != "nord" || h.tui.Mouse {
		t.Fatalf("chat request = %+v", h.tui)
	}
	h.run(nil, "-m", "llava", "--theme", "light", "--mouse").mustCode(t, 0)
	if h.tui.Model != "llava" || h.tui.Theme != "light" || !h.tui.Mouse {
		t.Fatalf("flags did not win: %+v", h.tui)
	}
	c, err := h.tui.NewClient("llava")
	if err != nil || c.BaseURL() != h.gw.URL() {
		t.Fatalf("client: %v %v", c, err)
	}
	h.writeConfig("mouse = true\n")
	h.run(nil).mustCode(t, 0)
	if !h.tui.Mouse {
		t.Fatal("mouse = true in the config did not reach the chat")
	}
}
