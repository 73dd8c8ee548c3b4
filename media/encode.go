package media

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
)

// Re-encoding rules for images parley makes smaller (Reencode):
//
//   - A JPEG stays a JPEG (quality 90).
//   - Anything else (PNG, GIF, WEBP — Go has no WEBP encoder) becomes a PNG,
//     unless the image is a "photo" and JPEG is "much smaller": photo means
//     fully opaque (no pixel with alpha below 255), much smaller means the
//     quality-90 JPEG is under half the size of the PNG. Screenshots and line
//     art compress well as PNG and fail the size test; transparent images keep
//     their transparency.
const (
	// JPEGQuality is the quality parley encodes JPEGs with.
	JPEGQuality = 90
	// jpegMuchSmaller: JPEG wins when len(jpeg)*jpegMuchSmaller < len(png).
	jpegMuchSmaller = 2
)

// Reencode encodes img, which came from a file in format src, by the rules
// above and returns the bytes and their format.
func Reencode(img image.Image, src Format) ([]byte, Format, error) {
	if src == JPEG {
		data, err := EncodeJPEG(img)
		return data, JPEG, err
	}
	pb, err := EncodePNG(img)
	if err != nil {
		return nil, "", err
	}
	if IsOpaque(img) {
		jb, err := EncodeJPEG(img)
		if err == nil && len(jb)*jpegMuchSmaller < len(pb) {
			return jb, JPEG, nil
		}
	}
	return pb, PNG, nil
}

// EncodeJPEG encodes img as a JPEG of quality JPEGQuality.
func EncodeJPEG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// EncodePNG encodes img as a PNG with Go's default compression.
func EncodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// IsOpaque reports whether every pixel of img is fully opaque.
func IsOpaque(img image.Image) bool {
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
