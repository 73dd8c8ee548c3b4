package demo

import (
	"parley/api/fake"
	"parley/config"
)

// The demo models, named after what they show.
const (
	ModelChat   = "demo-chat"   // a Markdown answer: headings, a table, lists, code
	ModelEcho   = "demo-echo"   // repeats the message
	ModelVision = "demo-vision" // describes attached images: format and size
	ModelThink  = "demo-think"  // reasons first (reasoning_content), then answers
	ModelFiles  = "demo-files"  // answers about attached text files: lines, words, first line
	ModelImage  = "demo-image"  // generates PNGs drawn from the prompt, and edits images (tints them)
	ModelSlow   = "demo-slow"   // stops sending for a while mid-reply
	ModelLong   = "demo-long"   // a ~20 KB Markdown answer (long streams, scrolling)
	ModelFail   = "demo-fail"   // fails, so errors can be seen
)

// Bounds of the image models: sizes and counts above them get the
// gateway's 400.
const (
	maxImageSide = 1024 // a size asked for: width and height
	maxEditSide  = 2048 // an edit's input image: width and height (bounds the memory of one edit)
	maxImages    = 4    // n
)

// ImageSizes are sizes demo-image takes, for shell completion; any other
// width x height up to 1024x1024 works too.
func ImageSizes() []string {
	return []string{"1024x1024", "512x512", "256x256", "1024x768", "768x1024", "1024x576", "576x1024"}
}

// Model is one demo model as the help lists it.
type Model struct {
	Name, Shows string
}

// model is a Model with what the gateway knows of it.
type model struct {
	Model
	spec fake.ModelSpec
}

// models is the catalog in the order the help lists it.
func models() []model {
	return []model{
		{Model{ModelChat, "a streamed Markdown answer with headings, a table, lists and code"}, fake.ModelSpec{ID: ModelChat, StreamUsage: true}},
		{Model{ModelEcho, "repeats your message"}, fake.ModelSpec{ID: ModelEcho, StreamUsage: true}},
		{Model{ModelVision, "describes the images you attach: their format and size"}, fake.ModelSpec{ID: ModelVision, Vision: true, StreamUsage: true}},
		{Model{ModelThink, "thinks before it answers: its reasoning streams apart from the answer"}, fake.ModelSpec{ID: ModelThink, StreamUsage: true}},
		{Model{ModelFiles, "reads the text files you attach: their lines, words and first line"}, fake.ModelSpec{ID: ModelFiles, StreamUsage: true}},
		{Model{ModelImage, "generates PNG images drawn from the prompt (up to 1024x1024, 4 at a time), and edits an image by tinting it"},
			fake.ModelSpec{ID: ModelImage, ImageGeneration: true, ImageEdit: true, MaxSide: maxImageSide, MaxEditSide: maxEditSide, MaxN: maxImages, MaxEditImages: 1}},
		{Model{ModelSlow, "stops sending for 20 s in the middle of its reply"}, fake.ModelSpec{ID: ModelSlow, StreamUsage: true}},
		{Model{ModelLong, "a long Markdown answer (about 20 KB)"}, fake.ModelSpec{ID: ModelLong, StreamUsage: true}},
		{Model{ModelFail, "fails: mid-reply, or with 429, 401 or 500 when the message says so"}, fake.ModelSpec{ID: ModelFail}},
	}
}

// Models lists the demo models with what each shows.
func Models() []Model {
	var out []Model
	for _, m := range models() {
		out = append(out, m.Model)
	}
	return out
}

func specs() []fake.ModelSpec {
	var out []fake.ModelSpec
	for _, m := range models() {
		out = append(out, m.spec)
	}
	return out
}

// modelConfigs declares each model's capabilities the way a [[models]]
// entry would, so the catalog, `parley models` and the chat's checks know
// them. Every capability is set explicitly: a demo name must never pick up
// a built-in guess.
func modelConfigs() []config.ModelConfig {
	var out []config.ModelConfig
	for _, m := range models() {
		s := m.spec
		mc := config.ModelConfig{
			Name:            s.ID,
			Vision:          ptr(s.Vision),
			StreamUsage:     ptr(s.StreamUsage),
			ImageGeneration: ptr(s.ImageGeneration),
			ImageEdit:       ptr(s.ImageEdit),
			ResponseFormat:  ptr(s.ResponseFormat),
		}
		if s.ImageGeneration || s.ImageEdit {
			mc.MaxN = ptr(s.MaxN)
		}
		if s.MaxSide > 0 && len(s.Sizes) == 0 {
			// The gateway takes any size up to its side: parley refuses
			// the rest before the request, as it does a config's.
			mc.MaxSide = ptr(s.MaxSide)
		}
		out = append(out, mc)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
