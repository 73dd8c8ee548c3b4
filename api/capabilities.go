package api

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Capability is one thing a model may or may not do.
type Capability int

// The capabilities parley checks before sending a request.
const (
	CapVision Capability = iota + 1
	CapStreamUsage
	CapImageGeneration
	CapImageEdit
	// CapImageOutput: a chat model that makes images in its replies.
	CapImageOutput
	// CapTools: a chat model that takes tools (false: NoTools).
	CapTools
)

// String names the capability as people say it ("vision").
func (c Capability) String() string {
	switch c {
	case CapVision:
		return "vision"
	case CapStreamUsage:
		return "usage reporting"
	case CapImageGeneration:
		return "image generation"
	case CapImageEdit:
		return "image editing"
	case CapImageOutput:
		return "images in replies"
	case CapTools:
		return "tools"
	}
	return "capability " + strconv.Itoa(int(c))
}

// ConfigKey is the [[models]] key that declares the capability.
func (c Capability) ConfigKey() string {
	switch c {
	case CapVision:
		return "vision"
	case CapStreamUsage:
		return "stream_usage"
	case CapImageGeneration:
		return "image_generation"
	case CapImageEdit:
		return "image_edit"
	case CapImageOutput:
		return "image_output"
	case CapTools:
		return "tools"
	}
	return ""
}

// lacks and holders phrase a refusal: `model "x" <lacks>; <holders>: a, b.`
func (c Capability) lacks() string {
	switch c {
	case CapVision:
		return "cannot see images"
	case CapStreamUsage:
		return "does not report token usage"
	case CapImageGeneration:
		return "cannot generate images"
	case CapImageEdit:
		return "cannot edit images"
	case CapImageOutput:
		return "does not make images in its replies"
	}
	return "lacks " + c.String()
}

func (c Capability) holders() string {
	switch c {
	case CapVision:
		return "models with vision"
	case CapStreamUsage:
		return "models that report usage"
	case CapImageGeneration:
		return "models that generate images"
	case CapImageEdit:
		return "models that edit images"
	case CapImageOutput:
		return "models that make images in their replies"
	}
	return "models with " + c.String()
}

// Capabilities says what a model can do. The zero value is a plain chat model.
type Capabilities struct {
	Vision          bool // accepts image parts in chat messages
	StreamUsage     bool // accepts stream_options.include_usage
	ImageGeneration bool // POST /images/generations
	ImageEdit       bool // multipart POST to EditPath
	ResponseFormat  bool // accepts response_format ("b64_json"); gpt-image models do not
	// ImageOutput: a chat model whose replies carry images (asked for with
	// modalities ["image","text"]; see ReplyImage).
	ImageOutput bool

	Sizes []string // sizes the model accepts ("1024x1024", "auto"); empty = not known, any is sent
	// MaxSide, when Sizes is empty, bounds the sizes of a model that takes
	// auto or any <width>x<height> with both sides up to it; 0 = not known.
	MaxSide  int
	MaxN     int    // most images per request; 0 means unknown and is treated as 1
	EditPath string // edit endpoint relative to the /v1 base; "" = DefaultEditPath (images.go)
	// MaxTokensField is the name max_tokens is sent under: "" for
	// max_tokens, MaxCompletionTokens for the models that refuse
	// max_tokens (OpenAI's o-series and gpt-5; max_tokens_field in a
	// [[models]] entry).
	MaxTokensField string
	// NoTools marks a model that takes no tools (tools = false in its
	// [[models]] entry): requests to it carry no tools.
	NoTools bool
}

// Has reports whether the capability is present.
func (c Capabilities) Has(cap Capability) bool {
	switch cap {
	case CapVision:
		return c.Vision
	case CapStreamUsage:
		return c.StreamUsage
	case CapImageGeneration:
		return c.ImageGeneration
	case CapImageEdit:
		return c.ImageEdit
	case CapImageOutput:
		return c.ImageOutput
	}
	return false
}

// ImageOnly reports whether the model only makes or edits images: it
// generates or edits, and nothing says it chats (no vision, no streamed
// usage). Gateways refuse chat requests to such a model, so no chat-model
// picker offers it.
func (c Capabilities) ImageOnly() bool {
	return (c.ImageGeneration || c.ImageEdit) && !c.Vision && !c.StreamUsage
}

