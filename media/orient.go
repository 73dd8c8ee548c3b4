package media

import (
	"bytes"
	"encoding/binary"
	"image"

	"golang.org/x/image/draw"
)

// Orientation returns the EXIF orientation (1–8) of a JPEG, or 1 when it
// has none, it cannot be read, or data is not a JPEG. 5–8 turn the image by
// 90°, so the picture people see is Height wide and Width tall.
func Orientation(data []byte) int {
	if Sniff(data) != JPEG {
		return 1
	}
	i := 2 // after SOI
	for i+4 <= len(data) {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			i += 2
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan / end: no EXIF after this
			return 1
		}
		size := int(binary.BigEndian.Uint16(data[i+2:]))
		if size < 2 || i+2+size > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+size]
		if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return exifOrientation(seg[6:])
		}
		i += 2 + size
	}
	return 1
}

// exifOrientation reads tag 0x0112 from IFD0 of a TIFF-structured EXIF block.
func exifOrientation(tiff []byte) int {
	if len(tiff) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	if bo.Uint16(tiff[2:]) != 42 {
		return 1
	}
	ifd := int(bo.Uint32(tiff[4:]))
	if ifd < 8 || ifd+2 > len(tiff) {
		return 1
	}
	n := int(bo.Uint16(tiff[ifd:]))
	for k := 0; k < n; k++ {
		e := ifd + 2 + 12*k
		if e+12 > len(tiff) {
			return 1
		}
		if bo.Uint16(tiff[e:]) != 0x0112 {
			continue
		}
		if bo.Uint16(tiff[e+2:]) != 3 { // SHORT
			return 1
		}
		if o := int(bo.Uint16(tiff[e+8:])); o >= 1 && o <= 8 {
			return o
		}
		return 1
	}
	return 1
}

// Orient applies an EXIF orientation (2–8) to img so the pixels stand the
// way the photo is meant to be seen; 1 (or anything else) returns img
// unchanged.
func Orient(img image.Image, o int) image.Image {
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
