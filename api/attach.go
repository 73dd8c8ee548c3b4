package api

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Defaults for AttachLimits. 20 MB is the per-image limit OpenAI documents;
// 2048 px on the long side is the largest size its vision models look at in
// detail, so sending more only costs upload time.
const (
	DefaultAttachMaxSide  = 2048
	DefaultAttachMaxBytes = 20_000_000
)

// Hard limits protecting parley itself rather than the gateway: larger files
// and images are refused instead of being read or decoded.
const (
	maxAttachFileBytes = 256 << 20
	maxAttachPixels    = 100_000_000
)

// AttachLimits bounds the images parley sends. Zero fields take the defaults.
type AttachLimits struct {
	MaxSide  int   // longest side in pixels; default 2048
	MaxBytes int64 // size of the encoded image file (not of its Base64); default 20 MB
}

func (l AttachLimits) withDefaults() AttachLimits {
	if l.MaxSide <= 0 {
		l.MaxSide = DefaultAttachMaxSide
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultAttachMaxBytes
	}
	return l
}

// Attachment is an image ready to be sent as an image part.
type Attachment struct {
	Name string // base name of the file, the URL, or the name given to AttachBytes
	URL  string // data URI "data:<mime>;base64,..." or the http(s) URL as given
	MIME string // media type of Data, from its bytes ("" for URL attachments)

	Width, Height int // pixels sent (0 for URL attachments)
	Bytes         int // len(Data)

	OrigWidth, OrigHeight int    // pixels of the source, in display orientation
	OrigBytes             int    // size of the source file
	OrigMIME              string // media type of the source
	Resized               bool   // the source was scaled down and/or re-encoded

	Data []byte // the encoded bytes sent (nil for URL attachments)
}

// IsRemote reports whether the attachment is a link the gateway fetches itself.
func (a Attachment) IsRemote() bool { return a.Data == nil && a.URL != "" }

// Part returns the image part that carries the attachment.
func (a Attachment) Part() Part { return ImagePart(a.URL) }

// Describe tells the user what will be sent, with the size before and after
// when parley had to shrink the image:
//
//	photo.png: 4000x3000 PNG, 18.4 MB → 2048x1536 JPEG, 1.2 MB (scaled down)
//	shot.png: 1280x800 PNG, 245 KB
//	https://example.com/cat.png (link, sent as is)
func (a Attachment) Describe() string {
	if a.IsRemote() {
		return a.URL + " (link, sent as is)"
	}
	after := fmt.Sprintf("%dx%d %s, %s", a.Width, a.Height, FormatFromMIME(a.MIME).Name(), FormatBytes(int64(a.Bytes)))
	if !a.Resized {
		return a.Name + ": " + after
	}
	before := fmt.Sprintf("%dx%d %s, %s", a.OrigWidth, a.OrigHeight, FormatFromMIME(a.OrigMIME).Name(), FormatBytes(int64(a.OrigBytes)))
	what := "scaled down"
	if a.OrigWidth == a.Width && a.OrigHeight == a.Height {
		what = "re-encoded"
	}
	return fmt.Sprintf("%s: %s → %s (%s)", a.Name, before, after, what)
}

