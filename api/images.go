package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path"
	"strconv"
	"strings"
)

// GenerateImages sends POST /images/generations. n, size and
// response_format go out only when set (the catalog decides which the model
// takes). Waiting for the reply is bounded by Timeouts.ImageHeader, not
// Timeouts.Header, since generation takes minutes on some models.
func (c *Client) GenerateImages(ctx context.Context, req ImageRequest) (*ImageResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding the image request: %w", err)
	}
	return c.imageCall(ctx, &apiRequest{
		method:      "POST",
		url:         c.endpoint("/images/generations"),
		body:        body,
		contentType: "application/json",
		accept:      "application/json",
	}, req.Model)
}

// EditRequest is an image edit: a multipart POST to the model's edit path.
type EditRequest struct {
	Model, Prompt  string
	Images         []ImageFile // one or more
	Mask           *ImageFile  // optional; checked by the caller (PNG, same size as the image)
	N              int         // sent when > 0
	Size           string      // sent when set
	ResponseFormat string      // sent when set
	Path           string      // default "/images/edits", relative to the base URL
}

// ImageFile is one uploaded file.
type ImageFile struct {
	Name string // file name sent to the gateway; a default is made up when empty
	Data []byte
	MIME string // media type; sniffed from Data when empty
}

// DefaultEditPath is where edits go when EditRequest.Path is empty.
const DefaultEditPath = "/images/edits"

// EditImages sends an image edit as multipart/form-data. The fields follow
// OpenAI's API: "model", "prompt", then "n", "size" and "response_format"
// when set; the picture goes in a file field "image" when there is one, and
// in repeated "image[]" fields when there are several, which is what
// OpenAI's own SDKs and documented curl calls send for gpt-image models (a
// repeated plain "image" is rejected there); "mask" is a file field.
func (c *Client) EditImages(ctx context.Context, req EditRequest) (*ImageResponse, error) {
	if len(req.Images) == 0 {
		return nil, errors.New("an image edit needs at least one image")
	}
	body, contentType, err := editBody(req)
	if err != nil {
		return nil, err
	}
	p := req.Path
	if p == "" {
		p = DefaultEditPath
	}
	return c.imageCall(ctx, &apiRequest{
		method:      "POST",
		url:         c.endpoint(c.relativeToBase(p)),
		body:        body,
		contentType: contentType,
		accept:      "application/json",
	}, req.Model)
}

// relativeToBase accepts an edit path written with or without the version
// prefix the base URL already ends in ("/v1/images/edits" or "/images/edits").
func (c *Client) relativeToBase(p string) string {
	p = "/" + strings.TrimLeft(p, "/")
	ver := path.Base(c.base.Path) // "v1"
	if ver != "." && ver != "/" && strings.HasPrefix(p, "/"+ver+"/") {
		return strings.TrimPrefix(p, "/"+ver)
	}
	return p
}

// editBody builds the multipart body. It is built in memory so that a retry
// can send it again and Content-Length is known.
func editBody(req EditRequest) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fields := [][2]string{{"model", req.Model}, {"prompt", req.Prompt}}
	if req.N > 0 {
		fields = append(fields, [2]string{"n", strconv.Itoa(req.N)})
	}
	if req.Size != "" {
		fields = append(fields, [2]string{"size", req.Size})
	}
	if req.ResponseFormat != "" {
		fields = append(fields, [2]string{"response_format", req.ResponseFormat})
	}
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return nil, "", err
		}
	}
	name := "image"
	if len(req.Images) > 1 {
		name = "image[]"
	}
	for i, img := range req.Images {
		if err := writeFile(w, name, img, fmt.Sprintf("image-%d", i+1)); err != nil {
			return nil, "", err
		}
	}
	if req.Mask != nil {
		if err := writeFile(w, "mask", *req.Mask, "mask"); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// quoteEscaper makes a file name safe inside a quoted header parameter.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

func writeFile(w *multipart.Writer, field string, f ImageFile, fallback string) error {
	if len(f.Data) == 0 {
		return fmt.Errorf("the %s file %q is empty; give an image file with content", field, f.Name)
	}
	mt := f.MIME
	if mt == "" {
		mt = http.DetectContentType(f.Data)
	}
	name := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
	if f.Name == "" || name == "." || name == "/" {
		name = fallback + extFor(mt)
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, quoteEscaper.Replace(field), quoteEscaper.Replace(name)))
	h.Set("Content-Type", mt)
	part, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	_, err = part.Write(f.Data)
	return err
}

func extFor(mediaType string) string {
	switch mediaType {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/webp":
		return ".webp"
	case "image/gif":
		return ".gif"
	}
	return ""
}

// imageCall sends an image request and decodes the reply.
func (c *Client) imageCall(ctx context.Context, r *apiRequest, model string) (*ImageResponse, error) {
	r.credentials = true
	r.model = model
	r.header = c.timeouts.ImageHeader
	data, err := c.roundTrip(ctx, r, maxImageBody)
	if err != nil {
		return nil, err
	}
	var reply ImageResponse
	if err := json.Unmarshal(data, &reply); err != nil {
		return nil, fmt.Errorf("the gateway's image reply is not valid JSON (%w): check the base URL %s", err, c.baseStr)
	}
	if reply.Data == nil {
		if eb, ok := parseJSONError(bytes.TrimSpace(data)); ok {
			e := &APIError{StatusCode: 200, Status: "200 OK"}
			c.fill(e, eb)
			c.annotate(e, model)
			return nil, e
		}
	}
	return &reply, nil
}