// MaxImages is the largest n the model takes (at least 1).
func (c Capabilities) MaxImages() int { return max(c.MaxN, 1) }

// AcceptsSize reports whether size may be sent: it is listed; or the
// model lists no sizes and it is auto or within MaxSide; or nothing is
// known of the model's sizes at all.
func (c Capabilities) AcceptsSize(size string) bool {
	if len(c.Sizes) == 0 {
		if c.MaxSide <= 0 || strings.EqualFold(size, "auto") {
			return true
		}
		w, h, ok := sizeSides(size)
		return ok && w <= c.MaxSide && h <= c.MaxSide
	}
	for _, s := range c.Sizes {
		if strings.EqualFold(s, size) {
			return true
		}
	}
	return false
}

// EditEndpoint is EditPath or the default.
func (c Capabilities) EditEndpoint() string {
	if c.EditPath == "" {
		return DefaultEditPath
	}
	return c.EditPath
}

// Summary lists the capabilities in a few words for `parley models`:
// "chat, vision, usage" or "image generation, image editing, sizes
// 1024x1024 1536x1024, n ≤ 4".
func (c Capabilities) Summary() string {
	var parts []string
	if !c.ImageGeneration && !c.ImageEdit || c.Vision || c.StreamUsage {
		parts = append(parts, "chat")
	}
	if c.Vision {
		parts = append(parts, "vision")
	}
	if c.StreamUsage {
		parts = append(parts, "usage")
	}
	if c.ImageOutput {
		parts = append(parts, "images in replies")
	}
	if c.ImageGeneration {
		parts = append(parts, "image generation")
	}
	if c.ImageEdit {
		e := "image editing"
		if c.EditPath != "" && c.EditPath != DefaultEditPath {
			e += " (" + c.EditPath + ")"
		}
		parts = append(parts, e)
	}
	if c.ImageGeneration || c.ImageEdit {
		if len(c.Sizes) > 0 {
			parts = append(parts, "sizes "+strings.Join(c.Sizes, " "))
		} else if c.MaxSide > 0 {
			parts = append(parts, fmt.Sprintf("sizes up to %dx%d", c.MaxSide, c.MaxSide))
		}
		parts = append(parts, "n ≤ "+strconv.Itoa(c.MaxImages()))
		if c.ResponseFormat {
			parts = append(parts, "response_format")
		}
	}
	return strings.Join(parts, ", ")
}

// ValidSize reports whether s is "auto" or "<width>x<height>" with positive
// integers, the only forms the spec and gateways use.
func ValidSize(s string) bool {
	if s == "auto" {
		return true
	}
	_, _, ok := sizeSides(s)
	return ok
}

// sizeSides reads "<width>x<height>" with positive integers.
func sizeSides(s string) (w, h int, ok bool) {
	ws, hs, found := strings.Cut(s, "x")
	if !found || !positiveInt(ws) || !positiveInt(hs) {
		return 0, 0, false
	}
	w, _ = strconv.Atoi(ws)
	h, _ = strconv.Atoi(hs)
	return w, h, true
}

func positiveInt(s string) bool {
	if s == "" || len(s) > 6 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	n, _ := strconv.Atoi(s)
	return n > 0
}

// family is a group of well-known model names sharing capabilities.
type family struct {
	patterns []string // path.Match patterns against the normalised name
	label    string   // how refusals name the family; "" = not named
	caps     Capabilities
}

var (
	chatVisionUsage = Capabilities{Vision: true, StreamUsage: true}
	chatUsage       = Capabilities{StreamUsage: true}
	visionOnly      = Capabilities{Vision: true}
	// OpenAI's reasoning models refuse max_tokens.
	reasoningVisionUsage = Capabilities{Vision: true, StreamUsage: true, MaxTokensField: MaxCompletionTokens}
	reasoningUsage       = Capabilities{StreamUsage: true, MaxTokensField: MaxCompletionTokens}
)

