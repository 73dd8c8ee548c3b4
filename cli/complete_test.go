package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// complete runs cobra's hidden __complete command as a shell would and
// returns the offered values, their descriptions and the directive line.
func complete(t *testing.T, h *harness, args ...string) (values []string, desc map[string]string, directive string) {
	t.Helper()
	r := h.run(nil, append([]string{"__complete"}, args...)...)
	r.mustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
		t.Fatalf("no directive in %q", r.stdout)
	}
	desc = map[string]string{}
	for _, l := range lines[:len(lines)-1] {
		v, d, _ := strings.Cut(l, "\t")
		values = append(values, v)
		desc[v] = d
	}
	return values, desc, lines[len(lines)-1]
}

// Cobra's directive numbers, as the completion scripts read them.
const (
	noFileComp    = ":4"
	filterFileExt = ":8"
	filterDirs    = ":16"
)

func TestCompleteModelsFromConfigAndCache(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("default_model = \"my-chat\"\nimage_model = \"gpt-image-1\"\n\n[[models]]\nname = \"llava\"\nvision = true\n")

	// Before `parley models` ran, only the configured models.
	vals, _, dir := complete(t, h, "ask", "--model", "")
	if !slices.Equal(vals, []string{"llava", "my-chat"}) || dir != noFileComp {
		t.Fatalf("before the cache: %q %s", vals, dir)
	}

	h.run(nil, "models").mustCode(t, 0)
	before := h.gw.RequestCount()

	vals, desc, _ := complete(t, h, "ask", "--model", "")
	for _, want := range []string{"llava", "my-chat", "gpt-4o", "gpt-4o-mini", "llama3"} {
		if !slices.Contains(vals, want) {
			t.Errorf("chat models lack %s: %q", want, vals)
		}
	}
	for _, not := range []string{"dall-e-2", "dall-e-3", "gpt-image-1"} {
		if slices.Contains(vals, not) {
			t.Errorf("chat models offer the image model %s", not)
		}
	}
	if desc["gpt-4o"] != "chat, vision, usage" || desc["llava"] != "chat, vision" {
		t.Errorf("descriptions: %q", desc)
	}

	vals, _, _ = complete(t, h, "image", "-m", "")
	if !slices.Equal(vals, []string{"gpt-image-1", "dall-e-2", "dall-e-3"}) {
		t.Errorf("image models: %q", vals)
	}
	vals, _, _ = complete(t, h, "--model", "gpt-4o")
	if !slices.Equal(vals, []string{"gpt-4o", "gpt-4o-mini"}) {
		t.Errorf("prefix gpt-4o: %q", vals)
	}
	if h.gw.RequestCount() != before {
		t.Error("completion asked the gateway")
	}
}

// TestModelCacheDropsUnsafeIDs: ids that would break a shell's completion
// or reach the terminal are not cached.
func TestModelCacheDropsUnsafeIDs(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Body: `{"object":"list","data":[{"id":"evil\nrm -rf"},{"id":"esc\u001b[31m"},{"id":"bidi\u202egpj"},{"id":"two words"},{"id":"ok-model"}]}`})
	h.run(nil, "models").mustCode(t, 0)
	vals, _, _ := complete(t, h, "ask", "--model", "")
	if !slices.Equal(vals, []string{"ok-model"}) {
		t.Errorf("offered %q", vals)
	}
	b, err := os.ReadFile(modelCachePath(func(k string) string { return h.env[k] }, h.home))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "evil") || strings.Contains(string(b), "esc") {
		t.Errorf("unsafe ids in the cache: %s", b)
	}
}

