package fake

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"slices"
	"strconv"
	"strings"
)

// editParams are the multipart fields of an edit a strict gateway knows.
func editParams() []string {
	return []string{"image", "image[]", "mask", "prompt", "model", "n", "size", "response_format",
		"user", "quality", "background", "input_fidelity", "output_format", "output_compression",
		"partial_images", "stream"}
}

// ParseEditForm reads a multipart/form-data body into fields and files.
func ParseEditForm(body []byte, contentType string) (*EditForm, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" {
		return nil, fmt.Errorf("content type %q is not multipart/form-data", contentType)
	}
	if params["boundary"] == "" {
		return nil, errors.New("the multipart Content-Type has no boundary")
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	form := &EditForm{Fields: map[string][]string{}}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return form, fmt.Errorf("reading multipart body: %w", err)
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return form, fmt.Errorf("reading part %q: %w", p.FormName(), err)
		}
		name := p.FormName()
		if p.FileName() == "" {
			form.Fields[name] = append(form.Fields[name], string(data))
			continue
		}
		f := FormFile{Field: name, Filename: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data}
		form.Files = append(form.Files, f)
		switch {
		case name == "image" || name == "image[]":
			form.Images = append(form.Images, f)
		case name == "mask" && form.Mask == nil:
			m := f
			form.Mask = &m
		}
	}
	form.Model = form.Value("model")
	form.Prompt = form.Value("prompt")
	form.Size = form.Value("size")
	form.ResponseFormat = form.Value("response_format")
	form.N, _ = strconv.Atoi(form.Value("n"))
	return form, nil
}

func (ex *exchange) handleEdit() {
	call, form, w, h, err := ex.validateEdit()
	if err != nil {
		ex.fail(err)
		return
	}
	if call.w == 0 { // no size or "auto": the size of the input image
		call.w, call.h = w, h
	}
	if ex.consult(Call{Endpoint: ex.endpoint, Model: call.model, Prompt: form.Prompt, N: call.n, Width: call.w, Height: call.h, Edit: form}) {
		return
	}
	ex.writeImages(call)
}

// validateEdit checks an edit form; w, h are the first image's dimensions.
func (ex *exchange) validateEdit() (call *imageCall, form *EditForm, w, h int, _ *apiError) {
	ct := ex.r.Header.Get("Content-Type")
	if mt, _, _ := mime.ParseMediaType(ct); mt != "multipart/form-data" {
		return nil, nil, 0, 0, badRequest("", "", "Invalid Content-Type header %q: image edits are sent as multipart/form-data.", ct)
	}
	form, perr := ParseEditForm(ex.body, ct)
	if perr != nil {
		return nil, nil, 0, 0, badRequest("", "", "Could not parse the multipart form: %v.", perr)
	}
	if err := checkEditFields(form); err != nil {
		return nil, nil, 0, 0, err
	}
	if form.Model == "" {
		return nil, nil, 0, 0, missingParam("model")
	}
	if strings.TrimSpace(form.Value("prompt")) == "" {
		return nil, nil, 0, 0, missingParam("prompt")
	}
	spec, ok := ex.s.model(form.Model)
	if !ok {
		return nil, nil, 0, 0, modelNotFound(form.Model)
	}
	if !spec.ImageEdit {
		return nil, nil, 0, 0, badRequest("model", "invalid_value", "Invalid value: '%s'. This model does not edit images; models that do: %s.",
			spec.ID, quoteList(ex.s.modelsWith(func(m ModelSpec) bool { return m.ImageEdit })))
	}
	if len(form.Images) == 0 {
		return nil, nil, 0, 0, missingParam("image")
	}
	if spec.MaxEditImages > 0 && len(form.Images) > spec.MaxEditImages {
		return nil, nil, 0, 0, badRequest("image", "invalid_value", "Too many images: %s takes at most %d, got %d.", spec.ID, spec.MaxEditImages, len(form.Images))
	}
	for i, img := range form.Images {
		iw, ih, err := checkUpload(img, []string{mimePNG, mimeJPEG, mimeWEBP})
		if err != nil {
			return nil, nil, 0, 0, err
		}
		if i == 0 {
			w, h = iw, ih
		}
	}
	if side := spec.MaxEditSide; side > 0 && (w > side || h > side) {
		return nil, nil, 0, 0, badRequest("image", "image_too_large", "Invalid file 'image': the image is %dx%d pixels and %s takes at most %d pixels per side. Scale it down and try again.", w, h, spec.ID, side)
	}
	if form.Mask != nil {
		mw, mh, err := checkUpload(*form.Mask, []string{mimePNG})
		if err != nil {
			return nil, nil, 0, 0, err
		}
		if mw != w || mh != h {
			return nil, nil, 0, 0, badRequest("mask", "invalid_mask", "Invalid mask: its size %dx%d does not match the image's %dx%d; the mask must have the same dimensions as the image.", mw, mh, w, h)
		}
	}
	n, nSet := 0, false
	if v, ok := form.Fields["n"]; ok {
		var err error
		if n, err = strconv.Atoi(v[0]); err != nil {
			return nil, nil, 0, 0, badRequest("n", "invalid_type", "Invalid type for 'n': expected an integer, but got %q instead.", v[0])
		}
		nSet = true
	}
	_, sizeSet := form.Fields["size"]
	_, rfSet := form.Fields["response_format"]
	call, err := ex.imageOptions(spec, n, nSet, form.Size, sizeSet, form.ResponseFormat, rfSet)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	call.prompt = form.Prompt
	return call, form, w, h, nil
}

// checkEditFields refuses unknown fields and fields sent as the wrong kind
// of part (a file where text belongs, or the other way round).
func checkEditFields(form *EditForm) *apiError {
	known := editParams()
	isFile := func(name string) bool { return name == "image" || name == "image[]" || name == "mask" }
	var names []string
	for name := range form.Fields {
		names = append(names, name)
	}
	for _, f := range form.Files {
		names = append(names, f.Field)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(known, name) {
			return badRequest(name, "unknown_parameter", "Unrecognized request argument supplied: %s", name)
		}
	}
	for name := range form.Fields {
		if isFile(name) {
			return badRequest(name, "invalid_type", "Invalid type for '%s': expected a file, but got a string instead.", name)
		}
	}
	for _, f := range form.Files {
		if !isFile(f.Field) {
			return badRequest(f.Field, "invalid_type", "Invalid type for '%s': expected a string, but got a file instead.", f.Field)
		}
	}
	return nil
}

// checkUpload checks an uploaded image the way OpenAI does: the part's
// declared media type must be a supported image type (not
// application/octet-stream), it must match the bytes, and the image must
// decode.
func checkUpload(f FormFile, supported []string) (w, h int, _ *apiError) {
	declared, _, _ := mime.ParseMediaType(f.ContentType)
	declared = strings.ToLower(declared)
	if !slices.Contains(supported, declared) {
		return 0, 0, badRequest(f.Field, "invalid_image_format", "Invalid file '%s': unsupported mimetype ('%s'). Supported file formats are %s.",
			f.Field, f.ContentType, quoteList(supported))
	}
	actual := sniffImage(f.Data)
	if actual != declared {
		what := "not an image"
		if actual != "" {
			what = actual
		}
		return 0, 0, badRequest(f.Field, "invalid_image_format", "Invalid file '%s': the part declares %s, but the bytes are %s.", f.Field, declared, what)
	}
	_, cfg, err := imageInfo(f.Data)
	if err != nil {
		return 0, 0, badRequest(f.Field, "invalid_image", "Invalid file '%s': the image could not be decoded: %v.", f.Field, err)
	}
	return cfg.Width, cfg.Height, nil
}