// builtinFamilies is searched in order; the first match wins, so narrower
// exceptions (o1-mini has no vision) come before their family.
var builtinFamilies = []family{
	{[]string{"dall-e-2"}, "dall-e-2", Capabilities{
		ImageGeneration: true, ImageEdit: true, ResponseFormat: true,
		Sizes: []string{"256x256", "512x512", "1024x1024"}, MaxN: 10,
	}},
	{[]string{"dall-e-3"}, "dall-e-3", Capabilities{
		ImageGeneration: true, ResponseFormat: true,
		Sizes: []string{"1024x1024", "1792x1024", "1024x1792"}, MaxN: 1,
	}},
	{[]string{"gpt-image-*", "chatgpt-image*"}, "gpt-image-1", Capabilities{
		ImageGeneration: true, ImageEdit: true,
		Sizes: []string{"1024x1024", "1536x1024", "1024x1536", "auto"}, MaxN: 10,
	}},
	// OpenAI chat models without image input.
	{[]string{"o1-mini*", "o1-preview*", "o3-mini*"}, "", reasoningUsage},
	{[]string{"gpt-3.5*", "gpt-4", "gpt-4-0*", "gpt-4-1106*", "gpt-4-32k*",
		"gpt-4o*-audio*", "gpt-4o*-realtime*", "gpt-4o*-transcribe*", "gpt-4o*-tts*"}, "", chatUsage},
	// OpenAI chat models with image input.
	{[]string{"gpt-4o*", "chatgpt-4o*"}, "gpt-4o", chatVisionUsage},
	{[]string{"gpt-4.1*"}, "gpt-4.1", chatVisionUsage},
	{[]string{"gpt-4.5*", "gpt-4-turbo*", "gpt-4-vision*"}, "", chatVisionUsage},
	{[]string{"gpt-5-chat*"}, "", chatVisionUsage},
	{[]string{"gpt-5*"}, "gpt-5", reasoningVisionUsage},
	{[]string{"o1*"}, "o1", reasoningVisionUsage},
	{[]string{"o3*"}, "o3", reasoningVisionUsage},
	{[]string{"o4*"}, "o4-mini", reasoningVisionUsage},
	// Open and third-party models known to see images.
	{[]string{"llava*", "bakllava*"}, "llava", visionOnly},
	{[]string{"qwen2.5-vl*"}, "qwen2.5-vl", visionOnly},
	{[]string{"llama3.2-vision*"}, "llama3.2-vision", visionOnly},
	{[]string{"pixtral*"}, "pixtral", visionOnly},
	{[]string{"gemma3*", "gemma-3*"}, "gemma3", visionOnly},
	{[]string{"*-vl*", "*vision*"}, "", visionOnly},
	{[]string{"llama4*", "llama-4*", "minicpm-v*", "moondream*"}, "", visionOnly},
	{[]string{"claude-2*", "claude-instant*"}, "", Capabilities{}},
	{[]string{"claude*"}, "claude", visionOnly},
	{[]string{"gemini-pro", "gemini-1.0*"}, "", Capabilities{}},
	// Chat models that answer with images (OpenRouter's image output).
	{[]string{"gemini-*-image*"}, "", Capabilities{Vision: true, ImageOutput: true}},
	{[]string{"gemini*"}, "gemini", visionOnly},
}

// NormalizeModelName reduces a model id to the name the built-in table knows:
// lower case, without a provider prefix ("openai/gpt-4o",
// "meta-llama/llama-3.2-11b-vision-instruct"), without a tag suffix
// ("llava:13b", "gpt-4o:online"), and a fine-tune id "ft:gpt-4o-mini:org::id"
// reduced to its base model.
func NormalizeModelName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "ft:")
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	if i := strings.IndexByte(n, ':'); i >= 0 {
		n = n[:i]
	}
	return n
}

// BuiltinCapabilities returns the built-in capabilities of a well-known model
// name, matched case-insensitively after NormalizeModelName; ok is false for
// names parley does not know.
func BuiltinCapabilities(name string) (Capabilities, bool) {
	f, ok := builtinFamily(name)
	if !ok {
		return Capabilities{}, false
	}
	caps := f.caps
	caps.Sizes = append([]string(nil), caps.Sizes...) // callers may modify theirs
	return caps, true
}

func builtinFamily(name string) (family, bool) {
	n := NormalizeModelName(name)
	if n == "" {
		return family{}, false
	}
	for _, f := range builtinFamilies {
		for _, p := range f.patterns {
			if ok, _ := path.Match(p, n); ok {
				return f, true
			}
		}
	}
	return family{}, false
}
