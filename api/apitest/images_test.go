package apitest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"parley/api/apitest"
)

type imagesReply struct {
	Created int64 `json:"created"`
	Data    []struct {
		B64JSON string `json:"b64_json"`
		URL     string `json:"url"`
	} `json:"data"`
}

func parseImages(t *testing.T, r result) imagesReply {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var ir imagesReply
	if err := json.Unmarshal([]byte(r.body), &ir); err != nil {
		t.Fatalf("images reply %q: %v", r.body, err)
	}
	return ir
}

func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("b64_json is not base64: %v", err)
	}
	return b
}

func TestGenerateRealPNGs(t *testing.T) {
	gw := newGW(t)
	ir := parseImages(t, post(t, gw, "/images/generations",
		`{"model":"dall-e-2","prompt":"a cat","n":3,"size":"256x256","response_format":"b64_json"}`))
	if len(ir.Data) != 3 || ir.Created != created {
		t.Fatalf("got %d images, created %d; want 3 and %d", len(ir.Data), ir.Created, created)
	}
	seen := map[string]bool{}
	for _, d := range ir.Data {
		b := b64(t, d.B64JSON)
		format, cfg := decodeImage(t, b)
		if format != "png" || cfg.Width != 256 || cfg.Height != 256 {
			t.Errorf("image is %s %dx%d, want png 256x256", format, cfg.Width, cfg.Height)
		}
		seen[string(b)] = true
	}
	if len(seen) != 3 {
		t.Errorf("the %d images are not all different", len(ir.Data))
	}
	// A full decode checks every chunk CRC and the zlib checksum.
	img, err := png.Decode(bytes.NewReader(b64(t, ir.Data[0].B64JSON)))
	if err != nil {
		t.Fatalf("full decode: %v", err)
	}
	left, right := color.NRGBAModel.Convert(img.At(0, 200)).(color.NRGBA), color.NRGBAModel.Convert(img.At(255, 10)).(color.NRGBA)
	if left.R != 0 || left.G != 255 || right.R != 255 || right.G != 0 {
		t.Errorf("not a red-green gradient: left %v, right %v", left, right)
	}

	// gpt-image-1 takes no response_format and answers b64_json; "auto"
	// and a missing size give its first size.
	for _, body := range []string{
		`{"model":"gpt-image-1","prompt":"a cat","size":"auto"}`,
		`{"model":"gpt-image-1","prompt":"a cat"}`,
	} {
		ir := parseImages(t, post(t, gw, "/images/generations", body))
		if len(ir.Data) != 1 || ir.Data[0].URL != "" {
			t.Fatalf("%s: %+v", body, ir)
		}
		if _, cfg := decodeImage(t, b64(t, ir.Data[0].B64JSON)); cfg.Width != 1024 || cfg.Height != 1024 {
			t.Errorf("%s: %dx%d, want 1024x1024", body, cfg.Width, cfg.Height)
		}
	}
	ir = parseImages(t, post(t, gw, "/images/generations", `{"model":"gpt-image-1","prompt":"wide","size":"1536x1024"}`))
	if _, cfg := decodeImage(t, b64(t, ir.Data[0].B64JSON)); cfg.Width != 1536 || cfg.Height != 1024 {
		t.Errorf("1536x1024 request gave %dx%d", cfg.Width, cfg.Height)
	}
}

func TestGenerateURLsAreServed(t *testing.T) {
	gw := newGW(t)
	// dall-e models answer with URLs when response_format is left out, as OpenAI does.
	for _, body := range []string{
		`{"model":"dall-e-2","prompt":"a cat","size":"256x256"}`,
		`{"model":"dall-e-2","prompt":"a cat","size":"256x256","response_format":"url"}`,
	} {
		ir := parseImages(t, post(t, gw, "/images/generations", body))
		if len(ir.Data) != 1 || ir.Data[0].B64JSON != "" || !strings.HasPrefix(ir.Data[0].URL, gw.RootURL()+"/files/") {
			t.Fatalf("%s: want one URL under %s/files/, got %+v", body, gw.RootURL(), ir)
		}
		resp, err := http.Get(ir.Data[0].URL) // no key: like a public CDN URL
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("download: %s, %s", resp.Status, resp.Header.Get("Content-Type"))
		}
		if _, cfg := decodeImage(t, b); cfg.Width != 256 {
			t.Errorf("downloaded width %d", cfg.Width)
		}
	}
	if r := send(t, gw, http.MethodGet, "/../files/nope.png", "", nil); r.status != 404 {
		t.Errorf("unknown file: status %d", r.status)
	}
}

