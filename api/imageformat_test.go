package api

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

func TestImageFormatDetectAndDescribe(t *testing.T) {
	img := lineArtImage(8, 8)
	cases := []struct {
		name string
		data []byte
		f    ImageFormat
		what string
	}{
		{"png", encodePNG(t, img), FormatPNG, "a PNG image"},
		{"jpeg", encodeJPEGTest(t, img, 80), FormatJPEG, "a JPEG image"},
		{"gif", encodeGIF(t, 1, 8, 8), FormatGIF, "a GIF image"},
		{"webp", solidWEBP(8, 8, color.NRGBA{1, 2, 3, 255}), FormatWEBP, "a WEBP image"},
		{"pdf", []byte("%PDF-1.4 ..."), "", "a PDF document"},
		{"zip", []byte("PK\x03\x04\x14\x00"), "", "a ZIP archive (or an office document)"},
		{"svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>`), "", "an SVG drawing (vector images cannot be sent; export it as PNG)"},
		{"html", []byte("<!DOCTYPE html><html>"), "", "an HTML page"},
		{"bmp", []byte("BM\x36\x00\x00\x00"), "", "a BMP image"},
		{"tiff", []byte("II*\x00\x08\x00"), "", "a TIFF image"},
		{"avif", append([]byte{0, 0, 0, 0x1c}, "ftypavif"...), "", "an AVIF image"},
		{"mp4", append([]byte{0, 0, 0, 0x1c}, "ftypisom"...), "", "an MP4 video"},
		{"utf8 text cut mid-rune", []byte("héllo wörld \xc3"), "", "text"},
		{"binary", []byte{0, 1, 2, 3, 0xff}, "", ""},
		{"riff but wav", []byte("RIFF\x00\x00\x00\x00WAVEfmt "), "", "a WAV audio file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DetectImageFormat(c.data); got != c.f {
				t.Errorf("DetectImageFormat = %q, want %q", got, c.f)
			}
			if got := DescribeContent(c.data); got != c.what {
				t.Errorf("DescribeContent = %q, want %q", got, c.what)
			}
		})
	}
	if FormatJPEG.Ext() != ".jpg" || FormatJPEG.MIME() != "image/jpeg" || FormatFromMIME("image/jpg") != FormatJPEG {
		t.Error("JPEG naming")
	}
}

func TestImageFormatGIFFrameCount(t *testing.T) {
	for _, frames := range []int{1, 2, 5} {
		n, err := gifFrameCount(encodeGIF(t, frames, 30, 20), 100)
		if err != nil || n != frames {
			t.Errorf("%d frames: counted %d, %v", frames, n, err)
		}
	}
	g := encodeGIF(t, 3, 30, 20)
	if n, _ := gifFrameCount(g, 2); n != 2 {
		t.Errorf("limit not honoured: %d", n)
	}
	if _, err := gifFrameCount(g[:len(g)/2], 100); err == nil {
		t.Error("a cut GIF gave no error")
	}
}

func TestCheckMask(t *testing.T) {
	photo := encodePNG(t, photoImage(64, 48))
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
		return encodePNG(t, m)
	}
	opaqueRGB := encodePNG(t, photoImage(64, 48)) // Go writes opaque images without alpha
	palTRNSOpaque := func() []byte {
		pal := color.Palette{color.NRGBA{0, 0, 0, 255}, color.NRGBA{0, 0, 0, 0}}
		return encodePNG(t, image.NewPaletted(image.Rect(0, 0, 64, 48), pal)) // all index 0: opaque
	}()
	palTRNSHole := func() []byte {
		pal := color.Palette{color.NRGBA{0, 0, 0, 255}, color.NRGBA{0, 0, 0, 0}}
		p := image.NewPaletted(image.Rect(0, 0, 64, 48), pal)
		p.SetColorIndex(3, 3, 1)
		return encodePNG(t, p)
	}()

	if err := CheckMask(photo, holed(64, 48)); err != nil {
		t.Errorf("good mask refused: %v", err)
	}
	if err := CheckMask(encodeJPEGTest(t, photoImage(64, 48), 80), holed(64, 48)); err != nil {
		t.Errorf("good mask for a JPEG image refused: %v", err)
	}
	if err := CheckMask(photo, palTRNSHole); err != nil {
		t.Errorf("paletted mask with tRNS refused: %v", err)
	}
	bad := []struct {
		name string
		mask []byte
		want string
	}{
		{"size", holed(32, 48), "the mask is 32x48 but the image is 64x48"},
		{"jpeg", encodeJPEGTest(t, photoImage(64, 48), 80), "must be a PNG"},
		{"no alpha", opaqueRGB, "no alpha channel"},
		{"opaque", palTRNSOpaque, "fully opaque"},
		{"not image", []byte("hello"), "must be a PNG"},
	}
	for _, c := range bad {
		err := CheckMask(photo, c.mask)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
