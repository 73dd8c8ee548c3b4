package api

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"parley/internal/bytesize"
	"parley/media"
)

// Defaults for AttachLimits. 20 MB is the per-image limit OpenAI documents;
// 2048 px on the long side is the largest size its vision models look at in
// detail, so sending more only costs upload time.
const (
	DefaultAttachMaxSide  = 2048
	DefaultAttachMaxBytes = 20_000_000
)

// AttachLimits bounds the images and text files parley sends. Zero
// fields take the defaults.
type AttachLimits struct {
	MaxSide  int   // longest side in pixels; default 2048
	MaxBytes int64 // size of the encoded image file (not of its Base64); default 20 MB
	// MaxTextBytes bounds one text file (default 256 KB) and MaxTextTotal
	// the text files of one message together (default 1 MB): past them a
	// file is refused, never cut.
	MaxTextBytes int64
	MaxTextTotal int64
	// Budget is the decode budget an image that must be scaled draws on,
	// shared with the other images the program decodes at once; nil is
	// one of media.DecodeBudget for this image alone.
	Budget *media.Budget
}

func (l AttachLimits) withDefaults() AttachLimits {
	if l.MaxSide <= 0 {
		l.MaxSide = DefaultAttachMaxSide
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultAttachMaxBytes
	}
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultAttachMaxTextBytes
	}
	if l.MaxTextTotal <= 0 {
		l.MaxTextTotal = DefaultAttachMaxTextTotal
	}
	return l
}

// Attachment is an image ready to be sent as an image part, or a text
// file (Kind KindText) sent as a text part. A local image holds its bytes
// once, in Data; the data URI the gateway receives is built from them by
// Part when the request is encoded. A link holds only URL. A text file
// holds its bytes as read in Data, and its name, size (Bytes) and line
// count (Lines) for the chip; its image fields are zero.
type Attachment struct {
	Name string // base name of the file, the URL, or the name given to AttachBytesContext
	Kind AttachKind
	URL  string // the http(s) URL as given, for a link the gateway fetches itself; "" for local images
	MIME string // media type of Data, sniffed from its bytes ("" for links)
	// SHA256 is the hex SHA-256 of Data ("" for links): the image's identity
	// for storing it once however often it is sent.
	SHA256 string

	Width, Height int // pixels sent (0 for links)
	Bytes         int // len(Data)

	OrigWidth, OrigHeight int    // pixels of the source, in display orientation
	OrigBytes             int    // size of the source file
	OrigMIME              string // media type of the source
	Resized               bool   // the source was scaled down and/or re-encoded

	// Lines is a text file's line count (CountLines); 0 for images.
	Lines int

	// Path is the local file the attachment was read from, made absolute,
	// for opening it or naming it later; "" for a paste, a link or a data
	// URI. It is never sent, and not stored: a reopened session's images
	// are the history's files.
	Path string

	Data []byte // the encoded bytes sent (nil for links); a text file's bytes as read
}

// IsRemote reports whether the attachment is a link the gateway fetches itself.
func (a Attachment) IsRemote() bool { return a.Data == nil && a.URL != "" }

// Part returns the part that carries the attachment: for a text file a
// text part (TextBlock); for an image the link as given, or a data URI
// built now from Data, whose media type is sniffed from the bytes
// themselves (MIME is the fallback for bytes no sniffer knows).
func (a Attachment) Part() Part {
	if a.IsText() {
		return TextPart(a.TextBlock())
	}
	if a.Data == nil {
		return ImagePart(a.URL)
	}
	return ImagePart(a.DataURI())
}

// DataURI is "data:<media type>;base64,<Data>".
func (a Attachment) DataURI() string {
	mt := media.Sniff(a.Data).MIME()
	if mt == "" {
		mt = a.MIME
	}
	if mt == "" {
		mt = "application/octet-stream"
	}
	prefix := "data:" + mt + ";base64,"
	var b strings.Builder
	b.Grow(len(prefix) + base64.StdEncoding.EncodedLen(len(a.Data)))
	b.WriteString(prefix)
	enc := base64.NewEncoder(base64.StdEncoding, &b)
	enc.Write(a.Data) // a strings.Builder never fails
	enc.Close()
	return b.String()
}

// Describe tells the user what will be sent, with the size before and after
// when parley had to shrink the image:
//
//	photo.png: 4000x3000 PNG, 18.4 MB → 2048x1536 JPEG, 1.2 MB (scaled down)
//	shot.png: 1280x800 PNG, 245 KB
//	https://example.com/cat.png (link, sent as is)
//	main.go: text, 42 lines, 1.2 KB
func (a Attachment) Describe() string {
	if a.IsText() {
		lines := fmt.Sprintf("%d lines", a.Lines)
		if a.Lines == 1 {
			lines = "1 line"
		}
		return fmt.Sprintf("%s: text, %s, %s", a.Name, lines, bytesize.Format(int64(a.Bytes)))
	}
	if a.IsRemote() {
		return a.URL + " (link, sent as is)"
	}
	after := fmt.Sprintf("%dx%d %s, %s", a.Width, a.Height, media.FormatFromMIME(a.MIME).Name(), bytesize.Format(int64(a.Bytes)))
	if !a.Resized {
		return a.Name + ": " + after
	}
	before := fmt.Sprintf("%dx%d %s, %s", a.OrigWidth, a.OrigHeight, media.FormatFromMIME(a.OrigMIME).Name(), bytesize.Format(int64(a.OrigBytes)))
	what := "scaled down"
	if a.OrigWidth == a.Width && a.OrigHeight == a.Height {
		what = "re-encoded"
	}
	return fmt.Sprintf("%s: %s → %s (%s)", a.Name, before, after, what)
}

