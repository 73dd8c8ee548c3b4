package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/api/apitest"
	"parley/config"
	"parley/themes"
	"parley/ui/overlay"
)

func TestModelPickerSwitchesForNextTurnKeepingHistory(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, "from gpt-4o")
	h.key("ctrl+o")
	if h.m.layerName() != "models" {
		t.Fatal("ctrl+o did not open the model picker")
	}
	// The gateway's list arrives in the background.
	h.wait("gateway models", func() bool { return strings.Contains(h.screen(), "llava") })
	checkFrame(t, h.m, 80, 24)
	h.typeText("llama")
	h.key("enter")
	if h.m.layerName() != "" || h.model() != "llama3" {
		t.Fatalf("open=%v model=%q", h.m.layerName(), h.model())
	}
	if !strings.Contains(h.screen(), "● llama3") {
		t.Errorf("status bar does not show the new model:\n%s", h.screen())
	}
	h.srv.Enqueue(apitest.Reply{Text: "from llama"})
	h.typeText("next")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	req := h.srv.Requests()
	last := req[len(req)-1].Chat
	if last.Model != "llama3" || len(last.Messages) != 3 {
		t.Fatalf("request model %q with %d messages", last.Model, len(last.Messages))
	}
	if r := lastReplyMsg(h); r.Model != "llama3" {
		t.Errorf("reply model %q", r.Model)
	}
	msgs := h.eng.Conv().Messages()
	if msgs[1].Model != "gpt-4o" {
		t.Errorf("first reply's model changed to %q", msgs[1].Model)
	}
}

func TestModelPickerCustomNameAndCancel(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.key("ctrl+o")
	h.key("esc")
	if h.m.layerName() != "" || h.model() != "gpt-4o" {
		t.Fatalf("cancel: open=%v model=%q", h.m.layerName(), h.model())
	}
	h.key("ctrl+o")
	h.typeText("my-own-model")
	h.key("enter")
	if h.model() != "my-own-model" {
		t.Fatalf("custom model %q", h.model())
	}
}

func TestNoModelOpensPicker(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) { o.Model = "" })
	if !strings.Contains(h.screen(), "● no model") || !strings.Contains(h.screen(), "no model yet: ctrl+o chooses one") {
		t.Errorf("status:\n%s", h.screen())
	}
	h.typeText("hello")
	h.key("enter")
	if h.m.layerName() != "models" || h.draft() != "hello" || h.eng.Conv().Len() != 0 {
		t.Fatalf("open=%v composer=%q", h.m.layerName(), h.draft())
	}
	if cur, _ := h.notice(); !strings.Contains(cur, "choose a model first; the message goes once you do") {
		t.Fatalf("the picker opened without saying why: %q", cur)
	}
	h.typeText("gpt-4o-mini")
	h.key("enter")
	h.srv.Enqueue(apitest.Reply{Text: "hi"})
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() && h.eng.Conv().Len() == 2 })
	if r := lastReplyMsg(h); r.Model != "gpt-4o-mini" {
		t.Errorf("model %q", r.Model)
	}
}

func TestModelNamesAreSanitised(t *testing.T) {
	evil := "evil\x1b]0;owned\x07\x1b[2J"
	h := newHarness(t, 80, 24, func(o *Options) { o.Model = evil })
	v := h.m.View()
	if strings.Contains(v.Content, "\x1b]0;") || strings.ContainsRune(v.Content, 0x07) || strings.Contains(v.Content, "\x1b[2J") {
		t.Fatalf("control sequence from a model name reached the screen: %q", v.Content)
	}
	if !strings.Contains(h.screen(), "evil␛]0;owned") {
		t.Errorf("placeholder not shown:\n%s", h.screen())
	}
	// The title of a conversation too.
	h.send(tea.PasteMsg{Content: "title\x1b]2;x\x07 here"})
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.useModel("gpt-4o")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	if title := h.m.View().WindowTitle; strings.ContainsAny(title, "\x1b\x07") {
		t.Errorf("window title %q", title)
	}
}

