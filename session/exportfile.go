package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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

// NoFolderError is an export path whose folder does not exist. Nothing
// makes it: a typo in the folder would leave a trail of stray folders, so
// the export is refused and the user creates the folder or fixes the path.
type NoFolderError struct {
	// Dir is the folder that is missing.
	Dir string
}

func (e *NoFolderError) Error() string {
	return fmt.Sprintf("the folder %s does not exist, so nothing was exported; create it first, or give a path in a folder that exists", e.Dir)
}

// checkTarget refuses an export path that holds something, unless force,
// a directory in any case, and one whose folder is missing.
func checkTarget(path string, force bool) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return &NoFolderError{Dir: dir}
	} else if err == nil && !st.IsDir() {
		return fmt.Errorf("%s is not a folder, so nothing can be exported into it; give a path in a folder", dir)
	}
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

// writeExport writes what write writes to path: a new file, or with
// force one that replaces what is there. It goes to the file as it is
// written, through a buffer, never held whole; a failure removes what was
// written.
func writeExport(path string, force bool, write func(io.Writer) error) error {
	if !force {
		return writeNew(path, write)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = writeSynced(f, write)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// writeNew creates path, which must not exist (not even as a link), and
// writes to it; a partial file is removed.
func writeNew(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return existsError(path)
		}
		return err
	}
	if err := writeSynced(f, write); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// writeSynced runs write into f through a buffer, then syncs and closes f.
func writeSynced(f *os.File, write func(io.Writer) error) error {
	b := bufio.NewWriterSize(f, 64<<10)
	err := write(b)
	if err == nil {
		err = b.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// streamExport writes an export to path as export produces it. What
// export itself fails on (a session that is not there, an image that
// cannot be copied) is returned as it is; a failure to write the file is
// said to be one.
func streamExport(path string, force bool, export func(io.Writer) error) error {
	var exportErr error
	err := writeExport(path, force, func(w io.Writer) error {
		fw := &fileWriter{w: w}
		err := export(fw)
		if err != nil && fw.err == nil {
			exportErr = err
		}
		return err
	})
	switch {
	case err == nil:
		return nil
	case exportErr != nil:
		return exportErr
	case errors.Is(err, fs.ErrExist):
		return err
	}
	return fmt.Errorf("write the export: %w", err)
}

// fileWriter remembers whether writing to the file failed.
type fileWriter struct {
	w   io.Writer
	err error
}

func (f *fileWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

// writeBytes is a write function for data already in memory.
func writeBytes(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
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
	return writeExport(path, force, writeBytes(data))
}