func TestGenerateScriptedImages(t *testing.T) {
	gw := newGW(t)
	jpg := encodeJPEG(t, 5, 3)
	gw.Enqueue(apitest.Reply{Images: [][]byte{jpg}},
		apitest.Reply{Images: [][]byte{jpg}, AsURL: true},
		apitest.Reply{Images: [][]byte{}})
	body := `{"model":"gpt-image-1","prompt":"x"}`
	ir := parseImages(t, post(t, gw, "/images/generations", body))
	if len(ir.Data) != 1 || !bytes.Equal(b64(t, ir.Data[0].B64JSON), jpg) {
		t.Fatal("scripted bytes not returned as b64_json")
	}
	ir = parseImages(t, post(t, gw, "/images/generations", body))
	if len(ir.Data) != 1 || !strings.HasSuffix(ir.Data[0].URL, ".jpg") {
		t.Fatalf("AsURL: %+v", ir)
	}
	resp, err := http.Get(ir.Data[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, jpg) || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("served %d bytes as %s", len(got), resp.Header.Get("Content-Type"))
	}
	if r := post(t, gw, "/images/generations", body); r.body != `{"created":1700000000,"data":[]}` {
		t.Errorf("empty Images: %s", r.body)
	}
}

func TestGenerateValidation(t *testing.T) {
	gw := newGW(t)
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"missing model", `{"prompt":"x"}`, 400, "missing_required_parameter"},
		{"missing prompt", `{"model":"dall-e-2"}`, 400, "missing_required_parameter"},
		{"empty prompt", `{"model":"dall-e-2","prompt":""}`, 400, "empty_string"},
		{"unknown model", `{"model":"dall-e-9","prompt":"x"}`, 404, "model_not_found"},
		{"chat model", `{"model":"gpt-4o","prompt":"x"}`, 400, "invalid_value"},
		{"size not offered", `{"model":"dall-e-2","prompt":"x","size":"1792x1024"}`, 400, "invalid_value"},
		{"auto on dall-e-3", `{"model":"dall-e-3","prompt":"x","size":"auto"}`, 400, "invalid_value"},
		{"n above max", `{"model":"dall-e-2","prompt":"x","n":11}`, 400, "integer_above_max_value"},
		{"n=2 on dall-e-3", `{"model":"dall-e-3","prompt":"x","n":2}`, 400, "integer_above_max_value"},
		{"n zero", `{"model":"dall-e-2","prompt":"x","n":0}`, 400, "integer_below_min_value"},
		{"n decimal", `{"model":"dall-e-2","prompt":"x","n":1.5}`, 400, "invalid_type"},
		{"n string", `{"model":"dall-e-2","prompt":"x","n":"2"}`, 400, "invalid_type"},
		{"response_format to gpt-image-1", `{"model":"gpt-image-1","prompt":"x","response_format":"b64_json"}`, 400, "unknown_parameter"},
		{"bad response_format", `{"model":"dall-e-2","prompt":"x","response_format":"png"}`, 400, "invalid_value"},
		{"unknown member", `{"model":"dall-e-2","prompt":"x","colour":"red"}`, 400, "unknown_parameter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, post(t, gw, "/images/generations", c.body), c.status, c.code)
		})
	}
	wantError(t, send(t, gw, http.MethodPost, "/images/generations", `{"model":"dall-e-2","prompt":"x"}`,
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"}), 400, "")
}

// part is one multipart part for editForm.
type part struct {
	field, filename, contentType string
	data                         []byte
}

func editForm(t *testing.T, parts ...part) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		if p.filename != "" {
			h.Set("Content-Disposition", `form-data; name="`+p.field+`"; filename="`+p.filename+`"`)
			h.Set("Content-Type", p.contentType)
		} else {
			h.Set("Content-Disposition", `form-data; name="`+p.field+`"`)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p.data)
	}
	mw.Close()
	return b.String(), mw.FormDataContentType()
}

