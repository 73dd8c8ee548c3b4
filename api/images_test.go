package api

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"

	"parley/api/apitest"
)

func TestGenerateImages(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	resp, err := c.GenerateImages(context.Background(), ImageRequest{Model: "dall-e-2", Prompt: "a fox", N: 2, Size: "256x256", ResponseFormat: "b64_json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Data) != 2 {
		t.Fatalf("%d images, want 2", len(resp.Data))
	}
	for _, d := range resp.Data {
		img, err := png.Decode(bytes.NewReader(d.File))
		if err != nil || img.Bounds().Dx() != 256 {
			t.Fatalf("image: %v %v", err, img.Bounds())
		}
	}
	// A refusal from the gateway (gpt-image-1 takes no response_format).
	_, err = c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "a fox", ResponseFormat: "b64_json"})
	if apiErr, ok := err.(*APIError); !ok || apiErr.StatusCode != 400 {
		t.Fatalf("err %v", err)
	}
}

func TestEditImages(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	pic := fixedPNG(t, png4x4)
	ctx := context.Background()

	// The edit path may be given with or without the /v1 the base ends in.
	for _, path := range []string{"", "/images/edits", "/v1/images/edits", "images/edits"} {
		resp, err := c.EditImages(ctx, EditRequest{Model: "gpt-image-1", Prompt: "brighter", Path: path,
			Images: []ImageFile{{Name: "one.png", Data: pic}, {Name: "two.png", Data: pic}}})
		if err != nil {
			t.Fatalf("path %q: %v", path, err)
		}
		if len(resp.Data) != 1 || resp.Data[0].File == nil {
			t.Fatalf("reply %+v", resp)
		}
		r, _ := gw.LastRequest()
		if r.Path != "/v1/images/edits" || r.Edit == nil || len(r.Edit.Images) != 2 || r.Edit.Images[0].Field != "image[]" {
			t.Fatalf("path %q: request %s %+v", path, r.Path, r.Edit)
		}
		if r.Edit.Mask != nil || r.Edit.Value("n") != "" || r.Edit.Value("size") != "" || r.Edit.Value("response_format") != "" {
			t.Fatalf("unset fields were sent: %v", r.Edit.Fields)
		}
	}
	// One image goes in a plain "image" field, with its media type.
	if _, err := c.EditImages(ctx, EditRequest{Model: "dall-e-2", Prompt: "x", Images: []ImageFile{{Data: pic}},
		Mask: &ImageFile{Data: fixedPNG(t, png4x4Mask)}, Size: "256x256"}); err != nil {
		t.Fatal(err)
	}
	r, _ := gw.LastRequest()
	if len(r.Edit.Images) != 1 || r.Edit.Images[0].Field != "image" || r.Edit.Images[0].ContentType != "image/png" ||
		r.Edit.Images[0].Filename != "image-1.png" || r.Edit.Mask == nil || !bytes.Equal(r.Edit.Images[0].Data, pic) {
		t.Fatalf("single image form %+v", r.Edit)
	}

	if _, err := c.EditImages(ctx, EditRequest{Model: "dall-e-2", Prompt: "x"}); err == nil || !strings.Contains(err.Error(), "at least one image") {
		t.Fatalf("no image: %v", err)
	}
	if _, err := c.EditImages(ctx, EditRequest{Model: "dall-e-2", Prompt: "x", Images: []ImageFile{{Name: "e.png"}}}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty file: %v", err)
	}
	if n := len(gw.Requests()); n != 5 {
		t.Fatalf("%d requests: refused edits must not be sent", n)
	}
}

func TestEditFileNameEscaping(t *testing.T) {
	body, ct, err := editBody(EditRequest{Model: "m", Prompt: "p", Images: []ImageFile{{Name: "a\"b\r\nX-Evil: 1.png", Data: []byte("\x89PNG\r\n\x1a\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(multipartGolden(t, ct, body))
	if !strings.Contains(got, `filename="a\"bX-Evil: 1.png"`) {
		t.Fatalf("file name not escaped:\n%s", got)
	}
}
