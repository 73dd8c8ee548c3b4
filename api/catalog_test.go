package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"parley/termsafe"
)

func TestCatalogBuiltinFamilies(t *testing.T) {
	type caps = Capabilities
	vu := caps{Vision: true, StreamUsage: true}
	v := caps{Vision: true}
	u := caps{StreamUsage: true}
	// OpenAI's reasoning models take max_completion_tokens, not max_tokens.
	rvu := caps{Vision: true, StreamUsage: true, MaxTokensField: MaxCompletionTokens}
	ru := caps{StreamUsage: true, MaxTokensField: MaxCompletionTokens}
	gptImage := caps{ImageGeneration: true, ImageEdit: true, Sizes: []string{"1024x1024", "1536x1024", "1024x1536", "auto"}, MaxN: 10}
	dalle2 := caps{ImageGeneration: true, ImageEdit: true, ResponseFormat: true, Sizes: []string{"256x256", "512x512", "1024x1024"}, MaxN: 10}
	dalle3 := caps{ImageGeneration: true, ResponseFormat: true, Sizes: []string{"1024x1024", "1792x1024", "1024x1792"}, MaxN: 1}
	cases := []struct {
		name  string
		known bool
		want  Capabilities
	}{
		{"gpt-4o", true, vu},
		{"GPT-4o-mini", true, vu},
		{"gpt-4o-2024-08-06", true, vu},
		{"openai/gpt-4o", true, vu},
		{"openai/gpt-4o:online", true, vu},
		{"chatgpt-4o-latest", true, vu},
		{"gpt-4.1", true, vu},
		{"gpt-4.1-nano", true, vu},
		{"gpt-4-turbo", true, vu},
		{"gpt-5", true, rvu},
		{"gpt-5-mini", true, rvu},
		{"gpt-5-chat-latest", true, vu},
		{"o1", true, rvu},
		{"o1-mini", true, ru},
		{"o3", true, rvu},
		{"o3-mini", true, ru},
		{"o4-mini", true, rvu},
		{"gpt-3.5-turbo", true, u},
		{"gpt-4", true, u},
		{"gpt-4o-audio-preview", true, u},
		{"ft:gpt-4o-mini-2024-07-18:acme::abc123", true, vu},
		{"dall-e-2", true, dalle2},
		{"DALL-E-3", true, dalle3},
		{"openai/dall-e-3", true, dalle3},
		{"gpt-image-1", true, gptImage},
		{"gpt-image-1-mini", true, gptImage},
		{"gpt-image-1.5", true, gptImage},
		{"llava", true, v},
		{"llava:13b", true, v},
		{"LLaVA-v1.6-34B", true, v},
		{"bakllava", true, v},
		{"qwen2.5-vl:7b", true, v},
		{"Qwen/Qwen2.5-VL-72B-Instruct", true, v},
		{"qwen2-vl-7b", true, v},
		{"llama3.2-vision:11b", true, v},
		{"meta-llama/llama-3.2-11b-vision-instruct:free", true, v},
		{"pixtral-12b-2409", true, v},
		{"mistralai/pixtral-large-2411", true, v},
		{"gemma3:27b", true, v},
		{"google/gemma-3-27b-it", true, v},
		{"granite3.2-vision", true, v},
		{"anthropic/claude-3.5-sonnet", true, v},
		{"google/gemini-2.5-flash", true, v},
		{"llama3", false, caps{}},
		{"llama3.1:8b", false, caps{}},
		{"qwen2.5:7b", false, caps{}},
		{"mistral", false, caps{}},
		{"deepseek-r1", false, caps{}},
		{"", false, caps{}},
	}
	for _, c := range cases {
		got, ok := BuiltinCapabilities(c.name)
		if ok != c.known {
			t.Errorf("%q: known = %v, want %v", c.name, ok, c.known)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(c.want)
		if string(gj) != string(wj) {
			t.Errorf("%q:\n got %s\nwant %s", c.name, gj, wj)
		}
	}
	// Callers get their own copy of the size list.
	c, _ := BuiltinCapabilities("dall-e-3")
	c.Sizes[0] = "1x1"
	if again, _ := BuiltinCapabilities("dall-e-3"); again.Sizes[0] != "1024x1024" {
		t.Error("the built-in table was modified through a returned slice")
	}
}

func TestCatalogLookupPrecedence(t *testing.T) {
	cat := NewCatalog([]Model{
		{Name: "llama3", Provider: "local", Caps: Capabilities{Vision: true}},
		{Name: "gpt-4o", Caps: Capabilities{Vision: true}}, // config says: no usage
	})
	if m := cat.Lookup("llama3"); !m.Caps.Vision || m.Source != SourceConfig || m.Provider != "local" {
		t.Errorf("configured: %+v", m)
	}
	if m := cat.Lookup("LLAMA3"); m.Source != SourceConfig {
		t.Errorf("case-insensitive configured lookup: %+v", m)
	}
	if m := cat.Lookup("gpt-4o"); m.Caps.StreamUsage || m.Source != SourceConfig {
		t.Errorf("config must win over the built-in entry: %+v", m)
	}
	if m := cat.Lookup("gpt-4.1"); !m.Caps.Vision || m.Source != SourceBuiltin {
		t.Errorf("builtin: %+v", m)
	}
	if m := cat.Lookup("mistral"); m.Caps.Vision || m.Source != SourceDefault {
		t.Errorf("default: %+v", m)
	}
	var nilCat *Catalog
	if m := nilCat.Lookup("gpt-4o"); !m.Caps.Vision || nilCat.Require("llava", CapVision) != nil {
		t.Error("a nil catalog must answer with the built-ins")
	}
	if got := cat.Configured(); len(got) != 2 || got[0].Name != "llama3" {
		t.Errorf("Configured() = %+v", got)
	}
}

func TestCatalogRefusalTexts(t *testing.T) {
	cat := NewCatalog([]Model{
		{Name: "my-vlm", Caps: Capabilities{Vision: true}},
		{Name: "llama3"},
		{Name: "flux", Caps: Capabilities{ImageGeneration: true}},
	}).WithConfigPath("/home/u/.config/parley/config.toml")

	err := cat.Require("llama3", CapVision)
	var ce *CapabilityError
	if !errors.As(err, &ce) || ce.Model != "llama3" || ce.Capability != CapVision {
		t.Fatalf("got %#v", err)
	}
	// Only models the user can use are named: configured ones, and the
	// gateway's (known by their names) once it has listed them.
	want := `model "llama3" cannot see images. ` +
		`If it can, add vision = true under [[models]] name = "llama3" in /home/u/.config/parley/config.toml; ` +
		`otherwise use one of the models with vision: my-vlm.`
	if err.Error() != want {
		t.Errorf("vision refusal:\n got %s\nwant %s", err, want)
	}
	listed := cat.WithListed([]string{"llama3", "gpt-4o-mini", "qwen2.5-vl:7b", "mistral"})
	if err := listed.Require("llama3", CapVision); err == nil || !strings.Contains(err.Error(), "models with vision: my-vlm, gpt-4o-mini, qwen2.5-vl:7b.") {
		t.Errorf("with the gateway's list: %v", err)
	}
	// Many models: the advice comes first, then three names and how many
	// more, never the whole list.
	var many []string
	for i := range 30 {
		many = append(many, fmt.Sprintf("llava:%02d", i))
	}
	err = cat.WithListed(many).Require("llama3", CapVision)
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	ce.ListedBy = "/model"
	if got := err.Error(); !strings.HasPrefix(got, `model "llama3" cannot see images. If it can, add vision = true`) ||
		!strings.HasSuffix(got, "models with vision: my-vlm, llava:00, llava:01 and 28 more (/model lists them).") || strings.Contains(got, "llava:02") {
		t.Errorf("with 31 models: %s", got)
	}
	if err := NewCatalog(nil).Require("llama3", CapVision); err == nil || !strings.Contains(err.Error(), "no model you have is known to have it") {
		t.Errorf("with nothing known: %v", err)
	}

	err = cat.WithListed([]string{"dall-e-3", "gpt-image-1"}).Require("gpt-4o", CapImageGeneration)
	for _, w := range []string{`model "gpt-4o" cannot generate images`, "models that generate images: flux, dall-e-3, gpt-image-1.",
		`add image_generation = true under [[models]] name = "gpt-4o" in /home/u/.config/parley/config.toml`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("generation refusal %q lacks %q", err, w)
		}
	}
	err = cat.WithListed([]string{"dall-e-2", "dall-e-3", "gpt-image-1"}).Require("dall-e-3", CapImageEdit)
	if err == nil || !strings.Contains(err.Error(), "models that edit images: dall-e-2, gpt-image-1.") || !strings.Contains(err.Error(), "image_edit = true") {
		t.Errorf("edit refusal: %v", err)
	}
	if err := NewCatalog(nil).Require("x", CapVision); err == nil || !strings.Contains(err.Error(), "in your parley config file") {
		t.Errorf("without a config path: %v", err)
	}
	for _, ok := range []struct {
		m string
		c Capability
	}{{"my-vlm", CapVision}, {"gpt-4o", CapVision}, {"llava:34b", CapVision}, {"flux", CapImageGeneration}, {"gpt-image-1", CapImageEdit}, {"gpt-4o", CapStreamUsage}} {
		if err := cat.Require(ok.m, ok.c); err != nil {
			t.Errorf("%s %v refused: %v", ok.m, ok.c, err)
		}
	}
}

