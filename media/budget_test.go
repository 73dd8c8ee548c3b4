package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"parley/media/mediatest"
)

// TestDecodeRefusesBombsFromTheHeader: images whose headers claim more
// than the budget are refused before a single pixel buffer is allocated,
// with one sentence that says how big they are. The bombs are real files:
// the PNGs inflate to every pixel they claim, the WEBP is a valid 16383x16383
// lossless image of a few dozen bytes.
func TestDecodeRefusesBombsFromTheHeader(t *testing.T) {
	gifBomb := mediatest.GIF(t, 1, 4, 4)
	gifBomb[6], gifBomb[7], gifBomb[8], gifBomb[9] = 0xFF, 0xFF, 0xFF, 0xFF // logical screen 65535x65535
	jpegBomb := mediatest.FlatJPEG(64, 64, mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr420(), JFIF: true, Adobe: -1})
	if i := bytes.Index(jpegBomb, []byte{0xFF, 0xC0}); i < 0 {
		t.Fatal("no SOF0")
	} else {
		copy(jpegBomb[i+5:], []byte{0xFF, 0xF0, 0xFF, 0xF0}) // 65520x65520
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"png claiming 100000x100000", mediatest.ClaimPNG(t, 100000, 100000, 8, mediatest.RGBA),
			"the image is 100000x100000 pixels (40.0 GB decoded), more than parley decodes (256.0 MB)"},
		{"png 20000x20000", mediatest.ZeroPNG(t, 20000, 20000, 8, mediatest.Gray, false, false),
			"the image is 20000x20000 pixels (400.3 MB decoded), more than parley decodes (256.0 MB)"},
		{"png 10000x10000 16-bit", mediatest.ZeroPNG(t, 10000, 10000, 16, mediatest.RGBA, false, false),
			"the image is 10000x10000 pixels (800.2 MB decoded), more than parley decodes (256.0 MB)"},
		{"gif 65535x65535", gifBomb, "the image is 65535x65535 pixels (8.6 GB decoded)"},
		{"jpeg 65520x65520", jpegBomb, "the image is 65520x65520 pixels (6.4 GB decoded)"},
		{"webp 16383x16383", mediatest.SolidWEBP(16383, 16383, color.NRGBA{1, 2, 3, 255}), "the image is 16383x16383 pixels (2.1 GB decoded)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			a := mediatest.Measure(func() { _, _, _, err = Decode(context.Background(), c.data, nil) })
			var be *BudgetError
			if !errors.As(err, &be) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("Decode: %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("not one line: %q", err)
			}
			// The file itself was made before; refusing it allocates almost
			// nothing (the header decoders' small buffers).
			if a.Total > 1<<20 {
				t.Errorf("refusing a %d-byte file allocated %d bytes", len(c.data), a.Total)
			}
			t.Logf("%d-byte file, refused after %d bytes allocated", len(c.data), a.Total)
		})
	}
}

// TestZeroPNGDecodes: the bomb builder makes real PNGs, which image/png
// decodes to exactly the size they claim, in every layout.
func TestZeroPNGDecodes(t *testing.T) {
	for _, c := range []struct {
		depth, ct  byte
		interlaced bool
	}{{1, mediatest.Gray, false}, {8, mediatest.Gray, true}, {16, mediatest.RGB, false}, {8, mediatest.Paletted, true}, {16, mediatest.RGBA, true}} {
		data := mediatest.ZeroPNG(t, 301, 203, c.depth, c.ct, c.interlaced, false)
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if b := img.Bounds(); b.Dx() != 301 || b.Dy() != 203 {
			t.Fatalf("%+v: decoded %v", c, b)
		}
	}
}

