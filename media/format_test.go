package media

import (
	"image/color"
	"testing"

	"parley/media/mediatest"
)

func TestSniffAndDescribe(t *testing.T) {
	img := mediatest.LineArt(8, 8)
	cases := []struct {
		name string
		data []byte
		f    Format
		what string
	}{
		{"png", mediatest.PNG(t, img), PNG, "a PNG image"},
		{"jpeg", mediatest.JPEG(t, img, 80), JPEG, "a JPEG image"},
		{"gif", mediatest.GIF(t, 1, 8, 8), GIF, "a GIF image"},
		{"webp", mediatest.SolidWEBP(8, 8, color.NRGBA{1, 2, 3, 255}), WEBP, "a WEBP image"},
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
			if got := Sniff(c.data); got != c.f {
				t.Errorf("Sniff = %q, want %q", got, c.f)
			}
			if got := DescribeContent(c.data); got != c.what {
				t.Errorf("DescribeContent = %q, want %q", got, c.what)
			}
		})
	}
	if JPEG.Ext() != ".jpg" || JPEG.MIME() != "image/jpeg" || FormatFromMIME("image/jpg") != JPEG || WEBP.Name() != "WEBP" {
		t.Error("JPEG naming")
	}
	if Format("").MIME() != "" || Format("").Ext() != "" || FormatFromMIME("image/bmp") != "" {
		t.Error("the empty format must name nothing")
	}
}

func TestGIFFrames(t *testing.T) {
	for _, frames := range []int{1, 2, 5} {
		n, err := GIFFrames(mediatest.GIF(t, frames, 30, 20), 100)
		if err != nil || n != frames {
			t.Errorf("%d frames: counted %d, %v", frames, n, err)
		}
	}
	g := mediatest.GIF(t, 3, 30, 20)
	if n, _ := GIFFrames(g, 2); n != 2 {
		t.Errorf("limit not honoured: %d", n)
	}
	if _, err := GIFFrames(g[:len(g)/2], 100); err == nil {
		t.Error("a cut GIF gave no error")
	}
	if _, err := GIFFrames(g[:5], 100); err == nil {
		t.Error("a cut GIF header gave no error")
	}
}
