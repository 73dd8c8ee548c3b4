package media

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"parley/media/mediatest"
)

func TestCheckMask(t *testing.T) {
	photo := mediatest.PNG(t, mediatest.Photo(64, 48))
	holed := func(w, h int) []byte {
		m := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := range m.Pix {
			m.Pix[i] = 255
		}
		for y := 10; y < 20; y++ {
			for x := 10; x < 20; x++ {
				m.SetNRGBA(x, y, color.NRGBA{0, 0, 0, 0})
			}
		}
		return mediatest.PNG(t, m)
	}
	opaqueRGB := mediatest.PNG(t, mediatest.Photo(64, 48)) // Go writes opaque images without alpha
	pal := color.Palette{color.NRGBA{0, 0, 0, 255}, color.NRGBA{0, 0, 0, 0}}
	palTRNSOpaque := mediatest.PNG(t, image.NewPaletted(image.Rect(0, 0, 64, 48), pal)) // all index 0: opaque
	hole := image.NewPaletted(image.Rect(0, 0, 64, 48), pal)
	hole.SetColorIndex(3, 3, 1)
	palTRNSHole := mediatest.PNG(t, hole)

	if err := CheckMask(photo, holed(64, 48)); err != nil {
		t.Errorf("good mask refused: %v", err)
	}
	if err := CheckMask(mediatest.JPEG(t, mediatest.Photo(64, 48), 80), holed(64, 48)); err != nil {
		t.Errorf("good mask for a JPEG image refused: %v", err)
	}
	if err := CheckMask(photo, palTRNSHole); err != nil {
		t.Errorf("paletted mask with tRNS refused: %v", err)
	}
	// A mask whose header claims 20000x20000 RGBA (1.6 GB decoded) is refused
	// from its header even when the image to edit claims the same size.
	bombImg := mediatest.ClaimPNG(t, 20000, 20000, 8, mediatest.RGB)
	bombMask := mediatest.ClaimPNG(t, 20000, 20000, 8, mediatest.RGBA)
	bad := []struct {
		name      string
		img, mask []byte
		want      string
	}{
		{"size", photo, holed(32, 48), "the mask is 32x48 but the image is 64x48"},
		{"jpeg", photo, mediatest.JPEG(t, mediatest.Photo(64, 48), 80), "must be a PNG"},
		{"no alpha", photo, opaqueRGB, "no alpha channel"},
		{"opaque", photo, palTRNSOpaque, "fully opaque"},
		{"not image", photo, []byte("hello"), "must be a PNG"},
		{"image not an image", []byte("%PDF-1.4"), holed(64, 48), "the image to edit is not a PNG"},
		{"bomb", bombImg, bombMask, "the mask is 20000x20000 pixels (1.6 GB decoded), more than parley decodes (256.0 MB); make it smaller"},
	}
	for _, c := range bad {
		var err error
		a := mediatest.Measure(func() { err = CheckMask(c.img, c.mask) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		if a.Total > 4<<20 {
			t.Errorf("%s: checking allocated %d bytes", c.name, a.Total)
		}
	}
}
