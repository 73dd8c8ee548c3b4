package preview_test

import (
	"context"
	"image"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"parley/api"
	"parley/api/apitest"
	"parley/imagegen"
	"parley/media/mediatest"
	"parley/ui/preview"
)

// TestGeneratedImageIsDecodedOnce: /image decoded each image twice, once
// to check it before saving (imagegen) and once more to show it. With the
// run handing its decoded pixels to the preview cache (Cache.Keep), the
// previews of the transcript (48×12 cells at most, half blocks or kitty)
// are made without decoding again. The decodes of the run and of the
// previews share the cache's budget.
func TestGeneratedImageIsDecodedOnce(t *testing.T) {
	photo := mediatest.JPEG(t, mediatest.PhotoYCbCr(1536, 1024), 90)
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Path: "/images/generations", Images: [][]byte{photo}})
	c, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey, UserAgent: "parley/test"})
	if err != nil {
		t.Fatal(err)
	}
	j, err := imagegen.Plan(api.NewCatalog(nil), imagegen.Request{Prompt: "a photo", Model: "gpt-image-1", Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	cache := preview.NewCache(0, 0)
	kept := 0
	res, err := imagegen.RunWith(context.Background(), c, j, time.Now(), imagegen.RunOptions{
		Budget: cache.Budget(),
		Decoded: func(data []byte, img image.Image) {
			kept++
			cache.Keep(preview.NewSource(data), img)
		},
	})
	if err != nil || len(res.Images) != 1 || kept != 1 {
		t.Fatalf("run: %v, %d images, %d kept", err, len(res.Images), kept)
	}
	// The previews are made from a source whose pixels cannot be decoded
	// (its image data is cut off; its header and its hash are the
	// image's): they can only come from the kept picture.
	src := preview.NewSource(res.Images[0].Data)
	cut := preview.Source{Data: src.Data[:len(src.Data)/2], Sum: src.Sum}
	for _, o := range []preview.Options{
		{Mode: preview.Blocks, Profile: colorprofile.TrueColor},
		{Mode: preview.Kitty, Profile: colorprofile.TrueColor},
	} {
		start := time.Now()
		r, err := cache.Render(cut, 48, 12, o)
		if err != nil || len(r.Lines) != 12 {
			t.Fatalf("mode %v: %v", o.Mode, err)
		}
		t.Logf("mode %v: made from the kept picture in %v", o.Mode, time.Since(start))
	}
	// Without the kept picture the same preview has to decode, and fails.
	if _, err := preview.NewCache(0, 0).Render(cut, 48, 12, preview.Options{Mode: preview.Blocks, Profile: colorprofile.TrueColor}); err == nil {
		t.Fatal("a cut-off image was previewed without a kept picture")
	}
}