func sendEdit(t *testing.T, gw *apitest.Server, parts ...part) result {
	t.Helper()
	body, ct := editForm(t, parts...)
	return send(t, gw, http.MethodPost, "/images/edits", body, map[string]string{"Content-Type": ct})
}

func field(name, value string) part { return part{field: name, data: []byte(value)} }

func TestEditParsesAndAnswers(t *testing.T) {
	gw := newGW(t)
	img := encodePNG(t, 40, 30)
	mask := encodePNG(t, 40, 30)
	r := sendEdit(t, gw,
		field("model", "gpt-image-1"), field("prompt", "add a hat"), field("n", "2"),
		part{"image", "cat.png", "image/png", img},
		part{"mask", "mask.png", "image/png", mask})
	ir := parseImages(t, r)
	if len(ir.Data) != 2 {
		t.Fatalf("got %d images, want 2", len(ir.Data))
	}
	if _, cfg := decodeImage(t, b64(t, ir.Data[0].B64JSON)); cfg.Width != 40 || cfg.Height != 30 {
		t.Errorf("without a size the edit has the input's size; got %dx%d", cfg.Width, cfg.Height)
	}

	req, _ := gw.LastRequest()
	e := req.Edit
	if e == nil {
		t.Fatal("the edit form was not parsed into the log")
	}
	if e.Model != "gpt-image-1" || e.Prompt != "add a hat" || e.N != 2 || e.Value("n") != "2" {
		t.Errorf("fields: %+v", e.Fields)
	}
	if len(e.Images) != 1 || e.Images[0].Filename != "cat.png" || e.Images[0].ContentType != "image/png" || !bytes.Equal(e.Images[0].Data, img) {
		t.Errorf("image part: %+v", e.Images)
	}
	if e.Mask == nil || e.Mask.Field != "mask" || !bytes.Equal(e.Mask.Data, mask) || len(e.Files) != 2 {
		t.Errorf("mask part: %+v, files %d", e.Mask, len(e.Files))
	}
	if req.JSON != nil || req.Chat != nil || req.Image != nil {
		t.Error("a multipart body has no JSON decodes")
	}

	// Several images as image[], with an explicit size.
	r = sendEdit(t, gw, field("model", "gpt-image-1"), field("prompt", "merge"), field("size", "1024x1536"),
		part{"image[]", "a.png", "image/png", img}, part{"image[]", "b.jpg", "image/jpeg", encodeJPEG(t, 8, 8)})
	ir = parseImages(t, r)
	if _, cfg := decodeImage(t, b64(t, ir.Data[0].B64JSON)); cfg.Width != 1024 || cfg.Height != 1536 {
		t.Errorf("size 1024x1536 gave %dx%d", cfg.Width, cfg.Height)
	}
	if req, _ := gw.LastRequest(); len(req.Edit.Images) != 2 || req.Edit.Images[1].Field != "image[]" {
		t.Errorf("image[] parts: %+v", req.Edit.Images)
	}
}

