package session

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Export files are written so that nothing already there is lost and no
// link leads them elsewhere: a new file is created exclusively (O_EXCL,
// which also refuses a symbolic link, dangling or not, instead of
// creating its target); replacing (ExportOptions.Force) writes a
// temporary file beside it and renames it over the old name, so a link
// there is replaced, never followed, and a reader never sees half a file.
// Files are private (0600) like the database; the images folder 0700.

// existsError is an export path that holds something already. It
// matches fs.ErrExist (os.IsExist too, for callers that use it).
func existsError(path string) error {
	return &fs.PathError{Op: "export to", Path: path, Err: fs.ErrExist}
}

// checkTarget refuses an export path that holds something, unless force,
// and a directory in any case.
func checkTarget(path string, force bool) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s is a folder; give the path of a file to write", path)
	case !force:
		return existsError(path)
	}
	return nil
}

// writeExport writes data to path: a new file, or with force one that
// replaces what is there.
func writeExport(path string, data []byte, force bool) error {
	if !force {
		return writeNew(path, data)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// writeNew creates path, which must not exist (not even as a link), and
// writes data to it; a partial file is removed.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return existsError(path)
		}
		return err
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
	}
	return err
}

// imagesFolder makes the folder the images of an export go to, or checks
// the one there: a real folder, not a link to one.
func imagesFolder(dir string) error {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.Mkdir(dir, 0o700)
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0 || !st.IsDir():
		return fmt.Errorf("%s is not a folder (a link or a file is there); move it aside or export under another name", dir)
	}
	return nil
}

// writeImage writes one image of an export. A file of that name with
// the same bytes is kept (an export made again); other content is
// replaced only with force.
func writeImage(path string, data []byte, force bool) error {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() && st.Size() == int64(len(data)) {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			return nil
		}
	}
	return writeExport(path, data, force)
}
