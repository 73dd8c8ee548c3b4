package api

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"unicode/utf8"

	"golang.org/x/image/webp"
)

// ImageFormat is an image file format parley can send and save, named by its
// content, never by a file name.
type ImageFormat string

// The formats gateways accept as image input (and may return from generation).
const (
	FormatPNG  ImageFormat = "png"
	FormatJPEG ImageFormat = "jpeg"
	FormatGIF  ImageFormat = "gif"
	FormatWEBP ImageFormat = "webp"
)

// DetectImageFormat names the format of data from its leading bytes, or ""
// when it is none of PNG, JPEG, GIF and WEBP.
func DetectImageFormat(data []byte) ImageFormat {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return FormatPNG
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return FormatJPEG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return FormatGIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return FormatWEBP
	}
	return ""
}

// MIME is the media type used in data URIs ("image/png").
func (f ImageFormat) MIME() string {
	if f == "" {
		return ""
	}
	return "image/" + string(f)
}

// Ext is the usual file extension with its dot (".png", ".jpg").
func (f ImageFormat) Ext() string {
	switch f {
	case FormatJPEG:
		return ".jpg"
	case "":
		return ""
	}
	return "." + string(f)
}

// Name is the format as people write it ("PNG", "JPEG").
func (f ImageFormat) Name() string {
	switch f {
	case FormatPNG:
		return "PNG"
	case FormatJPEG:
		return "JPEG"
	case FormatGIF:
		return "GIF"
	case FormatWEBP:
		return "WEBP"
	}
	return string(f)
}

// FormatFromMIME maps a media type such as "image/jpeg" or "image/jpg" to its
// format, or "" when parley cannot send it.
func FormatFromMIME(mime string) ImageFormat {
	switch mime {
	case "image/png":
		return FormatPNG
	case "image/jpeg", "image/jpg", "image/pjpeg":
		return FormatJPEG
	case "image/gif":
		return FormatGIF
	case "image/webp":
		return FormatWEBP
	}
	return ""
}

// DescribeContent says in a few words what data looks like when it is not an
// image parley can send ("a PDF document", "a HEIC image", "text"), or "" when
// nothing obvious can be said. It exists so refusals can be specific.
func DescribeContent(data []byte) string {
	if f := DetectImageFormat(data); f != "" {
		return "a " + f.Name() + " image"
	}
	if len(data) == 0 {
		return "an empty file"
	}
	if len(data) >= 12 && string(data[4:8]) == "ftyp" {
		switch string(data[8:12]) {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
			return "a HEIC image"
		case "avif", "avis":
			return "an AVIF image"
		case "qt  ":
			return "a QuickTime video"
		}
		return "an MP4 video"
	}
	prefixes := []struct{ magic, what string }{
		{"%PDF-", "a PDF document"},
		{"PK\x03\x04", "a ZIP archive (or an office document)"},
		{"\x1f\x8b", "a gzip archive"},
		{"BM", "a BMP image"},
		{"II*\x00", "a TIFF image"},
		{"MM\x00*", "a TIFF image"},
		{"\x00\x00\x01\x00", "an icon file"},
		{"8BPS", "a Photoshop document"},
		{"\x7fELF", "a program"},
		{"OggS", "an Ogg audio file"},
		{"ID3", "an MP3 audio file"},
		{"fLaC", "a FLAC audio file"},
		{"\x1aE\xdf\xa3", "a Matroska/WebM video"},
		{"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"},
		{"SQLite format 3\x00", "an SQLite database"},
	}
	for _, p := range prefixes {
		if bytes.HasPrefix(data, []byte(p.magic)) {
			return p.what
		}
	}
	if len(data) >= 12 && string(data[:4]) == "RIFF" {
		switch string(data[8:12]) {
		case "WAVE":
			return "a WAV audio file"
		case "AVI ":
			return "an AVI video"
		}
	}
	head := data[:min(len(data), 512)]
	if looksLikeText(head) {
		low := bytes.ToLower(bytes.TrimLeft(head, " \t\r\n\ufeff"))
		switch {
		case bytes.Contains(low, []byte("<svg")):
			return "an SVG drawing (vector images cannot be sent; export it as PNG)"
		case bytes.HasPrefix(low, []byte("<!doctype html")), bytes.HasPrefix(low, []byte("<html")):
			return "an HTML page"
		case bytes.HasPrefix(low, []byte("{")), bytes.HasPrefix(low, []byte("[")):
			return "JSON text"
		}
		return "text"
	}
	return ""
}

// looksLikeText reports whether b is valid UTF-8 without NUL bytes, allowing a
// multi-byte character cut at the end of the sample.
func looksLikeText(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		b = b[size:]
	}
	return true
}

// decodeImageConfig reads the dimensions of data in format f without decoding
// the pixels.
func decodeImageConfig(f ImageFormat, data []byte) (image.Config, error) {
	r := bytes.NewReader(data)
	switch f {
	case FormatPNG:
		return png.DecodeConfig(r)
	case FormatJPEG:
		return jpeg.DecodeConfig(r)
	case FormatGIF:
		return gif.DecodeConfig(r)
	case FormatWEBP:
		return webp.DecodeConfig(r)
	}
	return image.Config{}, fmt.Errorf("unsupported image format %q", f)
}