func TestCatalogImageRequest(t *testing.T) {
	cat := NewCatalog([]Model{
		{Name: "flux", Caps: Capabilities{ImageGeneration: true}},
		{Name: "sdxl", Caps: Capabilities{ImageGeneration: true, MaxN: 4, Sizes: []string{"1024x1024"}, ResponseFormat: true}},
	}).WithConfigPath("/c.toml")
	js := func(r ImageRequest) string { b, _ := json.Marshal(r); return string(b) }

	ok := []struct {
		model, size string
		n           int
		want        string
	}{
		{"gpt-image-1", "1536x1024", 2, `{"model":"gpt-image-1","prompt":"p","n":2,"size":"1536x1024"}`},
		{"gpt-image-1", "auto", 0, `{"model":"gpt-image-1","prompt":"p","size":"auto"}`},
		{"gpt-image-1-mini", "", 0, `{"model":"gpt-image-1-mini","prompt":"p"}`},
		{"dall-e-3", "1792x1024", 1, `{"model":"dall-e-3","prompt":"p","n":1,"size":"1792x1024","response_format":"b64_json"}`},
		{"dall-e-2", "256x256", 10, `{"model":"dall-e-2","prompt":"p","n":10,"size":"256x256","response_format":"b64_json"}`},
		{"flux", "1344x768", 1, `{"model":"flux","prompt":"p","size":"1344x768"}`},
		{"sdxl", "1024x1024", 3, `{"model":"sdxl","prompt":"p","n":3,"size":"1024x1024","response_format":"b64_json"}`},
	}
	for _, c := range ok {
		r, err := cat.ImageRequest(c.model, "p", c.n, c.size)
		if err != nil {
			t.Errorf("%s n=%d size=%q: %v", c.model, c.n, c.size, err)
			continue
		}
		if got := js(r); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.model, got, c.want)
		}
	}

	bad := []struct {
		model, size string
		n           int
		want        []string
	}{
		{"dall-e-3", "512x512", 1, []string{`model "dall-e-3" does not accept size 512x512; it accepts 1024x1024, 1792x1024, 1024x1792.`,
			`add "512x512" to sizes under [[models]] name = "dall-e-3" in /c.toml`}},
		{"dall-e-3", "", 4, []string{`model "dall-e-3" makes at most 1 image per request, not 4`, `set max_n = 4 under [[models]] name = "dall-e-3" in /c.toml`}},
		{"dall-e-2", "", 11, []string{"at most 10 images per request, not 11"}},
		{"gpt-image-1", "1024*1024", 1, []string{`size "1024*1024" is not <width>x<height>`, "accepts 1024x1024, 1536x1024, 1024x1536, auto"}},
		{"flux", "", 2, []string{`model "flux" makes at most 1 image per request, not 2`, "max_n = 2"}},
		{"gpt-image-1", "", -1, []string{"at least 1, not -1"}},
		{"gpt-4o", "", 1, []string{`model "gpt-4o" cannot generate images`}},
	}
	for _, c := range bad {
		_, err := cat.ImageRequest(c.model, "p", c.n, c.size)
		var ce *CapabilityError
		if !errors.As(err, &ce) {
			t.Errorf("%s n=%d size=%q: got %v, want a *CapabilityError", c.model, c.n, c.size, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s n=%d size=%q:\n got %s\nlacks %s", c.model, c.n, c.size, err, w)
			}
		}
	}
}

