package api

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// DecodeImageData returns the bytes of every image of a generation or edit
// reply: data[].b64_json decoded (standard or URL-safe Base64, padded or not,
// white space ignored), a data: URI in data[].url decoded, any other
// data[].url fetched with download. An empty data array, invalid Base64, an
// entry with neither field, a URL when download is nil, and bytes that do not
// decode as an image are errors; nothing is returned then, so nothing can be
// half-saved.
func DecodeImageData(ctx context.Context, resp *ImageResponse, download func(ctx context.Context, url string) ([]byte, error)) ([][]byte, error) {
	if resp == nil || len(resp.Data) == 0 {
		return nil, errors.New("the gateway answered without any image (empty data array); try again or try another model")
	}
	total := len(resp.Data)
	out := make([][]byte, 0, total)
	for i, d := range resp.Data {
		which := fmt.Sprintf("image %d of %d", i+1, total)
		var data []byte
		switch {
		case d.B64JSON != "":
			b, err := decodeBase64(d.B64JSON)
			if err != nil {
				return nil, fmt.Errorf("%s from the gateway is not valid Base64 (%w); nothing was saved", which, err)
			}
			data = b
		case strings.HasPrefix(d.URL, "data:"):
			_, b, err := parseDataURI(d.URL)
			if err != nil {
				return nil, fmt.Errorf("%s from the gateway is a data URI that cannot be read: %w", which, err)
			}
			data = b
		case d.URL != "":
			if download == nil {
				return nil, fmt.Errorf("%s came as a link (%s) and downloading is not enabled here; ask for b64_json instead", which, redactURL(d.URL))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			b, err := download(ctx, d.URL)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", which, err)
			}
			data = b
		default:
			return nil, fmt.Errorf("%s from the gateway has neither b64_json nor url; nothing was saved", which)
		}
		if _, err := verifyImage(data); err != nil {
			return nil, fmt.Errorf("%s from the gateway %w; nothing was saved", which, err)
		}
		out = append(out, data)
	}
	return out, nil
}

// decodeBase64 accepts standard and URL-safe alphabets, with or without
// padding, ignoring white space (line breaks from wrapped encoders).
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	if s == "" {
		return nil, errors.New("the data is empty")
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.NoPadding)
	}
	return enc.Strict().DecodeString(s)
}

// imageInfo is what verifying image bytes learns about them.
type imageInfo struct {
	Format        ImageFormat
	Width, Height int
}

// verifyImage checks that data is a whole image of a known format by
// decoding every pixel (a header check would pass a cut-off file).
func verifyImage(data []byte) (imageInfo, error) {
	f := DetectImageFormat(data)
	if f == "" {
		if what := DescribeContent(data); what != "" {
			return imageInfo{}, fmt.Errorf("is not an image (it looks like %s)", what)
		}
		return imageInfo{}, errors.New("is not an image")
	}
	img, err := decodeImage(f, data)
	if err != nil {
		return imageInfo{}, fmt.Errorf("is a damaged %s image (%w)", f.Name(), err)
	}
	b := img.Bounds()
	return imageInfo{Format: f, Width: b.Dx(), Height: b.Dy()}, nil
}

// SavedImage is one file written by SaveImages.
type SavedImage struct {
	Path          string
	Format        string // "png", "jpeg", "gif", "webp"
	Width, Height int
	Bytes         int
	Note          string // set when the file is not the PNG the spec promises
}

// SaveImages writes images into dir (created 0o755 when missing) as
// <yyyymmdd-hhmmss>-<slug of prompt>-<i>.png, i counting from 1. Every image
// is verified before the first file is written. A file is never overwritten:
// when the name exists, "_2", "_3", … is added before the extension. Each
// file appears complete or not at all (written to a temporary file, synced,
// then hard-linked to its name, which fails instead of replacing). Bytes in
// another real format are saved with that format's extension and a Note.
//
// On an error after some files were written, the saved ones are returned
// with the error.
func SaveImages(dir, prompt string, now time.Time, images [][]byte) ([]SavedImage, error) {
	if len(images) == 0 {
		return nil, errors.New("there are no images to save")
	}
	infos := make([]imageInfo, len(images))
	for i, data := range images {
		info, err := verifyImage(data)
		if err != nil {
			return nil, fmt.Errorf("image %d of %d %w; nothing was saved", i+1, len(images), err)
		}
		infos[i] = info
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the image directory %s (%w); choose another directory (-o, or image_dir in the config)", dir, pathErrCause(err))
	}
	base := now.Format("20060102-150405") + "-" + Slug(prompt)
	saved := make([]SavedImage, 0, len(images))
	for i, data := range images {
		info := infos[i]
		stem := fmt.Sprintf("%s-%d", base, i+1)
		path, err := writeNew(dir, stem, info.Format.Ext(), data)
		if err != nil {
			return saved, fmt.Errorf("cannot save image %d of %d in %s (%w); check that the directory is writable and has space", i+1, len(images), dir, pathErrCause(err))
		}
		s := SavedImage{Path: path, Format: string(info.Format), Width: info.Width, Height: info.Height, Bytes: len(data)}
		if info.Format != FormatPNG {
			s.Note = fmt.Sprintf("the gateway sent a %s image, not a PNG; saved it as %s", info.Format.Name(), info.Format.Ext())
		}
		saved = append(saved, s)
	}
	return saved, nil
}