// decodeImage decodes the pixels of data in format f (the first frame of a GIF).
func decodeImage(f ImageFormat, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch f {
	case FormatPNG:
		return png.Decode(r)
	case FormatJPEG:
		return jpeg.Decode(r)
	case FormatGIF:
		return gif.Decode(r)
	case FormatWEBP:
		return webp.Decode(r)
	}
	return nil, fmt.Errorf("unsupported image format %q", f)
}

// gifFrameCount counts the image descriptors of a GIF by walking its block
// structure, without decoding any pixels; it stops counting at limit. A
// malformed stream returns the frames seen so far and an error.
func gifFrameCount(data []byte, limit int) (int, error) {
	const header = 13 // signature, version, logical screen descriptor
	if len(data) < header {
		return 0, fmt.Errorf("GIF header is cut short")
	}
	i := header
	if flags := data[10]; flags&0x80 != 0 {
		i += 3 << ((flags & 7) + 1)
	}
	// skipSubBlocks moves i past a chain of length-prefixed sub-blocks.
	skipSubBlocks := func() error {
		for {
			if i >= len(data) {
				return fmt.Errorf("GIF data is cut short")
			}
			n := int(data[i])
			i++
			if n == 0 {
				return nil
			}
			i += n
		}
	}
	frames := 0
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: label, then sub-blocks
			i += 2
			if err := skipSubBlocks(); err != nil {
				return frames, err
			}
		case 0x2C: // image descriptor
			frames++
			if frames >= limit {
				return frames, nil
			}
			if i+10 > len(data) {
				return frames, fmt.Errorf("GIF image descriptor is cut short")
			}
			flags := data[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << ((flags & 7) + 1)
			}
			i++ // LZW minimum code size
			if err := skipSubBlocks(); err != nil {
				return frames, err
			}
		case 0x3B: // trailer
			return frames, nil
		default:
			return frames, fmt.Errorf("unexpected GIF block 0x%02x", data[i])
		}
	}
	return frames, nil
}

// jpegOrientation returns the EXIF orientation (1–8) of a JPEG, or 1 when it
// has none or it cannot be read.
func jpegOrientation(data []byte) int {
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

// CheckMask checks an edit mask before it is uploaded: it must be a PNG with
// the same dimensions as the (first) image, it must have an alpha channel
// (color type with alpha, or a tRNS chunk), and at least one pixel must be
// transparent, since transparent areas mark what the model may change.
func CheckMask(img, mask []byte) error {
	mf := DetectImageFormat(mask)
	if mf != FormatPNG {
		what := DescribeContent(mask)
		if what == "" {
			what = "not an image"
		}
		return fmt.Errorf("the mask must be a PNG with transparency, but it is %s; export it as PNG with an alpha channel", what)
	}
	mc, err := png.DecodeConfig(bytes.NewReader(mask))
	if err != nil {
		return fmt.Errorf("the mask PNG cannot be read (%w); the file may be damaged", err)
	}
	f := DetectImageFormat(img)
	if f == "" {
		return errors.New("the image to edit is not a PNG, JPEG, WEBP or GIF image")
	}
	ic, err := decodeImageConfig(f, img)
	if err != nil {
		return fmt.Errorf("the image to edit cannot be read (%w); the file may be damaged", err)
	}
	if mc.Width != ic.Width || mc.Height != ic.Height {
		return fmt.Errorf("the mask is %dx%d but the image is %dx%d; make the mask the same size as the image",
			mc.Width, mc.Height, ic.Width, ic.Height)
	}
	if !pngHasAlpha(mask) {
		return errors.New("the mask has no alpha channel; make the areas to edit transparent and save it as a PNG with transparency")
	}
	m, err := png.Decode(bytes.NewReader(mask))
	if err != nil {
		return fmt.Errorf("the mask PNG cannot be decoded (%w); the file may be damaged", err)
	}
	if isOpaque(m) {
		return errors.New("the mask is fully opaque, so nothing would be edited; make the areas to edit transparent")
	}
	return nil
}

// pngHasAlpha reports whether a PNG stores transparency: a color type with an
// alpha channel (4 gray+alpha, 6 RGBA) or a tRNS chunk before the image data.
func pngHasAlpha(data []byte) bool {
	const ihdrColorType = 8 + 8 + 9 // signature, chunk length+type, width..bit depth
	if len(data) <= ihdrColorType {
		return false
	}
	if ct := data[ihdrColorType]; ct == 4 || ct == 6 {
		return true
	}
	for i := 8; i+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		typ := string(data[i+4 : i+8])
		switch typ {
		case "tRNS":
			return true
		case "IDAT", "IEND":
			return false
		}
		if n < 0 || n > len(data) {
			return false
		}
		i += 12 + n
	}
	return false
}
