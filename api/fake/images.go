package fake

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// imageCall is an image request (generation or edit) that passed validation.
type imageCall struct {
	model  ModelSpec
	prompt string
	n      int
	w, h   int  // size of generated images; 0 = decided by the endpoint
	asURL  bool // answer with data[].url
}

// imageParams are the generation request members a strict gateway knows.
func imageParams() []string {
	return []string{"model", "prompt", "n", "size", "response_format", "quality", "style", "user",
		"background", "moderation", "output_format", "output_compression", "partial_images", "stream"}
}

type imagesResponse struct {
	Created int64       `json:"created"`
	Data    []imageItem `json:"data"`
}

type imageItem struct {
	B64JSON string `json:"b64_json,omitempty"`
	URL     string `json:"url,omitempty"`
}

func (ex *exchange) handleGenerate() {
	call, err := ex.validateGenerate()
	if err != nil {
		ex.fail(err)
		return
	}
	if call.w == 0 {
		call.w, call.h = 1024, 1024
		for _, s := range call.model.Sizes {
			if w, h, ok := parseSize(s); ok {
				call.w, call.h = w, h
				break
			}
		}
	}
	if ex.consult(Call{Endpoint: ex.endpoint, Model: call.model, Prompt: call.prompt, N: call.n, Width: call.w, Height: call.h}) {
		return
	}
	ex.writeImages(call)
}

func (ex *exchange) validateGenerate() (*imageCall, *apiError) {
	m, err := decodeJSONBody(ex.r, ex.body)
	if err != nil {
		return nil, err
	}
	if err := checkKnown(m, "", imageParams()...); err != nil {
		return nil, err
	}
	modelID, err := reqString(m, "model", "model")
	if err != nil {
		return nil, err
	}
	prompt, err := reqString(m, "prompt", "prompt")
	if err != nil {
		return nil, err
	}
	n, nSet, err := integer(m, "n")
	if err != nil {
		return nil, err
	}
	size, sizeSet, err := str(m, "size", "size")
	if err != nil {
		return nil, err
	}
	_, rfSet := m["response_format"]
	rf, _, err := str(m, "response_format", "response_format")
	if err != nil {
		return nil, err
	}
	spec, ok := ex.s.model(modelID)
	if !ok {
		return nil, modelNotFound(modelID)
	}
	if !spec.ImageGeneration {
		return nil, badRequest("model", "invalid_value", "Invalid value: '%s'. This model does not generate images; models that do: %s.",
			modelID, quoteList(ex.s.modelsWith(func(m ModelSpec) bool { return m.ImageGeneration })))
	}
	call, err := ex.imageOptions(spec, n, nSet, size, sizeSet, rf, rfSet)
	if call != nil {
		call.prompt = prompt
	}
	return call, err
}

// imageOptions checks n, size and response_format against the model, the
// same way for generations and edits.
func (ex *exchange) imageOptions(spec ModelSpec, n int, nSet bool, size string, sizeSet bool, rf string, rfSet bool) (*imageCall, *apiError) {
	call := &imageCall{model: spec, n: 1}
	if nSet {
		switch {
		case n < 1:
			return nil, badRequest("n", "integer_below_min_value", "Invalid 'n': integer below minimum value. Expected a value >= 1, but got %d instead.", n)
		case n > spec.maxN():
			return nil, badRequest("n", "integer_above_max_value", "Invalid 'n': integer above maximum value. Expected a value <= %d for %s, but got %d instead.", spec.maxN(), spec.ID, n)
		}
		call.n = n
	}
	if sizeSet {
		w, h, ok := parseSize(size)
		side := spec.maxSide()
		allowed := slices.Contains(spec.Sizes, size) ||
			(len(spec.Sizes) == 0 && (size == "auto" || (ok && w <= side && h <= side)))
		if !allowed {
			sizes := fmt.Sprintf("'auto' or any <width>x<height> up to %dx%d", side, side)
			if len(spec.Sizes) > 0 {
				sizes = quoteList(spec.Sizes)
			}
			return nil, badRequest("size", "invalid_value", "Invalid value: '%s'. Supported values for %s are: %s.", size, spec.ID, sizes)
		}
		call.w, call.h = w, h // 0, 0 for "auto"
	}
	if rfSet {
		if !spec.ResponseFormat {
			return nil, badRequest("response_format", "unknown_parameter", "Unknown parameter: 'response_format'. Model %s does not accept it; omit it.", spec.ID)
		}
		if rf != "" && rf != "url" && rf != "b64_json" {
			return nil, badRequest("response_format", "invalid_value", "Invalid value: '%s'. Supported values are: 'url' and 'b64_json'.", rf)
		}
	}
	// OpenAI answers with URLs by default where response_format exists;
	// models without it always answer with b64_json.
	call.asURL = ex.rep.AsURL || rf == "url" || (spec.ResponseFormat && rf == "")
	return call, nil
}

// parseSize reads "<width>x<height>"; ok is false for "auto" and garbage.
func parseSize(s string) (w, h int, ok bool) {
	ws, hs, found := strings.Cut(s, "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !found || err1 != nil || err2 != nil || w < 1 || h < 1 {
		return 0, 0, false
	}
	return w, h, true
}

// writeImages answers an image request: the reply's scripted bytes, or n
// fresh PNGs of the call's size; as b64_json or as URLs the fake serves.
func (ex *exchange) writeImages(call *imageCall) {
	images := ex.rep.Images
	if images == nil {
		for i := range call.n {
			images = append(images, ex.s.png(call.w, call.h, i))
		}
	}
	resp := imagesResponse{Created: ex.s.now().Unix(), Data: []imageItem{}}
	for i, b := range images {
		if call.asURL {
			resp.Data = append(resp.Data, imageItem{URL: ex.s.storeFile(ex.seq, i, b)})
		} else {
			resp.Data = append(resp.Data, imageItem{B64JSON: base64.StdEncoding.EncodeToString(b)})
		}
	}
	ex.writeJSON(marshal(resp))
}

// storeFile keeps b for download and returns its URL.
func (s *Server) storeFile(seq, i int, b []byte) string {
	ext := "bin"
	switch sniffImage(b) {
	case mimePNG:
		ext = "png"
	case mimeJPEG:
		ext = "jpg"
	case mimeGIF:
		ext = "gif"
	case mimeWEBP:
		ext = "webp"
	}
	name := fmt.Sprintf("img-%d-%d.%s", seq, i, ext)
	s.mu.Lock()
	s.files[name] = b
	s.mu.Unlock()
	return s.RootURL() + filesPrefix + name
}
