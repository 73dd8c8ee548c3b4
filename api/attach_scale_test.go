package api

import (
	"image"
	"testing"

	"golang.org/x/image/draw"
)

// The resampler must compute what x/image/draw's CatmullRom computes, within
// rounding (fixed point against float64), for every source type it reads.
func TestAttachScaleMatchesXImageCatmullRom(t *testing.T) {
	photo := photoImage(151, 103)
	jpg, _ := decodeImage(FormatJPEG, encodeJPEGTest(t, photo, 90))
	gifImg, _ := decodeImage(FormatGIF, encodeGIF(t, 1, 97, 61))
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
	srcs := map[string]image.Image{"rgba": photo, "ycbcr": jpg, "paletted": gifImg, "nrgba alpha": alpha, "gray": gray, "subimage": sub, "line art": lineArtImage(130, 130)}
	sizes := [][2]int{{75, 51}, {40, 31}, {150, 100}, {7, 5}, {1, 1}, {200, 9}}
	for name, src := range srcs {
		for _, sz := range sizes {
			got := resample(src, sz[0], sz[1])
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

func TestAttachScaleFlatStaysFlat(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 333, 111))
	for i := range img.Pix {
		img.Pix[i] = []uint8{200, 100, 50, 255}[i%4]
	}
	out := resample(img, 100, 33)
	for i, v := range out.Pix {
		if want := []uint8{200, 100, 50, 255}[i%4]; v != want {
			t.Fatalf("pixel byte %d = %d, want %d", i, v, want)
		}
	}
}

func BenchmarkAttachScale(b *testing.B) {
	src, _ := decodeImage(FormatJPEG, encodeJPEGTest(b, photoYCbCr(4000, 3000), 90))
	b.Run("parley", func(b *testing.B) {
		for b.Loop() {
			resample(src, 2048, 1536)
		}
	})
	b.Run("x-image-draw", func(b *testing.B) {
		for b.Loop() {
			dst := image.NewRGBA(image.Rect(0, 0, 2048, 1536))
			draw.CatmullRom.Scale(dst, dst.Rect, src, src.Bounds(), draw.Src, nil)
		}
	})
}

// BenchmarkAttachPhoto12MP is the whole attach of a 4000x3000 JPEG: decode,
// scale to 2048x1536, JPEG encode, Base64.
func BenchmarkAttachPhoto12MP(b *testing.B) {
	src := encodeJPEGTest(b, photoYCbCr(4000, 3000), 90)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := AttachBytes("photo.jpg", src, AttachLimits{}); err != nil {
			b.Fatal(err)
		}
	}
}