// pathErrCause drops the path an *fs.PathError repeats ("mkdir /a/b:
// permission denied" → "permission denied") for messages that name it
// already; errors.Is still sees the cause.
func pathErrCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// maxNameCollisions bounds the search for a free file name.
const maxNameCollisions = 1000

// writeNew writes data to dir/stem+ext, or stem_2+ext, stem_3+ext, … if the
// name is taken, and returns the path. It never replaces an existing file.
func writeNew(dir, stem, ext string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".parley-*.tmp")
	if err != nil {
		return "", err
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // after a successful link this only drops the extra name
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chmod(tmpName, 0o644); err != nil {
		return "", err
	}
	for k := 1; k <= maxNameCollisions; k++ {
		name := stem + ext
		if k > 1 {
			name = fmt.Sprintf("%s_%d%s", stem, k, ext)
		}
		path := filepath.Join(dir, name)
		err := os.Link(tmpName, path)
		if err == nil {
			syncDir(dir)
			return path, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// Some file systems have no hard links: fall back to an exclusive
		// create, which still never replaces a file.
		path, err = writeExclusive(path, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return path, err
	}
	return "", fmt.Errorf("%d files named %s* exist already", maxNameCollisions, stem)
}

// writeExclusive creates path with O_EXCL, writes and syncs data; on failure
// the partial file is removed.
func writeExclusive(path string, data []byte) (string, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}

// syncDir makes a new directory entry durable; failure is harmless here (the
// data itself is synced), so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// latinExtra spells the Latin letters that have no decomposition into an
// ASCII letter plus accents.
var latinExtra = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i",
}

// slugMax is the longest slug SaveImages puts into a file name.
const slugMax = 40

// Slug makes a file-name fragment of a prompt: lowercase ASCII letters and
// digits, words joined by '-', at most 40 characters cut at a word boundary.
// Accents are dropped from Latin letters ("Café" → "cafe"); other scripts are
// dropped entirely (no transliteration), and a prompt with nothing left
// becomes "image".
func Slug(prompt string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range norm.NFKD.String(prompt) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			w.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			w.WriteRune(r + 'a' - 'A')
		case latinExtra[unicode.ToLower(r)] != "":
			w.WriteString(latinExtra[unicode.ToLower(r)])
		case unicode.Is(unicode.Mn, r), r == '\'', r == '’':
			// combining accents and apostrophes vanish inside a word
		case r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsNumber(r)):
			// a letter of another script: dropped, not a word break
		default:
			flush()
		}
	}
	flush()
	var b strings.Builder
	for _, word := range words {
		extra := len(word)
		if b.Len() > 0 {
			extra++
		}
		if b.Len()+extra > slugMax {
			if b.Len() == 0 {
				b.WriteString(word[:slugMax])
			}
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(word)
	}
	if b.Len() == 0 {
		return "image"
	}
	return b.String()
}

// DefaultImageDir is where generated images go when the config names no
// directory: $XDG_PICTURES_DIR/parley, else the XDG_PICTURES_DIR entry of
// $XDG_CONFIG_HOME/user-dirs.dirs (the xdg-user-dirs file), else
// ~/Pictures/parley. getenv and home are parameters so callers (and tests)
// decide where the environment comes from.
func DefaultImageDir(getenv func(string) string, home string) string {
	if p := getenv("XDG_PICTURES_DIR"); p != "" && filepath.IsAbs(p) {
		return filepath.Join(p, "parley")
	}
	cfgHome := getenv("XDG_CONFIG_HOME")
	if cfgHome == "" || !filepath.IsAbs(cfgHome) {
		cfgHome = filepath.Join(home, ".config")
	}
	if p := userDirsPictures(filepath.Join(cfgHome, "user-dirs.dirs"), home); p != "" {
		return filepath.Join(p, "parley")
	}
	return filepath.Join(home, "Pictures", "parley")
}

// userDirsPictures reads XDG_PICTURES_DIR from an xdg-user-dirs file, whose
// lines look like XDG_PICTURES_DIR="$HOME/Pictures". An entry equal to $HOME
// means "disabled" by that file's convention and is ignored.
func userDirsPictures(file, home string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		v, ok := strings.CutPrefix(line, "XDG_PICTURES_DIR=")
		if !ok {
			continue
		}
		v = strings.Trim(v, `"`)
		switch {
		case v == "$HOME" || v == "$HOME/":
			return ""
		case strings.HasPrefix(v, "$HOME/"):
			return filepath.Join(home, v[len("$HOME/"):])
		case filepath.IsAbs(v):
			return filepath.Clean(v)
		}
		return ""
	}
	return ""
}