// TestCatalogSizesUpToAMaxSide: a model that takes any size up to a side
// (max_side) takes auto and the sizes within it and refuses the rest,
// saying what it takes; a fixed catalog (the demo) gives no config advice.
func TestCatalogSizesUpToAMaxSide(t *testing.T) {
	cat := NewCatalog([]Model{{Name: "free", Caps: Capabilities{ImageGeneration: true, MaxSide: 1024, MaxN: 4}}}).WithConfigPath("/c.toml")
	for _, size := range []string{"", "auto", "1024x1024", "800x600", "1x1024"} {
		if _, err := cat.ImageOptions("free", CapImageGeneration, 1, size); err != nil {
			t.Errorf("size %q: %v", size, err)
		}
	}
	for size, want := range map[string]string{
		"2000x2000": `model "free" does not accept size 2000x2000; it accepts auto or any <width>x<height> up to 1024x1024. If it takes larger sizes, raise max_side under [[models]] name = "free" in /c.toml.`,
		"1024x1025": `model "free" does not accept size 1024x1025; it accepts auto or any <width>x<height> up to 1024x1024.`,
		"big":       `size "big" is not <width>x<height> (like 1024x1024) or auto; model "free" accepts auto or any <width>x<height> up to 1024x1024.`,
	} {
		_, err := cat.ImageOptions("free", CapImageGeneration, 1, size)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("size %q: got %v, want %s", size, err, want)
		}
	}
	_, err := cat.Fixed("the built-in demo").ImageOptions("free", CapImageGeneration, 1, "2000x2000")
	if want := `model "free" of the built-in demo does not accept size 2000x2000; it accepts auto or any <width>x<height> up to 1024x1024.`; err == nil || err.Error() != want {
		t.Errorf("fixed: got %v, want %s", err, want)
	}
	if got := (Capabilities{ImageGeneration: true, MaxSide: 1024}).Summary(); !strings.Contains(got, "sizes up to 1024x1024") {
		t.Errorf("summary %q", got)
	}
}

