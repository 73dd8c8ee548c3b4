package imagegen

import (
	"errors"
	"fmt"
	"strings"

	"parley/api"
	"parley/media"
)

// Request is what the user asked for, before any check.
type Request struct {
	Prompt, Model, Size string
	// N is how many images; 0 means the gateway's default.
	N int
	// Edit are the images to edit (nil for a generation); Mask is an
	// optional mask for the first one.
	Edit []api.ImageFile
	Mask *api.ImageFile
	// Dir is where the images are saved.
	Dir string
}

// Job is a request checked against what the model accepts, ready to send.
type Job struct {
	Model, Prompt, Size string
	// N is how many images are asked for (at least 1).
	N int
	// Generate is the request of a generation; Edit, when not nil, makes
	// the job an edit instead.
	Generate api.ImageRequest
	Edit     *api.EditRequest
	Dir      string
}

// ErrNoPrompt is the refusal of an empty prompt.
var ErrNoPrompt = errors.New("the prompt is empty: describe the image")

// Plan checks r against what the model can do and accepts (the capability,
// the size, n, the mask) without any request, and returns the job to run.
// Its errors are sentences that list what the model accepts.
func Plan(cat *api.Catalog, r Request) (Job, error) {
	prompt := strings.TrimSpace(r.Prompt)
	if prompt == "" {
		return Job{}, ErrNoPrompt
	}
	need := api.CapImageGeneration
	if len(r.Edit) > 0 {
		need = api.CapImageEdit
	}
	if err := cat.Require(r.Model, need); err != nil {
		return Job{}, err
	}
	if r.N < 0 {
		return Job{}, fmt.Errorf("the number of images must be 1 or more, not %d", r.N)
	}
	opts, err := cat.ImageOptions(r.Model, need, r.N, r.Size)
	if err != nil {
		return Job{}, err
	}
	gen := api.ImageRequest{Model: r.Model, Prompt: prompt, N: opts.N, Size: opts.Size, ResponseFormat: opts.ResponseFormat}
	j := Job{Model: r.Model, Prompt: prompt, Size: opts.Size, N: max(opts.N, 1), Generate: gen, Dir: r.Dir}
	if r.N > 0 {
		j.N = r.N
	}
	if len(r.Edit) > 0 {
		edit := &api.EditRequest{
			Model: gen.Model, Prompt: gen.Prompt, N: gen.N, Size: gen.Size,
			ResponseFormat: gen.ResponseFormat, Path: opts.EditPath, Images: r.Edit,
		}
		for i, f := range r.Edit {
			if _, err := media.Inspect(f.Data); err != nil {
				return Job{}, fmt.Errorf("cannot edit image %d: it %w", i+1, err)
			}
		}
		if r.Mask != nil {
			if err := media.CheckMask(r.Edit[0].Data, r.Mask.Data); err != nil {
				return Job{}, fmt.Errorf("cannot use the mask: %w", err)
			}
			m := *r.Mask
			edit.Mask = &m
		}
		j.Edit = edit
	}
	return j, nil
}

// Describe says what a job makes: "generating 2 images with gpt-image-1
// (1024x1024)", "editing 1 image with gpt-image-1".
func Describe(j Job) string {
	var s string
	if j.Edit != nil {
		s = fmt.Sprintf("editing %s with %s", Plural(len(j.Edit.Images), "image"), j.Model)
	} else {
		s = fmt.Sprintf("generating %s with %s", Plural(j.N, "image"), j.Model)
	}
	if j.Size != "" {
		s += " (" + j.Size + ")"
	}
	return s
}

// Plural writes "1 image", "3 images".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