func TestModelCacheBounds(t *testing.T) {
	var c modelCache
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	many := make([]string, 3*maxCachedModels)
	for i := range many {
		many[i] = fmt.Sprintf("model-%05d", i)
	}
	c.put("https://a.example/v1", many, now)
	if n := len(c.models("https://a.example/v1")); n != maxCachedModels {
		t.Errorf("%d models kept, want %d", n, maxCachedModels)
	}
	for i := range maxCachedGateways + 5 {
		c.put(fmt.Sprintf("https://g%d.example/v1", i), []string{"m"}, now)
	}
	if len(c.Gateways) != maxCachedGateways || c.Gateways[0].BaseURL != fmt.Sprintf("https://g%d.example/v1", maxCachedGateways+4) {
		t.Errorf("%d gateways, newest %q", len(c.Gateways), c.Gateways[0].BaseURL)
	}
	c.put("https://x.example/v1", []string{strings.Repeat("x", maxModelIDBytes+1), "ok"}, now)
	if got := c.models("https://x.example/v1"); !slices.Equal(got, []string{"ok"}) {
		t.Errorf("an over-long id was kept: %d ids", len(got))
	}

	// A file beyond the size limit, or of another version, is ignored.
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	body := `{"version":1,"gateways":[{"base_url":"u","models":["a"]}],"pad":"` + strings.Repeat("x", maxModelCacheBytes) + `"}`
	if err := os.WriteFile(big, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := loadModelCache(big); len(got.Gateways) != 0 {
		t.Error("an oversized cache file was read")
	}
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte(`{"version":99,"gateways":[{"base_url":"u","models":["a"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := loadModelCache(old); len(got.Gateways) != 0 {
		t.Error("a cache of another version was read")
	}
}

func TestCompleteThemes(t *testing.T) {
	h := newHarness(t)
	dir := filepath.Join(h.env["XDG_CONFIG_HOME"], "parley", "themes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dusk.toml"), []byte("name = \"dusk\"\nbase = \"nord\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vals, desc, dir2 := complete(t, h, "--theme", "")
	want := []string{"auto", "dark", "light", "high-contrast", "nord", "gruvbox", "solarized-light", "dusk"}
	if !slices.Equal(vals, want) || dir2 != noFileComp {
		t.Errorf("themes %q %s, want %q", vals, dir2, want)
	}
	if desc["dusk"] != "dark background, your theme" || desc["light"] != "light background" {
		t.Errorf("descriptions %q", desc)
	}
	vals, _, _ = complete(t, h, "--theme", "so")
	if !slices.Equal(vals, []string{"solarized-light"}) {
		t.Errorf("prefix so: %q", vals)
	}
}

func TestCompleteSizes(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("image_model = \"gpt-image-1\"\n\n[[models]]\nname = \"my-painter\"\nimage_generation = true\n")
	vals, _, _ := complete(t, h, "image", "--size", "")
	if !slices.Equal(vals, []string{"1024x1024", "1536x1024", "1024x1536", "auto"}) {
		t.Errorf("gpt-image-1 sizes: %q", vals)
	}
	vals, _, _ = complete(t, h, "image", "-m", "dall-e-3", "--size", "1792")
	if !slices.Equal(vals, []string{"1792x1024"}) {
		t.Errorf("dall-e-3 sizes from 1792: %q", vals)
	}
	vals, _, _ = complete(t, h, "image", "-m", "my-painter", "--size", "")
	if !slices.Equal(vals, commonSizes()) {
		t.Errorf("a model without sizes: %q", vals)
	}
	vals, _, _ = complete(t, h, "image", "--demo", "--size", "")
	if !slices.Contains(vals, "1024x768") || slices.Contains(vals, "1536x1024") {
		t.Errorf("demo sizes: %q", vals)
	}
}

func TestCompleteDemoModels(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("[[models]]\nname = \"llava\"\nvision = true\n")
	h.run(nil, "models").mustCode(t, 0) // a cache of the user's gateway, not offered with --demo
	vals, desc, _ := complete(t, h, "--demo", "--model", "")
	want := []string{"demo-chat", "demo-echo", "demo-vision", "demo-think", "demo-files", "demo-slow", "demo-long", "demo-fail"}
	if !slices.Equal(vals, want) {
		t.Errorf("demo chat models %q, want %q", vals, want)
	}
	if desc["demo-vision"] != "chat, vision, usage" {
		t.Errorf("descriptions %q", desc)
	}
	vals, _, _ = complete(t, h, "image", "--demo", "-m", "")
	if !slices.Equal(vals, []string{"demo-image"}) {
		t.Errorf("demo image models %q", vals)
	}
}

func TestCompleteFilesAndArguments(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		args      []string
		values    []string
		directive string
	}{
		{[]string{"ask", ""}, nil, noFileComp},
		{[]string{"image", "a red"}, nil, noFileComp},
		{[]string{"ask", "--attach", ""}, nil, ":0"}, // images and text files: any file
		{[]string{"ask", "--param", "te"}, []string{"temperature="}, ":6"},
		{[]string{"ask", "--param", "temperature=0"}, nil, noFileComp},
		{[]string{"image", "--edit", ""}, []string{"png", "jpg", "jpeg", "webp", "gif"}, filterFileExt},
		{[]string{"image", "--mask", ""}, []string{"png"}, filterFileExt},
		{[]string{"image", "-o", ""}, nil, filterDirs},
		{[]string{"models", "--config", ""}, []string{"toml"}, filterFileExt},
	} {
		vals, _, dir := complete(t, h, c.args...)
		if !slices.Equal(vals, c.values) || dir != c.directive {
			t.Errorf("%q: %q %s, want %q %s", c.args, vals, dir, c.values, c.directive)
		}
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := h.run(nil, "completion", shell)
		r.mustCode(t, 0)
		if !strings.Contains(r.stdout, "__complete") {
			t.Errorf("the %s script does not call __complete", shell)
		}
	}
}

// TestCompleteSessionIDs: session ids complete for show, export, rm and
// --session, newest first with their titles, without creating a history
// when there is none; completion for a shell parley has no script for is a
// usage error.
func TestCompleteSessionIDs(t *testing.T) {
	h := newHarness(t)
	data := filepath.Join(h.env["XDG_DATA_HOME"], "parley")
	if vals, _, dir := complete(t, h, "sessions", "show", ""); len(vals) != 0 || dir != noFileComp {
		t.Fatalf("no history: %q %s", vals, dir)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Fatalf("completion made the history (%v)", err)
	}
	h.gw.Enqueue(apitest.Reply{Text: "Lima."})
	h.run(nil, "ask", "-m", "gpt-4o", "capital of Peru?").mustCode(t, 0)
	h.now = h.now.Add(time.Minute)
	h.gw.Enqueue(apitest.Reply{Text: "Santiago."})
	h.run(nil, "ask", "-m", "gpt-4o", "capital of\tChile?").mustCode(t, 0)
	list := h.sessions()
	both, older := []string{list[0].ID, list[1].ID}, []string{list[1].ID}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"sessions", "show", ""}, both},
		{[]string{"sessions", "export", ""}, both},
		{[]string{"sessions", "rm", list[0].ID, ""}, older}, // not offered twice
		{[]string{"ask", "--session", ""}, both},
		{[]string{"--session", ""}, both},
	} {
		args := c.args
		vals, desc, dir := complete(t, h, args...)
		if !slices.Equal(vals, c.want) || dir != noFileComp || desc[list[1].ID] != "capital of Peru?" {
			t.Errorf("%q: %q %q %s", args, vals, desc, dir)
		}
	}
	if _, desc, _ := complete(t, h, "sessions", "show", ""); desc[list[0].ID] != "capital of Chile?" {
		t.Errorf("a tab in a title must not split the completion: %q", desc)
	}
	if vals, _, _ := complete(t, h, "sessions", "show", list[1].ID[:30]); !slices.Equal(vals, []string{list[1].ID}) {
		t.Errorf("by prefix: %q", vals)
	}
	if vals, _, _ := complete(t, h, "sessions", "show", list[0].ID, ""); len(vals) != 0 {
		t.Errorf("show takes one id: %q", vals)
	}
	r := h.run(nil, "completion", "tcsh")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, `no completion script for "tcsh"; the shells are bash, zsh, fish, powershell`) {
		t.Fatalf("completion tcsh: %+v", r)
	}
}
