package preview

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"parley/media"
	"parley/media/mediatest"
)

// referenceBox averages kx×ky blocks of premultiplied 8-bit pixels read
// through image.Image.At, the slow and obvious way.
func referenceBox(src image.Image, kx, ky int) *image.RGBA {
	b := src.Bounds()
	ow, oh := (b.Dx()+kx-1)/kx, (b.Dy()+ky-1)/ky
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for oy := range oh {
		for ox := range ow {
			var s [4]int
			n := 0
			for y := oy * ky; y < min(oy*ky+ky, b.Dy()); y++ {
				for x := ox * kx; x < min(ox*kx+kx, b.Dx()); x++ {
					r, g, bl, a := src.At(b.Min.X+x, b.Min.Y+y).RGBA()
					s[0] += int(r >> 8)
					s[1] += int(g >> 8)
					s[2] += int(bl >> 8)
					s[3] += int(a >> 8)
					n++
				}
			}
			i := dst.PixOffset(ox, oy)
			for c := range 4 {
				dst.Pix[i+c] = uint8((s[c] + n/2) / n)
			}
		}
	}
	return dst
}

// maxDiff is the largest channel difference between two images of one size.
func maxDiff(t *testing.T, a, b *image.RGBA) int {
	t.Helper()
	if a.Rect.Size() != b.Rect.Size() {
		t.Fatalf("sizes differ: %v and %v", a.Rect.Size(), b.Rect.Size())
	}
	worst := 0
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		worst = max(worst, d, -d)
	}
	return worst
}

// noisyNRGBA has every channel random, alpha included, so averaging has to
// premultiply to be right.
func noisyNRGBA(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(7, 8))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	return img
}

// Every pixel type the decoders return averages like the obvious
// implementation: exactly where both round the same 8-bit values, within
// the rounding of the conversions otherwise. The sizes leave partial
// blocks at the right and bottom edges.
func TestBoxReduceMatchesReference(t *testing.T) {
	photo := mediatest.Photo(103, 61)
	nrgba := noisyNRGBA(103, 61)
	premul := image.NewRGBA(nrgba.Rect)
	draw.Draw(premul, premul.Rect, nrgba, image.Point{}, draw.Src)
	gray := image.NewGray(photo.Rect)
	draw.Draw(gray, gray.Rect, photo, image.Point{}, draw.Src)
	pal := image.NewPaletted(photo.Rect, color.Palette{
		color.RGBA{0, 0, 0, 0}, color.RGBA{200, 10, 10, 255}, color.RGBA{60, 60, 60, 128}, color.White,
	})
	draw.Draw(pal, pal.Rect, photo, image.Point{}, draw.Src)
	ycc := map[string]image.YCbCrSubsampleRatio{
		"444": image.YCbCrSubsampleRatio444, "422": image.YCbCrSubsampleRatio422,
		"420": image.YCbCrSubsampleRatio420, "440": image.YCbCrSubsampleRatio440,
		"411": image.YCbCrSubsampleRatio411, "410": image.YCbCrSubsampleRatio410,
	}
	cases := []struct {
		name string
		img  image.Image
		tol  int
	}{
		{"RGBA", premul, 0},
		{"NRGBA", nrgba, 1},
		{"Gray", gray, 0},
		{"Paletted", pal, 0},
	}
	for name, ratio := range ycc {
		y := image.NewYCbCr(photo.Rect, ratio)
		fillYCbCr(y, photo)
		// Averaging before converting differs from converting before
		// averaging by rounding, and by the chroma samples a block edge
		// cuts through when it does not fall on a sample boundary.
		cases = append(cases, struct {
			name string
			img  image.Image
			tol  int
		}{"YCbCr" + name, y, 5})
	}
	for _, c := range cases {
		for _, k := range [][2]int{{2, 2}, {5, 3}, {7, 7}, {103, 1}, {1, 61}} {
			got, ok := boxReduce(c.img, k[0], k[1])
			if !ok {
				t.Fatalf("%s: not reduced", c.name)
			}
			want := referenceBox(c.img, k[0], k[1])
			if d := maxDiff(t, got, want); d > c.tol {
				t.Errorf("%s by %dx%d: differs by %d, more than %d", c.name, k[0], k[1], d, c.tol)
			}
		}
	}
}

// fillYCbCr converts src into y pixel by pixel, chroma from the top-left
// pixel of each sample, which is enough for a test image.
func fillYCbCr(y *image.YCbCr, src *image.RGBA) {
	b := src.Bounds()
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			c := src.RGBAAt(px, py)
			yy, cb, cr := color.RGBToYCbCr(c.R, c.G, c.B)
			y.Y[y.YOffset(px, py)] = yy
			ci := y.COffset(px, py)
			y.Cb[ci], y.Cr[ci] = cb, cr
		}
	}
}

// Types without a fast reader (16-bit, CMYK, images not at the origin) are
// left to media.Scale.
func TestBoxReduceDeclines(t *testing.T) {
	for _, img := range []image.Image{
		image.NewRGBA64(image.Rect(0, 0, 8, 8)),
		image.NewNRGBA64(image.Rect(0, 0, 8, 8)),
		image.NewCMYK(image.Rect(0, 0, 8, 8)),
		image.NewRGBA(image.Rect(1, 1, 8, 8)),
	} {
		if _, ok := boxReduce(img, 2, 2); ok {
			t.Errorf("%T at %v was reduced", img, img.Bounds())
		}
	}
}

// The box step before Catmull-Rom changes the picture by little: a large
// reduction matches media.Scale all the way to within a level and a half
// on average (0.1 for a photo, 0.8 for a screenshot's sharp text edges
// when this was written).
func TestScalePictureMatchesCatmullRom(t *testing.T) {
	for name, src := range map[string]*image.RGBA{
		"photo":      mediatest.Photo(1600, 1200),
		"screenshot": mediatest.Screenshot(1600, 1200),
	} {
		got := scalePicture(src, 80, 60)
		want := media.Scale(src, 80, 60)
		var sum, n int
		for i := range got.Pix {
			d := int(got.Pix[i]) - int(want.Pix[i])
			sum += max(d, -d)
			n++
		}
		mean := float64(sum) / float64(n)
		t.Logf("%s: mean %.3f", name, mean)
		if mean > 1.5 {
			t.Errorf("%s: mean difference %.2f levels from Catmull-Rom alone, more than 1.5", name, mean)
		}
	}
}

// The kept picture is turned the way the EXIF orientation says, so the
// preview stands as the photo is meant to be seen.
func TestThumbOrientation(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 40, 20)) // left half red, right half blue
	for y := range 20 {
		for x := range 40 {
			c := color.RGBA{255, 0, 0, 255}
			if x >= 20 {
				c = color.RGBA{0, 0, 255, 255}
			}
			src.SetRGBA(x, y, c)
		}
	}
	jpg := mediatest.WithEXIFOrientation(mediatest.JPEG(t, src, 95), 6)
	info, err := media.Inspect(jpg)
	if err != nil {
		t.Fatal(err)
	}
	// Orientation 6: turned 90° clockwise to be seen, so the red (left)
	// half ends up on top.
	th, err := makeThumb(context.Background(), jpg, info, 6, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	pic := th.pic
	if pic.Rect.Dx() != 20 || pic.Rect.Dy() != 40 || !th.full {
		t.Fatalf("size %v (full %v), want all of it, 20x40", pic.Rect.Size(), th.full)
	}
	if top, bottom := pic.RGBAAt(10, 3), pic.RGBAAt(10, 36); top.R < 200 || bottom.B < 200 {
		t.Errorf("top %v, bottom %v: want red above blue", top, bottom)
	}
}
