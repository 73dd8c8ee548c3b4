// Package safefile reads the small files a user points parley at (the
// config file, theme files) so that no path can hang or flood it: only a
// regular file is read, so a device, a named pipe or a directory is refused
// at once instead of blocking or reading without end (a config symlinked to
// /dev/zero), and no more than a size limit is read.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is a path that names something other than a regular
// file. Kind says what, for messages: "a directory", "a named pipe (FIFO)".
type NotRegularError struct {
	Path string
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind)
}

// TooLargeError is a file larger than the limit. Size is its size when the
// file said so up front, else -1 (it grew while being read).
type TooLargeError struct {
	Path  string
	Size  int64
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s", e.Path, Bytes(e.Limit))
}

// Bytes writes a size for people: "1 MiB", "512 KiB", "300 bytes".
func Bytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read returns the contents of the regular file at path (symbolic links
// followed), or a *NotRegularError, a *TooLargeError, or the error of
// opening or reading it (a *fs.PathError; errors.Is(err, fs.ErrNotExist)
// works as usual).
func Read(path string, limit int64) ([]byte, error) {
	// Stat before opening: opening a device can have effects of its own,
	// and opening a named pipe waits for a writer.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The path may have been replaced since the Stat: check what was opened.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: unwrapPath(err)}
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Size: -1, Limit: limit}
	}
	return data, nil
}

func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: kind(st.Mode())}
	}
	if st.Size() > limit {
		return &TooLargeError{Path: path, Size: st.Size(), Limit: limit}
	}
	return nil
}

// kind names a file type that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
