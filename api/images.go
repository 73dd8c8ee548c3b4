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
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"parley/internal/bytesize"
	"parley/media"
)

// GenerateImages sends POST /images/generations. n, size and
// response_format go out only when set (the catalog decides which the model
// takes). Waiting for the reply is bounded by Timeouts.ImageHeader, not
// Timeouts.Header, since generation takes minutes on some models. The
// reply's images are decoded as they arrive; at most n (1 when unset) are
// kept and the rest counted in ImageReply.Dropped.
func (c *Client) GenerateImages(ctx context.Context, req ImageRequest) (*ImageReply, error) {
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
	}, req.Model, req.N, false)
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

// ReadImageFile reads an image to upload for an edit (what for says which:
// "--edit image", "mask"), refusing what is not a regular file, files over
// media.MaxFileBytes, and content that is no PNG, JPEG, WEBP or GIF, each
// with a sentence that names the file and what to do.
func ReadImageFile(path, what string) (ImageFile, error) {
	data, err := media.ReadImageFile(path, media.MaxFileBytes)
	if err != nil {
		return ImageFile{}, fmt.Errorf("cannot use %s as the %s: %w", path, what, err)
	}
	f := media.Sniff(data)
	if f == "" {
		desc := "not an image parley can read"
		if d := media.DescribeContent(data); d != "" {
			desc = d
		}
		return ImageFile{}, fmt.Errorf("cannot use %s as the %s: it is %s; give a PNG, JPEG, WEBP or GIF image", path, what, desc)
	}
	return ImageFile{Name: filepath.Base(path), Data: data, MIME: f.MIME()}, nil
}

// DefaultEditPath is where edits go when EditRequest.Path is empty.
const DefaultEditPath = "/images/edits"

// EditImages sends an image edit as multipart/form-data. The fields follow
// OpenAI's API: "model", "prompt", then "n", "size" and "response_format"
// when set; the picture goes in a file field "image" when there is one, and
// in repeated "image[]" fields when there are several, which is what
// OpenAI's own SDKs and documented curl calls send for gpt-image models (a
// repeated plain "image" is rejected there); "mask" is a file field. The
// reply is read as GenerateImages reads it.
func (c *Client) EditImages(ctx context.Context, req EditRequest) (*ImageReply, error) {
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
	}, req.Model, req.N, true)
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
		mt = media.Sniff(f.Data).MIME()
	}
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
	return media.FormatFromMIME(mediaType).Ext()
}

// imageCall sends an image request and reads the reply as it arrives (see
// readImageReply), keeping at most n images (1 when n is unset, the spec's
// default). edit says whether images were uploaded, for the advice on a 413.
func (c *Client) imageCall(ctx context.Context, r *apiRequest, model string, n int, edit bool) (*ImageReply, error) {
	r.credentials = true
	r.model = model
	r.header = c.timeouts.ImageHeader
	resp, err := c.send(ctx, r, 0)
	if err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusRequestEntityTooLarge {
			return nil, &ImageTooLargeError{APIError: apiErr, Edit: edit}
		}
		return nil, err
	}
	defer resp.close()
	idleLimit := c.timeouts.StreamIdle
	idle := time.AfterFunc(idleLimit, func() { resp.cancel(errIdleTimeout) })
	defer idle.Stop()
	reply, head, err := readImageReply(&activityReader{r: resp.Body, t: idle, d: idleLimit}, n, maxImageReply, resp.ContentLength)
	var (
		syntax *replySyntaxError
		read   *replyReadError
	)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(context.Cause(resp.ctx), errIdleTimeout):
		return nil, &TimeoutError{Phase: PhaseStreamIdle, Limit: idleLimit, Host: r.host()}
	case errors.Is(err, errReplyTooLarge):
		return nil, fmt.Errorf("the image reply from %s is larger than %s, more than parley reads; ask for fewer or smaller images", r.host(), bytesize.Format(maxImageReply))
	case errors.As(err, &syntax):
		return nil, fmt.Errorf("the gateway's image reply is not valid JSON (%w): check the base URL %s", err, c.baseStr)
	case errors.As(err, &read):
		return nil, fmt.Errorf("reading the reply from %s failed (%s): try again", r.host(), netReason(read.err))
	default:
		return nil, err
	}
	if reply.Data == nil {
		if eb, ok := parseJSONError(bytes.TrimSpace(head)); ok && len(head) < maxReplyHead {
			e := &APIError{StatusCode: 200, Status: "200 OK"}
			c.fill(e, eb)
			c.annotate(e, model)
			return nil, e
		}
	}
	return reply, nil
}

// ImageTooLargeError is a 413 reply to an image request. Its advice fits
// images: a chat's 413 is about attachments, an image request's about the
// size asked for, the number of images, or the pictures uploaded for an
// edit. errors.As still finds the *APIError.
type ImageTooLargeError struct {
	*APIError
	Edit bool
}

func (e *ImageTooLargeError) Error() string {
	var b strings.Builder
	b.WriteString("the gateway refused the request as too large (" + e.Status)
	if msg := oneLine(e.Message, 400); msg != "" {
		b.WriteString(": " + strings.TrimRight(msg, ". "))
	}
	b.WriteString(")")
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Edit {
		b.WriteString("; upload smaller images to edit, or ask for a smaller size or fewer images")
	} else {
		b.WriteString("; ask for a smaller size or fewer images")
	}
	return b.String()
}

func (e *ImageTooLargeError) Unwrap() error { return e.APIError }