// FormatBytes writes a byte count the way people read file sizes (decimal
// units: 1 MB = 1,000,000 bytes).
func FormatBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 10_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	case n < 1_000_000:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// Attach turns ref into an attachment. ref is an http(s) URL (passed through
// unchanged, never downloaded), a data URI, a file:// URL, or a local path as
// typed or pasted: surrounding quotes and backslash-escaped spaces that
// terminals add to dragged paths are removed and ~/ is expanded (see
// CleanPath). The image's media type comes from its bytes, never its name;
// images over the limits are scaled down and re-encoded (see AttachBytes).
func Attach(ref string, lim AttachLimits) (Attachment, error) {
	raw := strings.TrimSpace(ref)
	if raw == "" {
		return Attachment{}, errors.New("nothing to attach: the path is empty")
	}
	if isHTTPURL(raw) {
		if _, err := url.Parse(raw); err != nil {
			return Attachment{}, fmt.Errorf("cannot attach %q: it is not a valid URL (%w)", raw, err)
		}
		return Attachment{Name: raw, URL: raw}, nil
	}
	if strings.HasPrefix(raw, "data:") {
		f, data, err := parseDataURI(raw)
		if err != nil {
			return Attachment{}, fmt.Errorf("cannot attach the pasted data URI: %w", err)
		}
		name := "pasted image"
		if f != "" {
			name = "pasted " + f.Name() + " image"
		}
		return AttachBytes(name, data, lim)
	}
	path, err := CleanPath(raw)
	if err != nil {
		return Attachment{}, err
	}
	// A file whose real name contains quotes or backslashes wins over the
	// cleaned-up reading of what was pasted.
	if path != raw {
		if st, err := os.Stat(raw); err == nil && st.Mode().IsRegular() {
			path = raw
		}
	}
	data, err := readAttachFile(path)
	if err != nil {
		return Attachment{}, err
	}
	return AttachBytes(filepath.Base(path), data, lim)
}

// CleanPath turns a typed or pasted file reference into a path: it trims
// white space, removes one pair of surrounding quotes (undoing the shell
// escape for a quote inside single quotes), undoes backslash escapes of an
// unquoted path ("My\ Pictures"), converts file:// URLs, and expands a
// leading ~/ to the home directory.
func CleanPath(ref string) (string, error) {
	s := strings.TrimSpace(ref)
	switch {
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		s = strings.ReplaceAll(s[1:len(s)-1], `'\''`, `'`)
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		s = unescapeBackslashes(s[1:len(s)-1], `"\$`+"`")
	default:
		s = unescapeBackslashes(s, "")
	}
	if strings.HasPrefix(strings.ToLower(s), "file://") {
		u, err := url.Parse(s)
		if err != nil {
			return "", fmt.Errorf("cannot attach %q: it is not a valid file:// URL (%w)", ref, err)
		}
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("cannot attach %q: the file is on another host (%s); copy it here first", ref, u.Host)
		}
		s = u.Path
	}
	if s == "~" || strings.HasPrefix(s, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot attach %q: the home directory is unknown (%w); give the full path", ref, err)
		}
		s = filepath.Join(home, s[1:])
	}
	if s == "" {
		return "", errors.New("nothing to attach: the path is empty")
	}
	return s, nil
}