func TestCatalogImageOptionsForEdits(t *testing.T) {
	cat := NewCatalog([]Model{{Name: "editor", Caps: Capabilities{ImageEdit: true, EditPath: "/v2/edit"}}})
	o, err := cat.ImageOptions("editor", CapImageEdit, 0, "")
	if err != nil || o.EditPath != "/v2/edit" || o.ResponseFormat != "" {
		t.Errorf("%+v %v", o, err)
	}
	o, err = cat.ImageOptions("gpt-image-1", CapImageEdit, 2, "1024x1024")
	if err != nil || o.EditPath != DefaultEditPath || o.N != 2 || o.Size != "1024x1024" {
		t.Errorf("%+v %v", o, err)
	}
	if _, err := cat.ImageOptions("dall-e-3", CapImageEdit, 1, ""); err == nil {
		t.Error("dall-e-3 edits accepted")
	}
}

func TestCatalogStreamOptionsFor(t *testing.T) {
	cat := NewCatalog([]Model{
		{Name: "gpt-4o", Caps: Capabilities{Vision: true}}, // usage switched off by config
		{Name: "local", Caps: Capabilities{StreamUsage: true}},
	})
	for model, want := range map[string]bool{"gpt-4o": false, "gpt-4.1-mini": true, "local": true, "llama3": false, "llava": false, "o3-mini": true} {
		so := cat.StreamOptionsFor(model)
		if (so != nil) != want || (so != nil && !so.IncludeUsage) {
			t.Errorf("%s: %+v, want include_usage=%v", model, so, want)
		}
		b, _ := json.Marshal(ChatRequest{Model: model, StreamOptions: so})
		if strings.Contains(string(b), "stream_options") != want {
			t.Errorf("%s: request JSON %s", model, b)
		}
	}
}