func TestEditValidation(t *testing.T) {
	gw := newGW(t)
	img := encodePNG(t, 16, 16)
	good := []part{field("model", "dall-e-2"), field("prompt", "p"), part{"image", "a.png", "image/png", img}}
	with := func(extra ...part) []part { return append(append([]part{}, good...), extra...) }
	cases := []struct {
		name   string
		parts  []part
		status int
		code   string
	}{
		{"missing model", []part{field("prompt", "p"), part{"image", "a.png", "image/png", img}}, 400, "missing_required_parameter"},
		{"missing prompt", []part{field("model", "dall-e-2"), part{"image", "a.png", "image/png", img}}, 400, "missing_required_parameter"},
		{"missing image", []part{field("model", "dall-e-2"), field("prompt", "p")}, 400, "missing_required_parameter"},
		{"unknown model", []part{field("model", "nope"), field("prompt", "p"), part{"image", "a.png", "image/png", img}}, 404, "model_not_found"},
		{"model without edit", []part{field("model", "dall-e-3"), field("prompt", "p"), part{"image", "a.png", "image/png", img}}, 400, "invalid_value"},
		{"two images for dall-e-2", with(part{"image", "b.png", "image/png", img}), 400, "invalid_value"},
		{"octet-stream", []part{field("model", "dall-e-2"), field("prompt", "p"), part{"image", "a.png", "application/octet-stream", img}}, 400, "invalid_image_format"},
		{"declared jpeg, bytes png", []part{field("model", "dall-e-2"), field("prompt", "p"), part{"image", "a.jpg", "image/jpeg", img}}, 400, "invalid_image_format"},
		{"image as text", []part{field("model", "dall-e-2"), field("prompt", "p"), field("image", "abc")}, 400, "invalid_type"},
		{"prompt as file", []part{field("model", "dall-e-2"), part{"prompt", "p.txt", "text/plain", []byte("p")}, part{"image", "a.png", "image/png", img}}, 400, "invalid_type"},
		{"mask of another size", with(part{"mask", "m.png", "image/png", encodePNG(t, 8, 16)}), 400, "invalid_mask"},
		{"jpeg mask", with(part{"mask", "m.jpg", "image/jpeg", encodeJPEG(t, 16, 16)}), 400, "invalid_image_format"},
		{"bad size", with(field("size", "1536x1024")), 400, "invalid_value"},
		{"n not a number", with(field("n", "two")), 400, "invalid_type"},
		{"n above max", with(field("n", "11")), 400, "integer_above_max_value"},
		{"unknown field", with(field("colour", "red")), 400, "unknown_parameter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, sendEdit(t, gw, c.parts...), c.status, c.code)
		})
	}
	rf := []part{field("model", "gpt-image-1"), field("prompt", "p"), field("response_format", "b64_json"), part{"image", "a.png", "image/png", img}}
	wantError(t, sendEdit(t, gw, rf...), 400, "unknown_parameter")
	wantError(t, post(t, gw, "/images/edits", `{"model":"dall-e-2","prompt":"p"}`), 400, "")
	if r := sendEdit(t, gw, with(field("size", "256x256"), field("response_format", "b64_json"))...); r.status != 200 {
		t.Errorf("a valid dall-e-2 edit: status %d %s", r.status, r.body)
	}
}

func TestModelsEndpoint(t *testing.T) {
	gw := newGW(t)
	r := send(t, gw, http.MethodGet, "/models", "", nil)
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID     string `json:"id"`
			Object string `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.body), &list); err != nil || r.status != 200 || list.Object != "list" {
		t.Fatalf("status %d body %s err %v", r.status, r.body, err)
	}
	var ids []string
	for _, d := range list.Data {
		if d.Object != "model" {
			t.Errorf("object %q", d.Object)
		}
		ids = append(ids, d.ID)
	}
	if got := strings.Join(ids, ","); got != "gpt-4o,gpt-4o-mini,llama3,llava,dall-e-2,dall-e-3,gpt-image-1" {
		t.Errorf("default ids: %s", got)
	}
	if r := send(t, gw, http.MethodGet, "/models/llava", "", nil); !strings.Contains(r.body, `"id":"llava"`) {
		t.Errorf("GET /models/llava: %s", r.body)
	}
	wantError(t, send(t, gw, http.MethodGet, "/models/nope", "", nil), 404, "model_not_found")

	custom := newGW(t, apitest.WithModels(apitest.ModelSpec{ID: "my-model", Vision: true}))
	if r := send(t, custom, http.MethodGet, "/models", "", nil); r.body != `{"object":"list","data":[{"id":"my-model","object":"model","created":1700000000,"owned_by":"apitest"}]}` {
		t.Errorf("custom list: %s", r.body)
	}
	wantError(t, post(t, custom, "/chat/completions", chatJSON("gpt-4o", "x", false, false)), 404, "model_not_found")
	if r := post(t, custom, "/chat/completions", chatWithImage("my-model", "https://example.com/x.png")); r.status != 200 {
		t.Errorf("custom vision model: %d %s", r.status, r.body)
	}
}