func TestThemePickerPreviewsAndRestores(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, "# Heading\n\nsome `code`")
	gen := h.m.ctx.StyleGen
	if h.theme() != "dark" {
		t.Fatalf("start theme %q", h.theme())
	}
	before := h.m.View().Content
	h.key("f3")
	if h.m.layerName() != "themes" {
		t.Fatal("f3 did not open the theme picker")
	}
	h.key("down") // dark is current; next is light
	if h.theme() != "light" || h.m.ctx.StyleGen == gen {
		t.Fatalf("no preview: theme %q gen %d", h.theme(), h.m.ctx.StyleGen)
	}
	h.key("esc")
	if h.theme() != "dark" || h.themeSetting() != "dark" {
		t.Fatalf("cancel did not restore: %q", h.theme())
	}
	h.quiet()
	if after := h.m.View().Content; after != before {
		t.Error("screen differs after preview and cancel")
	}
	h.key("alt+t")
	h.typeText("nord")
	h.key("enter")
	if h.theme() != "nord" || h.m.layerName() != "" {
		t.Fatalf("choose: %q open=%v", h.theme(), h.m.layerName())
	}
	if h.m.View().Content == before {
		t.Error("transcript not re-rendered in the new theme")
	}
}

func TestAutoThemeFollowsBackground(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) { o.Theme = "" })
	if h.themeSetting() != themes.Auto || h.theme() != "dark" {
		t.Fatalf("auto before answer: %q -> %q", h.themeSetting(), h.theme())
	}
	if cmd := h.m.Init(); cmd == nil {
		t.Fatal("Init does not ask for the background colour")
	}
	h.send(tea.BackgroundColorMsg{Color: lightGray{}})
	if h.theme() != "light" {
		t.Fatalf("light background gave %q", h.theme())
	}
	// A fixed theme ignores the background.
	h2 := newHarness(t, 80, 24, func(o *Options) { o.Theme = "nord" })
	h2.send(tea.BackgroundColorMsg{Color: lightGray{}})
	if h2.theme() != "nord" {
		t.Fatalf("fixed theme changed to %q", h2.theme())
	}
}

type lightGray struct{}

func (lightGray) RGBA() (r, g, b, a uint32) { return 0xeeee, 0xeeee, 0xeeee, 0xffff }

func TestNoColorHonoured(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) {
		env := map[string]string{"NO_COLOR": "1"}
		o.Getenv = func(k string) string { return env[k] }
	})
	replyWith(t, h, "# Title\n\n```go\nx := 1\n```")
	h.key("ctrl+y")
	v := h.m.View().Content
	for _, sgr := range []string{"38;2;", "48;2;", "38;5;", "48;5;"} {
		if strings.Contains(v, sgr) {
			t.Fatalf("colour %q on screen with NO_COLOR:\n%q", sgr, v)
		}
	}
	if !h.m.ctx.NoColor {
		t.Error("context NoColor not set")
	}
}

func TestUserThemesAndBadThemeFiles(t *testing.T) {
	cfgHome := t.TempDir()
	dir := filepath.Join(cfgHome, "parley", "themes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "dusk.toml"), []byte("base = \"nord\"\naccent = \"#ff8800\"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "broken.toml"), []byte("accent = [not toml\n"), 0o600)
	h := newHarness(t, 80, 24, func(o *Options) {
		env := map[string]string{"XDG_CONFIG_HOME": cfgHome}
		o.Getenv = func(k string) string { return env[k] }
		o.Theme = "dusk"
	})
	if h.theme() != "dusk" {
		t.Fatalf("user theme not used: %q", h.theme())
	}
	if !strings.Contains(h.screen(), "broken.toml") {
		t.Errorf("bad theme file not reported:\n%s", h.screen())
	}
	h.key("esc")
	h.key("f3")
	h.wait("picker", func() bool { return strings.Contains(h.screen(), "dusk") })
}

func TestUnknownThemeFallsBackAndSays(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) { o.Theme = "neon" })
	if h.themeSetting() != themes.Auto || !strings.Contains(h.screen(), "neon") {
		t.Fatalf("theme %q\n%s", h.themeSetting(), h.screen())
	}
}

