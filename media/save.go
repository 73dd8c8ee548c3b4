package media

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"parley/internal/fserr"
)

// SavedImage is one file written by SaveImages.
type SavedImage struct {
	Path          string
	Format        Format
	Width, Height int
	Bytes         int
	Note          string // set when the file is not the PNG the spec promises
}

// SaveImages writes images into dir (created 0o755 when missing) as
// <yyyymmdd-hhmmss>-<slug of prompt>-<i>.<ext>, i counting from 1 and ext
// the one of the image's real format. A file is never overwritten: when the
// name exists, "_2", "_3", … is added before the extension. Each file
// appears complete or not at all (written to a temporary file, synced, then
// hard-linked to its name, which fails instead of replacing). Bytes in
// another format than PNG are saved with that format's extension and a
// Note.
//
// The images were verified (decoded whole) before; they are not decoded
// again. On an error after some files were written, the saved ones are
// returned with the error.
func SaveImages(dir, prompt string, now time.Time, images []Verified) ([]SavedImage, error) {
	if len(images) == 0 {
		return nil, errors.New("there are no images to save")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the image directory %s (%w); choose another directory (-o, or image_dir in the config)", dir, fserr.Cause(err))
	}
	base := now.Format("20060102-150405") + "-" + Slug(prompt)
	saved := make([]SavedImage, 0, len(images))
	for i, img := range images {
		info := img.Info
		stem := fmt.Sprintf("%s-%d", base, i+1)
		path, err := writeNew(dir, stem, info.Format.Ext(), img.Data)
		if err != nil {
			return saved, fmt.Errorf("cannot save image %d of %d in %s (%w); check that the directory is writable and has space", i+1, len(images), dir, fserr.Cause(err))
		}
		s := SavedImage{Path: path, Format: info.Format, Width: info.Width, Height: info.Height, Bytes: len(img.Data)}
		if info.Format != PNG {
			s.Note = fmt.Sprintf("the gateway sent a %s image, not a PNG; saved it as %s", info.Format.Name(), info.Format.Ext())
		}
		saved = append(saved, s)
	}
	return saved, nil
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
			SyncDir(dir)
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

// WriteNew writes data to a file that must not exist yet (O_EXCL: an
// existing file is never replaced), synced, with no partial file left on
// failure.
func WriteNew(path string, data []byte) error {
	_, err := writeExclusive(path, data)
	return err
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
	SyncDir(filepath.Dir(path))
	return path, nil
}

// SyncDir makes new directory entries in dir durable. Failure is harmless
// to callers that synced the data itself, so it is not reported.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
