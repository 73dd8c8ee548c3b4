package api

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"

	"golang.org/x/image/draw"
)

// Re-encoding rules for images parley has to shrink:
//
//   - A JPEG stays a JPEG (quality 90).
//   - Anything else (PNG, GIF, WEBP — Go has no WEBP encoder) becomes a PNG,
//     unless the image is a "photo" and JPEG is "much smaller": photo means
//     fully opaque (no pixel with alpha below 255), much smaller means the
//     quality-90 JPEG is under half the size of the PNG. Screenshots and line
//     art compress well as PNG and fail the size test; transparent images keep
//     their transparency.
const (
	attachJPEGQuality = 90
	// jpegMuchSmaller: JPEG wins when len(jpeg)*jpegMuchSmaller < len(png).
	jpegMuchSmaller = 2
	// shrinkAttempts bounds the scale-down loop for images that are still
	// over MaxBytes at MaxSide (each attempt shrinks by the size ratio).
	shrinkAttempts = 8
)

// shrink decodes a.Data and scales it to fit lim, re-encoding it by the rules
// above until it is within lim.MaxBytes.
func shrink(a Attachment, f ImageFormat, lim AttachLimits) (Attachment, error) {
	img, err := decodeImage(f, a.Data)
	if err != nil {
		return Attachment{}, fmt.Errorf("cannot attach %q: the %s image cannot be decoded (%w); the file may be damaged", a.Name, f.Name(), err)
	}
	orientation := 1
	if f == FormatJPEG {
		orientation = jpegOrientation(a.Data)
	}
	if orientation >= 5 { // rotated by 90°: report the size the user sees
		a.OrigWidth, a.OrigHeight = a.OrigHeight, a.OrigWidth
	}
	b := img.Bounds()
	w, h := fitWithin(b.Dx(), b.Dy(), lim.MaxSide)
	var lastSize int
	for range shrinkAttempts {
		out := img
		if w != b.Dx() || h != b.Dy() {
			out = scaleImage(img, w, h)
		}
		out = orient(out, orientation)
		data, of, err := encodeShrunk(out, f)
		if err != nil {
			return Attachment{}, fmt.Errorf("cannot attach %q: re-encoding the scaled image failed: %w", a.Name, err)
		}
		if int64(len(data)) <= lim.MaxBytes {
			ob := out.Bounds()
			a.Data, a.MIME, a.Bytes = data, of.MIME(), len(data)
			a.Width, a.Height = ob.Dx(), ob.Dy()
			a.Resized = true
			return a, nil
		}
		lastSize = len(data)
		ratio := math.Sqrt(float64(lim.MaxBytes)/float64(len(data))) * 0.9
		w, h = max(1, int(float64(w)*ratio)), max(1, int(float64(h)*ratio))
	}
	return Attachment{}, fmt.Errorf("cannot attach %q: even scaled down it stays over the %s limit (last try %s); raise attach_max_bytes or shrink it yourself",
		a.Name, FormatBytes(lim.MaxBytes), FormatBytes(int64(lastSize)))
}

// fitWithin scales w×h so its longer side is at most maxSide, keeping the
// aspect ratio (rounded, never below 1 px).
func fitWithin(w, h, maxSide int) (int, int) {
	long := max(w, h)
	if long <= maxSide {
		return w, h
	}
	s := float64(maxSide) / float64(long)
	nw := max(1, int(math.Round(float64(w)*s)))
	nh := max(1, int(math.Round(float64(h)*s)))
	if w >= h {
		nw = maxSide
	} else {
		nh = maxSide
	}
	return nw, nh
}

// scaleImage resamples src to w×h with the Catmull-Rom (bicubic) kernel,
// the filter golang.org/x/image/draw calls CatmullRom (see attach_scale.go
// for why parley has its own implementation of it).
func scaleImage(src image.Image, w, h int) *image.RGBA {
	return resample(src, w, h)
}

// encodeShrunk encodes img by the rules at the top of this file.
func encodeShrunk(img image.Image, src ImageFormat) ([]byte, ImageFormat, error) {
	if src == FormatJPEG {
		data, err := encodeJPEG(img)
		return data, FormatJPEG, err
	}
	var pb bytes.Buffer
	if err := png.Encode(&pb, img); err != nil {
		return nil, "", err
	}
	if isOpaque(img) {
		jb, err := encodeJPEG(img)
		if err == nil && len(jb)*jpegMuchSmaller < pb.Len() {
			return jb, FormatJPEG, nil
		}
	}
	return pb.Bytes(), FormatPNG, nil
}

func encodeJPEG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: attachJPEGQuality}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// isOpaque reports whether every pixel of img is fully opaque.
func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}

// orient applies an EXIF orientation (2–8) to img so the pixels stand the way
// the photo is meant to be seen; 1 (or anything else) returns img unchanged.
func orient(img image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return img
	}
	src, ok := img.(*image.RGBA)
	if !ok || src.Rect.Min != (image.Point{}) {
		src = image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
		draw.Draw(src, src.Rect, img, img.Bounds().Min, draw.Src)
	}
	W, H := src.Rect.Dx(), src.Rect.Dy()
	ow, oh := W, H
	if o >= 5 {
		ow, oh = H, W
	}
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	// from maps an output pixel to the source pixel it shows.
	from := func(x, y int) (int, int) {
		switch o {
		case 2:
			return W - 1 - x, y
		case 3:
			return W - 1 - x, H - 1 - y
		case 4:
			return x, H - 1 - y
		case 5:
			return y, x
		case 6:
			return y, H - 1 - x
		case 7:
			return W - 1 - y, H - 1 - x
		default: // 8
			return W - 1 - y, x
		}
	}
	for y := range oh {
		row := dst.Pix[y*dst.Stride:]
		for x := range ow {
			sx, sy := from(x, y)
			copy(row[4*x:4*x+4], src.Pix[sy*src.Stride+4*sx:])
		}
	}
	return dst
}