func TestFirstRunSetupUsesFoundServerAndSaves(t *testing.T) {
	srv := apitest.New(t, apitest.WithAPIKey(""), apitest.WithModels(apitest.ModelSpec{ID: "qwen-local"}))
	cfgPath := filepath.Join(t.TempDir(), "parley", "config.toml")
	h := newHarness(t, 80, 24, func(o *Options) {
		o.Model = ""
		o.NewClient = nil
		o.NeedsSetup = true
		o.ConfigPath = cfgPath
		o.probe = []overlay.Candidate{{Name: "Local test", BaseURL: srv.URL()}}
	})
	if h.m.layerName() != "setup" {
		t.Fatal("setup screen not shown")
	}
	// The first frame, before any message, is the setup screen, not blank.
	if scr := h.screen(); !strings.Contains(scr, "Welcome to parley") {
		t.Fatalf("first frame of the setup screen:\n%s", scr)
	}
	checkFrame(t, h.m, 80, 24)
	h.run(h.m.Init())
	h.wait("probe", func() bool { return strings.Contains(h.screen(), "qwen-local") })
	checkFrame(t, h.m, 80, 24)
	h.key("s") // use it and save
	h.wait("saved", func() bool { return strings.Contains(h.screen(), "saved to") })
	if h.m.layerName() != "" || h.model() != "qwen-local" {
		t.Fatalf("open=%v model=%q", h.m.layerName(), h.model())
	}
	b, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	// The file is one the config package reads back to the same server.
	loaded, err := config.Load(config.Env{Getenv: func(k string) string {
		return map[string]string{"PARLEY_CONFIG": cfgPath}[k]
	}})
	if err != nil || loaded.DefaultModel != "qwen-local" || len(loaded.Providers) != 1 || loaded.Providers[0].BaseURL != srv.URL() || len(loaded.Warnings) != 0 {
		t.Fatalf("saved config %q reads back as %+v, %v", b, loaded, err)
	}
	if config.NothingConfigured(loaded, func(string) string { return "" }) {
		t.Error("the saved config still needs setup")
	}
	srv.Enqueue(apitest.Reply{Text: "local answer"})
	h.typeText("hello local")
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
	if r := lastReplyMsg(h); r.Text != "local answer" {
		t.Fatalf("reply %+v", r)
	}
	// Saving again never overwrites.
	useServer(h.eng, h.m.opts, overlay.SetupResult{BaseURL: "http://127.0.0.1:9/v1", Model: "x"})
	h.send(saveConfig(cfgPath, "http://127.0.0.1:9/v1", "x")())
	if b2, _ := os.ReadFile(cfgPath); string(b2) != string(b) || !strings.Contains(h.screen(), "left unchanged") {
		t.Fatalf("config overwritten or not reported:\n%s\n%s", b2, h.screen())
	}
}

func TestNeedsSetupPredicate(t *testing.T) {
	home := t.TempDir()
	load := func(env map[string]string) *config.Config {
		t.Helper()
		c, err := config.Load(config.Env{Getenv: func(k string) string { return env[k] }, HomeDir: home})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	none := map[string]string{}
	if !config.NothingConfigured(load(none), func(k string) string { return none[k] }) {
		t.Error("no file, no env: setup expected")
	}
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL"} {
		env := map[string]string{k: "x"}
		if config.NothingConfigured(load(env), func(k string) string { return env[k] }) {
			t.Errorf("%s set: no setup expected", k)
		}
	}
	// A config file with a provider is configured.
	p := filepath.Join(home, "c.toml")
	os.WriteFile(p, []byte("[[providers]]\nname = \"local\"\nbase_url = \"http://127.0.0.1:8080/v1\"\n"), 0o600)
	env := map[string]string{"PARLEY_CONFIG": p}
	if config.NothingConfigured(load(env), func(k string) string { return env[k] }) {
		t.Error("provider in the file: no setup expected")
	}
	// The setup screen opens from the config alone.
	h := newHarness(t, 80, 24, func(o *Options) { o.Config = load(none) })
	if h.m.layerName() != "setup" {
		t.Error("setup screen not opened for an unconfigured config")
	}
}

func TestSetupQuit(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) {
		o.NeedsSetup = true
		o.probe = []overlay.Candidate{{Name: "none"}}
	})
	h.run(h.m.Init())
	h.wait("probe", func() bool { s, ok := topIs[*overlay.Setup](&h.m.layers); return ok && !s.Probing() })
	h.key("ctrl+q")
	h.wait("quit", func() bool { return h.quit })
}