// TestDecodedBoundsAllocation: Info.Decoded, which the budget is checked
// against, is at least what decoding really allocates, and not wildly more,
// for every layout each decoder has.
func TestDecodedBoundsAllocation(t *testing.T) {
	w, h := 2400, 1600
	if raceDetector {
		w, h = 1200, 800 // a quarter of the work; the 1 MiB slack still leaves the bounds meaningful
	}
	type tc struct {
		name string
		data []byte
	}
	var cases []tc
	for _, p := range []struct {
		depth, ct        byte
		interlaced, trns bool
	}{
		{1, mediatest.Gray, false, false}, {8, mediatest.Gray, false, false}, {8, mediatest.Gray, false, true},
		{16, mediatest.Gray, false, false}, {16, mediatest.Gray, false, true},
		{8, mediatest.RGB, false, false}, {8, mediatest.RGB, false, true}, {16, mediatest.RGB, false, false},
		{8, mediatest.Paletted, false, false}, {8, mediatest.GrayAlpha, false, false}, {16, mediatest.GrayAlpha, false, false},
		{8, mediatest.RGBA, false, false}, {16, mediatest.RGBA, false, false}, {8, mediatest.RGBA, true, false}, {16, mediatest.RGB, true, false},
	} {
		cases = append(cases, tc{fmt.Sprintf("png %d-bit type %d interlaced=%v trns=%v", p.depth, p.ct, p.interlaced, p.trns),
			mediatest.ZeroPNG(t, w, h, p.depth, p.ct, p.interlaced, p.trns)})
	}
	for _, j := range []struct {
		name string
		o    mediatest.FlatJPEGOptions
	}{
		{"jpeg 4:2:0", mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr420(), JFIF: true, Adobe: -1}},
		{"jpeg 4:2:0 progressive", mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr420(), JFIF: true, Adobe: -1, Progressive: true}},
		{"jpeg 4:4:4 progressive", mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr444(), JFIF: true, Adobe: -1, Progressive: true}},
		{"jpeg grey", mediatest.FlatJPEGOptions{Comps: mediatest.GrayComp(), Adobe: -1}},
		{"jpeg grey progressive", mediatest.FlatJPEGOptions{Comps: mediatest.GrayComp(), Adobe: -1, Progressive: true}},
		{"jpeg RGB (Adobe)", mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr444(), Adobe: 0}},
		{"jpeg RGB (component ids)", mediatest.FlatJPEGOptions{Comps: mediatest.RGBComps(), Adobe: -1}},
		{"jpeg CMYK", mediatest.FlatJPEGOptions{Comps: mediatest.CMYK(), Adobe: 0}},
		{"jpeg CMYK progressive", mediatest.FlatJPEGOptions{Comps: mediatest.CMYK(), Adobe: 2, Progressive: true}},
	} {
		cases = append(cases, tc{j.name, mediatest.FlatJPEG(w, h, j.o)})
	}
	cases = append(cases,
		tc{"jpeg from Go's encoder", mediatest.JPEG(t, mediatest.PhotoYCbCr(w, h), 90)},
		tc{"gif", mediatest.GIF(t, 1, w, h)},
		tc{"webp lossless", mediatest.SolidWEBP(w, h, color.NRGBA{9, 8, 7, 255})},
		tc{"webp lossless with alpha", mediatest.SolidWEBP(w, h, color.NRGBA{9, 8, 7, 100})},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := Inspect(c.data)
			if err != nil {
				t.Fatal(err)
			}
			var derr error
			a := mediatest.Measure(func() {
				var release func()
				_, _, release, derr = Decode(context.Background(), c.data, nil)
				release()
			})
			if derr != nil {
				t.Fatal(derr)
			}
			const slack = 1 << 20 // decoder state: Huffman tables, the inflate window, bufio
			if a.Total > uint64(info.Decoded)+slack {
				t.Errorf("decoding allocated %d bytes, more than Decoded = %d", a.Total, info.Decoded)
			}
			if uint64(info.Decoded) > 3*a.Total+slack {
				t.Errorf("Decoded = %d is far above the %d bytes decoding allocated: the budget would refuse images it could take", info.Decoded, a.Total)
			}
			t.Logf("Decoded %d, allocated %d", info.Decoded, a.Total)
		})
	}
}
