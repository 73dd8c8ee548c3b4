package media

import (
	"bytes"
	"image"
	"testing"

	"parley/media/mediatest"
)

func TestOrientation(t *testing.T) {
	jpg := mediatest.JPEG(t, mediatest.Photo(40, 20), 90)
	for o := uint16(1); o <= 8; o++ {
		if got := Orientation(mediatest.WithEXIFOrientation(jpg, o)); got != int(o) {
			t.Errorf("orientation %d read as %d", o, got)
		}
	}
	if got := Orientation(jpg); got != 1 {
		t.Errorf("without EXIF: %d, want 1", got)
	}
	if got := Orientation(mediatest.WithEXIFOrientation(jpg, 9)); got != 1 {
		t.Errorf("an invalid tag value: %d, want 1", got)
	}
	if got := Orientation(mediatest.PNG(t, mediatest.Photo(4, 4))); got != 1 {
		t.Errorf("a PNG: %d, want 1", got)
	}
	cut := mediatest.WithEXIFOrientation(jpg, 6)
	if got := Orientation(cut[:30]); got != 1 {
		t.Errorf("a cut EXIF block: %d, want 1", got)
	}
}

func TestOrientAllEight(t *testing.T) {
	// A 3x2 image with distinct pixels; each orientation must map it the way
	// the EXIF spec draws it.
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for i := range 6 {
		src.Pix[4*i] = uint8(i + 1)
		src.Pix[4*i+3] = 255
	}
	want := map[int][]uint8{ // row-major first channel of the result
		1: {1, 2, 3, 4, 5, 6},
		2: {3, 2, 1, 6, 5, 4},
		3: {6, 5, 4, 3, 2, 1},
		4: {4, 5, 6, 1, 2, 3},
		5: {1, 4, 2, 5, 3, 6},
		6: {4, 1, 5, 2, 6, 3},
		7: {6, 3, 5, 2, 4, 1},
		8: {3, 6, 2, 5, 1, 4},
	}
	for o, w := range want {
		out := Orient(src, o).(*image.RGBA)
		var got []uint8
		for i := 0; i < len(out.Pix); i += 4 {
			got = append(got, out.Pix[i])
		}
		if !bytes.Equal(got, w) {
			t.Errorf("orientation %d: got %v, want %v", o, got, w)
		}
	}
}