// Attach is AttachContext without a way to stop it.
func Attach(ref string, lim AttachLimits) (Attachment, error) {
	return AttachContext(context.Background(), ref, lim)
}

// AttachContext turns ref into an attachment. ref is an http(s) URL
// (passed through unchanged, never downloaded), a data URI, a file:// URL,
// or a local path as typed or pasted: surrounding quotes and
// backslash-escaped spaces that terminals add to dragged paths are removed
// and ~/ is expanded (see CleanPath). The image's media type comes from its
// bytes, never its name; images over the limits are scaled down and
// re-encoded (see AttachBytesContext), which stops when ctx ends.
func AttachContext(ctx context.Context, ref string, lim AttachLimits) (Attachment, error) {
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
		return AttachBytesContext(ctx, name, data, lim)
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
	data, err := media.ReadUserFile(path, media.MaxFileBytes, "give an image (PNG, JPEG, WEBP or GIF) or a text file")
	if err != nil {
		return Attachment{}, fmt.Errorf("cannot attach %q: %w", path, err)
	}
	a, err := AttachBytesContext(ctx, filepath.Base(path), data, lim)
	if err != nil {
		// data is dead past this point (Go's collector sees that), so the
		// refused file can go back at once.
		media.Reclaim(int64(len(data)))
		return a, err
	}
	if abs, err := filepath.Abs(path); err == nil {
		a.Path = abs
	}
	return a, nil
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
func parseDataURI(s string) (media.Format, []byte, error) {
	meta, payload, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return "", nil, errors.New("only base64 data URIs (data:<type>;base64,...) are supported")
	}
	data, err := decodeBase64(payload)
	if err != nil {
		return "", nil, fmt.Errorf("its Base64 data is invalid: %w", err)
	}
	return media.FormatFromMIME(strings.TrimSuffix(meta, ";base64")), data, nil
}

// AttachBytesContext turns a file's bytes (or a clipboard image) into an
// attachment: an image, or a text file. What it is comes from the bytes,
// never the name: valid UTF-8 without a NUL byte (a UTF-8 byte order mark
// allowed) is a text file, refused when it passes lim.MaxTextBytes; other
// bytes that are not a PNG, JPEG, WEBP or GIF image are refused, as are
// animated GIFs, damaged images and JPEGs of more scans than
// media.MaxJPEGScans. An image within lim is sent byte for
// byte without being decoded; a larger one is decoded within lim.Budget (a
// header that claims more is refused before any pixel is allocated),
// scaled down with a Catmull-Rom filter and re-encoded (see
// attach_resize.go for the format rules). Decoding and scaling stop when
// ctx ends, and the error then wraps ctx's.
//
// JPEG EXIF orientation: an image sent unchanged keeps its EXIF block, so the
// gateway sees the orientation tag; an image parley re-encodes has the
// rotation applied to its pixels, because the new file carries no EXIF.
func AttachBytesContext(ctx context.Context, name string, data []byte, lim AttachLimits) (Attachment, error) {
	lim = lim.withDefaults()
	if len(data) == 0 {
		return Attachment{}, fmt.Errorf("cannot attach %q: it is empty; attach an image (PNG, JPEG, WEBP or GIF) or a text file", name)
	}
	info, err := media.Inspect(data)
	var se *media.ScansError
	switch {
	case errors.Is(err, media.ErrNotImage) && media.IsText(data):
		return attachText(name, data, lim)
	case errors.Is(err, media.ErrNotImage):
		return Attachment{}, notAttachable(name, data)
	case errors.As(err, &se):
		return Attachment{}, fmt.Errorf("cannot attach %q: it is %s; save it again as a baseline JPEG or as PNG", name, se.Detail())
	case err != nil:
		return Attachment{}, fmt.Errorf("cannot attach %q: it looks like a %s image but cannot be read (%w); the file may be damaged or cut short", name, info.Format.Name(), err)
	}
	f := info.Format
	if f == media.GIF {
		frames, err := media.GIFFrames(data, 2)
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
		Width:      info.Width,
		Height:     info.Height,
		Bytes:      len(data),
		OrigWidth:  info.Width,
		OrigHeight: info.Height,
		OrigBytes:  len(data),
		OrigMIME:   f.MIME(),
		Data:       data,
	}
	if max(info.Width, info.Height) > lim.MaxSide || int64(len(data)) > lim.MaxBytes {
		if a, err = shrink(ctx, a, info, lim); err != nil {
			media.Reclaim(info.Decoded) // the pixels shrink decoded, if it got that far
			return Attachment{}, err
		}
	}
	a.SHA256 = HashBytes(a.Data)
	return a, nil
}

// HashBytes is the hex SHA-256 of data, an attachment's identity.
func HashBytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// notAttachable refuses bytes that are neither an image parley sends nor
// text.
func notAttachable(name string, data []byte) error {
	if utf16BOM(data) {
		return fmt.Errorf("cannot attach %q: it is text in UTF-16, which parley does not send; save it as UTF-8 and attach it again", name)
	}
	if what := media.DescribeContent(data); what != "" {
		return fmt.Errorf("cannot attach %q: it is %s, neither a PNG, JPEG, WEBP or GIF image nor a text file; convert it or attach another file", name, what)
	}
	return fmt.Errorf("cannot attach %q: it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file; attach an image or a text file", name)
}