func TestCatalogCapabilitiesHelpers(t *testing.T) {
	for s, want := range map[string]bool{"1024x1024": true, "auto": true, "1x1": true, "1024*1024": false, "x1024": false, "0x10": false, "1024x": false, "-1x5": false, "AUTO": false, " 1x1": false} {
		if ValidSize(s) != want {
			t.Errorf("ValidSize(%q) = %v", s, !want)
		}
	}
	gi, _ := BuiltinCapabilities("gpt-image-1")
	if got := gi.Summary(); got != "image generation, image editing, sizes 1024x1024 1536x1024 1024x1536 auto, n ≤ 10" {
		t.Errorf("Summary = %q", got)
	}
	if got := (Capabilities{Vision: true, StreamUsage: true}).Summary(); got != "chat, vision, usage" {
		t.Errorf("Summary = %q", got)
	}
	if got := (Capabilities{}).Summary(); got != "chat" {
		t.Errorf("Summary = %q", got)
	}
	for name, want := range map[string]bool{"gpt-image-1": true, "dall-e-3": true, "dall-e-2": true, "gpt-4o": false, "llama3.2:latest": false} {
		if c, _ := BuiltinCapabilities(name); c.ImageOnly() != want {
			t.Errorf("%s: ImageOnly() = %v", name, !want)
		}
	}
	if (Capabilities{ImageGeneration: true, Vision: true}).ImageOnly() {
		t.Error("a model that makes images and sees them chats too")
	}
	if NormalizeModelName(" Meta-Llama/Llama-3.2-11B-Vision-Instruct:free ") != "llama-3.2-11b-vision-instruct" {
		t.Error("NormalizeModelName")
	}
}

// TestCatalogNamesStayOnOneLine: a configured model name with a newline or
// a tab cannot start a line of its own in a refusal; shown through the
// sanitiser it reads as termsafe.Line shows it anywhere else.
func TestCatalogNamesStayOnOneLine(t *testing.T) {
	forged := "evil\nmodel gpt-4o [openai, config]: chat, vision\tX"
	cat := NewCatalog([]Model{{Name: forged, Caps: Capabilities{Vision: true}}})
	err := cat.Require("plain-chat-model", CapVision)
	if err == nil {
		t.Fatal("no refusal")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\t") {
		t.Fatalf("the refusal spans lines: %q", msg)
	}
	if !strings.Contains(termsafe.Sanitize(msg), termsafe.Line(forged)) {
		t.Fatalf("the name is not shown as termsafe.Line shows it: %q", msg)
	}
	for _, s := range []string{"a\r\nb", "a\rb", "a\tb\n", "plain", "\x1b[2J\n"} {
		if got, want := termsafe.Sanitize(escapeBreaks(s)), termsafe.Line(s); got != want {
			t.Errorf("escapeBreaks(%q) shows as %q, termsafe.Line as %q", s, got, want)
		}
	}
	// The model being refused is quoted, which escapes it as well.
	if err := cat.Require("bad\nname", CapVision); strings.Contains(err.Error(), "\n") {
		t.Fatalf("the refused name spans lines: %q", err)
	}
}

// The demo's models are fixed: a refusal gives no config advice, since no
// config line changes them.
func TestFixedCatalogGivesNoConfigAdvice(t *testing.T) {
	cat := NewCatalog([]Model{{Name: "demo-chat"}, {Name: "demo-vision", Caps: Capabilities{Vision: true}}}).
		WithConfigPath("/home/u/.config/parley/config.toml").Fixed("the built-in demo")
	err := cat.WithListed(nil).Require("demo-chat", CapVision)
	want := `model "demo-chat" of the built-in demo cannot see images; use one of the models with vision: demo-vision.`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}
