package cli

import (
	"strings"
	"testing"
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
}

func TestUsageErrorsExitTwo(t *testing.T) {
	h := newHarness(t)
	for _, args := range [][]string{
		{"ask", "--bogus"},
		{"frobnicate"},
		{"models", "extra"},
		{"image", "-n", "many", "x"},
	} {
		r := h.run(nil, args...)
		r.mustCode(t, 2)
		if !strings.HasPrefix(r.stderr, "parley: ") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: stderr = %q, want one line", args, r.stderr)
		}
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
	if r.stdout != "parley "+Version+"\n" {
		t.Fatalf("stdout = %q", r.stdout)
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"ask", "--help"}, {"image", "--help"}, {"help", "config"}} {
		r := h.run(nil, args...)
		r.mustCode(t, 0)
		if r.stdout == "" {
			t.Fatalf("%v printed nothing", args)
		}
	}
	if r := h.run(nil, "ask", "--help"); !strings.Contains(r.stdout, "--attach") {
		t.Fatalf("ask --help lacks --attach: %q", r.stdout)
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
}
