package media

import (
	"context"
	"image"
	"testing"

	"golang.org/x/image/draw"

	"parley/media/mediatest"
)

// The resampler must compute what x/image/draw's CatmullRom computes, within
// rounding (fixed point against float64), for every source type it reads.
func TestScaleMatchesXImageCatmullRom(t *testing.T) {
	photo := mediatest.Photo(151, 103)
	jpg, err := decodePixels(context.Background(), JPEG, mediatest.JPEG(t, photo, 90))
	if err != nil {
		t.Fatal(err)
	}
	gifImg, err := decodePixels(context.Background(), GIF, mediatest.GIF(t, 1, 97, 61))
	if err != nil {
		t.Fatal(err)
	}
	alpha := image.NewNRGBA(photo.Rect)
	copy(alpha.Pix, photo.Pix)
	for i := 3; i < len(alpha.Pix); i += 4 {
		alpha.Pix[i] = uint8(i / 4 % 256)
	}
	gray := image.NewGray(photo.Rect)
	for i := range gray.Pix {
		gray.Pix[i] = photo.Pix[4*i]
	}
	sub := photo.SubImage(image.Rect(17, 9, 140, 100))
	deep, deepAlpha, gray16 := image.NewRGBA64(photo.Rect), image.NewNRGBA64(photo.Rect), image.NewGray16(photo.Rect)
	for i := range len(photo.Pix) / 4 {
		for c := range 4 {
			v := uint16(photo.Pix[4*i+c])<<8 | uint16(i*7+c*13)&0xff
			if c == 3 {
				v = uint16(i * 977)
			}
			deep.Pix[8*i+2*c], deep.Pix[8*i+2*c+1] = uint8(v>>8), uint8(v)
			deepAlpha.Pix[8*i+2*c], deepAlpha.Pix[8*i+2*c+1] = uint8(v>>8), uint8(v)
		}
		// RGBA64 holds premultiplied colour: no channel above alpha.
		a := uint16(deep.Pix[8*i+6])<<8 | uint16(deep.Pix[8*i+7])
		for c := range 3 {
			v := min(uint16(deep.Pix[8*i+2*c])<<8|uint16(deep.Pix[8*i+2*c+1]), a)
			deep.Pix[8*i+2*c], deep.Pix[8*i+2*c+1] = uint8(v>>8), uint8(v)
		}
		gray16.Pix[2*i], gray16.Pix[2*i+1] = photo.Pix[4*i], uint8(i)
	}
	srcs := map[string]image.Image{"rgba": photo, "ycbcr": jpg, "paletted": gifImg, "nrgba alpha": alpha, "gray": gray, "subimage": sub, "line art": mediatest.LineArt(130, 130),
		"rgba64": deep, "nrgba64": deepAlpha, "gray16": gray16}
	sizes := [][2]int{{75, 51}, {40, 31}, {150, 100}, {7, 5}, {1, 1}, {200, 9}}
	for name, src := range srcs {
		for _, sz := range sizes {
			got := Scale(src, sz[0], sz[1])
			want := image.NewRGBA(got.Rect)
			draw.CatmullRom.Scale(want, want.Rect, src, src.Bounds(), draw.Src, nil)
			worst := 0
			for i := range got.Pix {
				d := int(got.Pix[i]) - int(want.Pix[i])
				worst = max(worst, d, -d)
			}
			if worst > 1 {
				t.Errorf("%s → %dx%d: differs from x/image by up to %d levels (want ≤ 1)", name, sz[0], sz[1], worst)
			}
		}
	}
}

func TestScaleFlatStaysFlat(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 333, 111))
	for i := range img.Pix {
		img.Pix[i] = []uint8{200, 100, 50, 255}[i%4]
	}
	out := Scale(img, 100, 33)
	for i, v := range out.Pix {
		if want := []uint8{200, 100, 50, 255}[i%4]; v != want {
			t.Fatalf("pixel byte %d = %d, want %d", i, v, want)
		}
	}
}

func TestFitWithin(t *testing.T) {
	cases := [][5]int{ // w, h, max, want w, want h
		{4000, 3000, 2048, 2048, 1536},
		{3000, 4000, 2048, 1536, 2048},
		{800, 600, 2048, 800, 600},
		{10000, 1, 100, 100, 1},
	}
	for _, c := range cases {
		if w, h := FitWithin(c[0], c[1], c[2]); w != c[3] || h != c[4] {
			t.Errorf("FitWithin(%d, %d, %d) = %dx%d, want %dx%d", c[0], c[1], c[2], w, h, c[3], c[4])
		}
	}
}

func BenchmarkScale(b *testing.B) {
	src, err := decodePixels(context.Background(), JPEG, mediatest.JPEG(b, mediatest.PhotoYCbCr(4000, 3000), 90))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parley", func(b *testing.B) {
		for b.Loop() {
			Scale(src, 2048, 1536)
		}
	})
	b.Run("x-image-draw", func(b *testing.B) {
		for b.Loop() {
			dst := image.NewRGBA(image.Rect(0, 0, 2048, 1536))
			draw.CatmullRom.Scale(dst, dst.Rect, src, src.Bounds(), draw.Src, nil)
		}
	})
}