// The setup screen takes every key: an app key (help, notices, a new
// conversation) neither closes it nor acts in the chat behind it.
func TestSetupKeepsTheAppKeys(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) {
		o.NeedsSetup = true
		o.probe = []overlay.Candidate{{Name: "none"}}
	})
	h.run(h.m.Init())
	h.wait("probe", func() bool { s, ok := topIs[*overlay.Setup](&h.m.layers); return ok && !s.Probing() })
	for _, k := range []string{"f1", "f4", "ctrl+o"} {
		h.key(k)
		if h.m.layerName() != "setup" || h.m.pane != nil {
			t.Fatalf("%s left the setup screen: top %q, pane %v\n%s", k, h.m.layerName(), h.m.pane, h.screen())
		}
	}
	if !strings.Contains(h.screen(), "Welcome to parley") {
		t.Fatalf("the setup screen is not shown:\n%s", h.screen())
	}
}

func TestResizeReflowsEverything(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, "日本語のテキスト and emoji 🎉👩‍👩‍👧 and combining é̂ in a reply that is long enough to wrap at forty columns for sure.")
	h.typeText("漢字と emoji 🎉 typed in the composer, long enough to wrap twice at forty")
	for _, sz := range [][2]int{{80, 24}, {40, 12}, {200, 60}, {41, 13}, {20, 8}, {120, 5}, {10, 4}, {3, 3}, {1, 1}} {
		h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		h.quiet()
		checkFrame(t, h.m, sz[0], sz[1])
		if cur := h.m.View().Cursor; sz[1] >= 8 && cur == nil {
			t.Errorf("%v: no cursor", sz)
		} else if cur != nil && (cur.Position.X >= sz[0] || cur.Position.Y >= sz[1]) {
			t.Errorf("%v: cursor outside the screen: %+v", sz, cur.Position)
		}
	}
	// Every part of the screen has a place at 40x12.
	h.send(tea.WindowSizeMsg{Width: 40, Height: 12})
	scr := h.screen()
	for _, want := range []string{"gpt-4o", "send", "漢字"} {
		if !strings.Contains(scr, want) {
			t.Errorf("40x12 lacks %q:\n%s", want, scr)
		}
	}
}

func TestCatalogCapabilitiesFromConfig(t *testing.T) {
	yes := true
	cfg := &config.Config{Models: []config.ModelConfig{{Name: "llama3", Vision: &yes}}}
	h := newHarness(t, 80, 24, func(o *Options) { o.Config = cfg; o.Model = "llama3" })
	if err := h.eng.Catalog().Require("llama3", api.CapVision); err != nil {
		t.Fatalf("configured vision ignored: %v", err)
	}
}

// TestStartModelAndTheme: --model wins over the config's default_model,
// --theme over the config's theme; without flags the config decides.
func TestStartModelAndTheme(t *testing.T) {
	cfg := &config.Config{DefaultModel: "llama3", Theme: "gruvbox"}
	h := newHarness(t, 80, 24, func(o *Options) { o.Config = cfg; o.Model = ""; o.Theme = "" })
	if h.model() != "llama3" || h.theme() != "gruvbox" || !strings.Contains(h.screen(), "● llama3") {
		t.Fatalf("from config: model %q theme %q\n%s", h.model(), h.theme(), h.screen())
	}
	h.srv.Enqueue(apitest.Reply{Text: "hi"})
	h.typeText("x")
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
	if got := h.srv.Requests()[0].Chat.Model; got != "llama3" {
		t.Errorf("request model %q", got)
	}
	h2 := newHarness(t, 80, 24, func(o *Options) { o.Config = cfg; o.Model = "gpt-4o-mini"; o.Theme = "light" })
	if h2.model() != "gpt-4o-mini" || h2.theme() != "light" {
		t.Fatalf("flags: model %q theme %q", h2.model(), h2.theme())
	}
}

// An open help follows the key map the terminal's keyboard support makes
// (the help's KeysChanged, which the root calls on every open layer that
// has it).
func TestOpenHelpFollowsTheTerminalsKeys(t *testing.T) {
	h := newHarness(t, 120, 50)
	h.key("f1")
	if h.m.layerName() != "help" || strings.Contains(h.screen(), "shift+enter") {
		t.Fatalf("the help before the terminal's answer (top %q):\n%s", h.m.layerName(), h.screen())
	}
	h.send(tea.KeyboardEnhancementsMsg{Flags: 1})
	if !strings.Contains(h.screen(), "shift+enter") {
		t.Fatalf("the open help does not show the terminal's keys:\n%s", h.screen())
	}
}
