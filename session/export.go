package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"parley/api"
)

// Export formats.
const (
	FormatMarkdown = "md"
	FormatJSON     = "json"
)

// ExportOptions shape an export.
type ExportOptions struct {
	// Format is FormatMarkdown or FormatJSON.
	Format string
	// Location is the time zone of the times written; nil means Local.
	Location *time.Location
	// Force lets ExportFile replace a file (or link) at the path, and
	// images of another export in its images folder.
	Force bool
	// AllBranches writes every branch of the conversation's tree, not
	// only the active path: in Markdown one section per branch, each the
	// whole path from the first message to one leaf; in JSON every
	// message with its parent.
	AllBranches bool
}

// ExportFile writes a session to path, with its images copied into a
// folder next to it (for "chat.md": "chat-images/") and referred to by
// relative paths, so the export can be moved or shared as it is. Without
// opts.Force anything at path is left alone and the error matches
// fs.ErrExist; a symbolic link at path is never followed (see
// exportfile.go). The files are readable by the user only.
func (s *Store) ExportFile(ctx context.Context, id, path string, opts ExportOptions) error {
	if err := s.Opened(ctx); err != nil {
		return err
	}
	if err := checkTarget(path, opts.Force); err != nil {
		return err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-images"
	sink := &copySink{s: s, dir: filepath.Join(filepath.Dir(path), base), link: base, names: map[string]string{}, force: opts.Force}
	return streamExport(path, opts.Force, func(w io.Writer) error {
		return s.export(ctx, id, w, sink, opts)
	})
}

// Export writes a session to w. With no file next to it, images are
// referred to where parley keeps them (absolute paths into its blobs
// folder).
func (s *Store) Export(ctx context.Context, id string, w io.Writer, opts ExportOptions) error {
	if err := s.Opened(ctx); err != nil {
		return err
	}
	return s.export(ctx, id, w, blobSink{s}, opts)
}

// imageSink decides how an export refers to an image's bytes.
type imageSink interface {
	// ref returns the path to write for an image, "" when its bytes are
	// missing.
	ref(hash, name, mime string) (string, error)
}

// blobSink refers to the blobs folder itself.
type blobSink struct{ s *Store }

func (b blobSink) ref(hash, _, _ string) (string, error) {
	p := b.s.BlobPath(hash)
	if !validHash(hash) {
		return "", nil
	}
	if _, err := os.Stat(p); err != nil {
		return "", nil
	}
	return p, nil
}

// copySink copies each image once into dir and refers to it as link/name.
type copySink struct {
	s     *Store
	dir   string
	link  string
	names map[string]string // hash -> file name
	force bool
	made  bool // dir was checked (or made)
}

func (c *copySink) ref(hash, name, mime string) (string, error) {
	if n, ok := c.names[hash]; ok {
		return n, nil
	}
	data, err := c.s.folder.readBlob(hash)
	if errors.Is(err, fs.ErrNotExist) {
		c.names[hash] = ""
		return "", nil
	}
	if err != nil {
		return "", err
	}
	file := exportName(name, hash, mime)
	if !c.made {
		if err := imagesFolder(c.dir); err != nil {
			return "", fmt.Errorf("make the images folder: %w", err)
		}
		c.made = true
	}
	if err := writeImage(filepath.Join(c.dir, file), data, c.force); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", err
		}
		return "", fmt.Errorf("copy an image: %w", err)
	}
	ref := c.link + "/" + file
	c.names[hash] = ref
	return ref, nil
}

// exportName is a portable file name for an image: its own name reduced
// to safe characters, the start of its hash (so two images never share a
// name) and the extension of its type.
func exportName(name, hash, mime string) string {
	stem := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	stem = strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			return r
		}
		return '-'
	}, stem)
	stem = strings.Trim(stem, "-")
	if len(stem) > 40 {
		stem = stem[:40]
	}
	if stem == "" {
		stem = "image"
		if mime == api.TextMIME {
			stem = "file"
		}
	}
	return stem + "-" + hash[:8] + extFor(name, mime)
}

// extFor is the extension of an exported file: the image type's, or a
// text file's own (reduced to safe characters; .txt without one).
func extFor(name, mime string) string {
	if mime == api.TextMIME {
		ext := strings.TrimPrefix(filepath.Ext(name), ".")
		ext = strings.Map(func(r rune) rune {
			if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return r
			}
			return -1
		}, ext)
		if ext == "" || len(ext) > 10 {
			return ".txt"
		}
		return "." + ext
	}
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/webp":
		return ".webp"
	case "image/gif":
		return ".gif"
	}
	return ".bin"
}

// exported is a session as an export needs it: every message of its
// tree without image bytes, with the hash of each stored image (by
// message index and part index), and whether every branch is written.
type exported struct {
	Session
	hashes    [][]string
	generated []GeneratedImage
	all       bool
}

func (s *Store) export(ctx context.Context, id string, w io.Writer, sink imageSink, opts ExportOptions) error {
	meta, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	leaf, err := s.activeLeaf(ctx, id)
	if err != nil {
		return err
	}
	msgs, hashes, err := s.read.messagesWith(ctx, false, meta.Messages, `SELECT `+messageColumns+` FROM messages WHERE session_id = ? ORDER BY seq`, id)
	if err != nil {
		return err
	}
	gen, err := s.generatedImages(ctx, id, false)
	if err != nil {
		return err
	}
	e := exported{Session: newSession(meta, msgs, leaf, false), hashes: hashes, generated: gen, all: opts.AllBranches}
	return writeFormat(w, e, sink, opts)
}

// writeFormat writes e in the format opts ask for.
func writeFormat(w io.Writer, e exported, sink imageSink, opts ExportOptions) error {
	loc := opts.Location
	if loc == nil {
		loc = time.Local
	}
	switch opts.Format {
	case FormatMarkdown, "":
		return writeMarkdown(w, e, sink, loc)
	case FormatJSON:
		return writeJSON(w, e, sink, loc)
	}
	return fmt.Errorf("unknown export format %q: use md or json", opts.Format)
}