// unescapeBackslashes drops the backslash of each "\c". When only is not
// empty, just those characters (and the backslash itself) are unescaped, as in
// a double-quoted shell word.
func unescapeBackslashes(s, only string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (only == "" || s[i+1] == '\\' || strings.IndexByte(only, s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHTTPURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// parseDataURI decodes "data:<mime>;base64,<data>"; the returned format is the
// one the URI claims (the bytes are checked later).
func parseDataURI(s string) (ImageFormat, []byte, error) {
	meta, payload, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return "", nil, errors.New("only base64 data URIs (data:<type>;base64,...) are supported")
	}
	data, err := decodeBase64(payload)
	if err != nil {
		return "", nil, fmt.Errorf("its Base64 data is invalid: %w", err)
	}
	return FormatFromMIME(strings.TrimSuffix(meta, ";base64")), data, nil
}

// readAttachFile reads a local file, turning each way it can fail into a
// sentence naming the file and what to do.
func readAttachFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cannot attach %q: there is no such file; check the path", path)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("cannot attach %q: permission denied; check the file's permissions", path)
	case err != nil:
		return nil, fmt.Errorf("cannot attach %q: %w", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("cannot attach %q: it is a directory; attach an image file (PNG, JPEG, WEBP or GIF)", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("cannot attach %q: it is not a regular file; attach an image file (PNG, JPEG, WEBP or GIF)", path)
	case st.Size() == 0:
		return nil, fmt.Errorf("cannot attach %q: the file is empty; attach an image file (PNG, JPEG, WEBP or GIF)", path)
	case st.Size() > maxAttachFileBytes:
		return nil, fmt.Errorf("cannot attach %q: the file is %s, more than parley will read (%s); shrink it first",
			path, FormatBytes(st.Size()), FormatBytes(maxAttachFileBytes))
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("cannot attach %q: permission denied; check the file's permissions", path)
	case err != nil:
		return nil, fmt.Errorf("cannot attach %q: reading it failed: %w", path, err)
	case len(data) == 0:
		return nil, fmt.Errorf("cannot attach %q: the file is empty; attach an image file (PNG, JPEG, WEBP or GIF)", path)
	}
	return data, nil
}

// AttachBytes turns image bytes (a file's contents, a clipboard image) into an
// attachment. The media type comes from the bytes. Non-images, animated GIFs
// and damaged images are refused. An image within lim is sent byte for byte;
// a larger one is scaled down with a Catmull-Rom filter and re-encoded (see
// attach_resize.go for the format rules).
//
// JPEG EXIF orientation: an image sent unchanged keeps its EXIF block, so the
// gateway sees the orientation tag; an image parley re-encodes has the
// rotation applied to its pixels, because the new file carries no EXIF.
func AttachBytes(name string, data []byte, lim AttachLimits) (Attachment, error) {
	lim = lim.withDefaults()
	if len(data) == 0 {
		return Attachment{}, fmt.Errorf("cannot attach %q: it is empty; attach an image (PNG, JPEG, WEBP or GIF)", name)
	}
	f := DetectImageFormat(data)
	if f == "" {
		if what := DescribeContent(data); what != "" {
			return Attachment{}, fmt.Errorf("cannot attach %q: it is %s, not a PNG, JPEG, WEBP or GIF image; convert it or attach an image", name, what)
		}
		return Attachment{}, fmt.Errorf("cannot attach %q: it is not a PNG, JPEG, WEBP or GIF image; attach an image file", name)
	}
	cfg, err := decodeImageConfig(f, data)
	if err != nil {
		return Attachment{}, fmt.Errorf("cannot attach %q: it looks like a %s image but cannot be read (%w); the file may be damaged or cut short", name, f.Name(), err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Attachment{}, fmt.Errorf("cannot attach %q: the %s image has no pixels (%dx%d)", name, f.Name(), cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxAttachPixels {
		return Attachment{}, fmt.Errorf("cannot attach %q: the image is %dx%d pixels, more than parley will decode (%d megapixels); shrink it first",
			name, cfg.Width, cfg.Height, maxAttachPixels/1_000_000)
	}
	if f == FormatGIF {
		frames, err := gifFrameCount(data, 2)
		if err != nil && frames == 0 {
			return Attachment{}, fmt.Errorf("cannot attach %q: the GIF cannot be read (%w); the file may be damaged", name, err)
		}
		if frames > 1 {
			return Attachment{}, fmt.Errorf("cannot attach %q: it is an animated GIF, which models cannot see; attach a single frame as PNG instead", name)
		}
	}
	a := Attachment{
		Name:       name,
		MIME:       f.MIME(),
		Width:      cfg.Width,
		Height:     cfg.Height,
		Bytes:      len(data),
		OrigWidth:  cfg.Width,
		OrigHeight: cfg.Height,
		OrigBytes:  len(data),
		OrigMIME:   f.MIME(),
		Data:       data,
	}
	if max(cfg.Width, cfg.Height) > lim.MaxSide || int64(len(data)) > lim.MaxBytes {
		if a, err = shrink(a, f, lim); err != nil {
			return Attachment{}, err
		}
	}
	a.URL = "data:" + a.MIME + ";base64," + base64.StdEncoding.EncodeToString(a.Data)
	return a, nil
}
