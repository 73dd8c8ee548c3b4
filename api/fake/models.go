package fake

import (
	"slices"
	"strings"
)

// ModelSpec declares one model of the fake's strict catalog and what it can do.
// A model with ImageGeneration or ImageEdit is an image model: chat requests
// naming it are refused, as real gateways refuse them.
type ModelSpec struct {
	ID              string
	Vision          bool     // chat: accepts image_url parts
	StreamUsage     bool     // chat: accepts stream_options (include_usage)
	ImageGeneration bool     // POST /images/generations
	ImageEdit       bool     // POST /images/edits
	ResponseFormat  bool     // images: accepts the response_format field
	Sizes           []string // images: accepted sizes; empty = any WxH up to MaxSide, or "auto"
	MaxSide         int      // images: with Sizes empty, the largest width or height of a size; 0 = 8192
	MaxEditSide     int      // edits: the largest width or height of an input image; 0 = no limit
	MaxN            int      // images: largest n (0 treated as 1)
	MaxEditImages   int      // edits: most "image" files in one request; 0 = no limit
	// MaxCompletionTokens: chat refuses max_tokens and asks for
	// max_completion_tokens, as OpenAI's reasoning models do.
	MaxCompletionTokens bool
	// RejectParams are request members the chat refuses as unsupported
	// ("temperature" for a model that only samples at its default).
	RejectParams []string
	// Modalities lists the model with what it takes and makes, the way
	// OpenRouter does (architecture.input_modalities and
	// output_modalities): text, plus image when Vision (input) or
	// ImageOutput (output).
	Modalities  bool
	ImageOutput bool // chat: the reply carries images (with Modalities, listed as an output)
}

func (m ModelSpec) isImageModel() bool { return m.ImageGeneration || m.ImageEdit }

// defaultMaxSide bounds the sizes of models that list none and set no MaxSide.
const defaultMaxSide = 8192

func (m ModelSpec) maxSide() int {
	if m.MaxSide <= 0 {
		return defaultMaxSide
	}
	return m.MaxSide
}

func (m ModelSpec) maxN() int {
	if m.MaxN <= 0 {
		return 1
	}
	return m.MaxN
}

// DefaultModels returns (a fresh copy of) the catalog used when WithModels is
// not given. Names and capabilities mirror the real models so end-to-end runs
// look like the real thing.
func DefaultModels() []ModelSpec {
	square := []string{"256x256", "512x512", "1024x1024"}
	return []ModelSpec{
		{ID: "gpt-4o", Vision: true, StreamUsage: true},
		{ID: "gpt-4o-mini", Vision: true, StreamUsage: true},
		{ID: "llama3"},
		{ID: "llava", Vision: true},
		{ID: "dall-e-2", ImageGeneration: true, ImageEdit: true, ResponseFormat: true,
			Sizes: square, MaxN: 10, MaxEditImages: 1},
		{ID: "dall-e-3", ImageGeneration: true, ResponseFormat: true,
			Sizes: []string{"1024x1024", "1792x1024", "1024x1792"}, MaxN: 1},
		{ID: "gpt-image-1", ImageGeneration: true, ImageEdit: true,
			Sizes: []string{"1024x1024", "1536x1024", "1024x1536", "auto"}, MaxN: 10, MaxEditImages: 16},
	}
}

func cloneModels(ms []ModelSpec) []ModelSpec {
	out := make([]ModelSpec, len(ms))
	for i, m := range ms {
		m.Sizes = slices.Clone(m.Sizes)
		m.RejectParams = slices.Clone(m.RejectParams)
		out[i] = m
	}
	return out
}

// modelCreated is the fixed "created" of every listed model, so listings
// compare byte for byte.
const modelCreated = 1700000000

type modelObject struct {
	ID           string        `json:"id"`
	Object       string        `json:"object"`
	Created      int64         `json:"created"`
	OwnedBy      string        `json:"owned_by"`
	Architecture *architecture `json:"architecture,omitempty"`
}

// architecture is OpenRouter's word on what a model takes and makes.
type architecture struct {
	InputModalities  []string `json:"input_modalities"`
	OutputModalities []string `json:"output_modalities"`
}

func modelObj(m ModelSpec) modelObject {
	o := modelObject{ID: m.ID, Object: "model", Created: modelCreated, OwnedBy: "apitest"}
	if m.Modalities {
		a := &architecture{InputModalities: []string{"text"}, OutputModalities: []string{"text"}}
		if m.Vision {
			a.InputModalities = append(a.InputModalities, "image")
		}
		if m.ImageOutput || m.ImageGeneration {
			a.OutputModalities = append(a.OutputModalities, "image")
		}
		o.Architecture = a
	}
	return o
}

// handleModels answers GET /v1/models with every model of the catalog.
func (ex *exchange) handleModels() {
	list := struct {
		Object string        `json:"object"`
		Data   []modelObject `json:"data"`
	}{Object: "list", Data: []modelObject{}}
	for _, m := range ex.s.models {
		list.Data = append(list.Data, modelObj(m))
	}
	ex.writeJSON(marshal(list))
}

// handleModel answers GET /v1/models/{id}.
func (ex *exchange) handleModel() {
	id := strings.TrimPrefix(ex.endpoint, "/models/")
	m, ok := ex.s.model(id)
	if !ok {
		ex.fail(modelNotFound(id))
		return
	}
	ex.writeJSON(marshal(modelObj(m)))
}
