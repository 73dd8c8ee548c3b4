package media

import (
	"bytes"
	"unicode/utf8"
)

// Format is an image file format parley can send, show and save, named by
// its content, never by a file name.
type Format string

// The formats gateways accept as image input (and may return from generation).
const (
	PNG  Format = "png"
	JPEG Format = "jpeg"
	GIF  Format = "gif"
	WEBP Format = "webp"
)

// Sniff names the format of data from its leading bytes, or "" when it is
// none of PNG, JPEG, GIF and WEBP.
func Sniff(data []byte) Format {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return WEBP
	}
	return ""
}

// MIME is the media type used in data URIs and uploads ("image/png").
func (f Format) MIME() string {
	if f == "" {
		return ""
	}
	return "image/" + string(f)
}

// Ext is the usual file extension with its dot (".png", ".jpg").
func (f Format) Ext() string {
	switch f {
	case JPEG:
		return ".jpg"
	case "":
		return ""
	}
	return "." + string(f)
}

// Name is the format as people write it ("PNG", "JPEG").
func (f Format) Name() string {
	switch f {
	case PNG:
		return "PNG"
	case JPEG:
		return "JPEG"
	case GIF:
		return "GIF"
	case WEBP:
		return "WEBP"
	}
	return string(f)
}

// FormatFromMIME maps a media type such as "image/jpeg" or "image/jpg" to its
// format, or "" when parley cannot send it.
func FormatFromMIME(mime string) Format {
	switch mime {
	case "image/png":
		return PNG
	case "image/jpeg", "image/jpg", "image/pjpeg":
		return JPEG
	case "image/gif":
		return GIF
	case "image/webp":
		return WEBP
	}
	return ""
}

// DescribeContent says in a few words what data looks like when it is not an
// image parley can use ("a PDF document", "a HEIC image", "text"), or "" when
// nothing obvious can be said. It exists so refusals can be specific.
func DescribeContent(data []byte) string {
	if f := Sniff(data); f != "" {
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

// utf8BOM is the byte order mark some editors put before UTF-8 text.
const utf8BOM = "\ufeff"

// IsText reports whether data is a text file parley sends as it is: valid
// UTF-8 (after an optional byte order mark) without a NUL byte, and not
// empty. The bytes decide, never a file's name.
func IsText(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	return len(data) > 0 && bytes.IndexByte(data, 0) < 0 && utf8.Valid(data)
}

// IsTextHead is IsText for the first bytes of a file: a character cut at
// the end of the sample is allowed.
func IsTextHead(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte(utf8BOM))
	return len(head) > 0 && looksLikeText(head)
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
