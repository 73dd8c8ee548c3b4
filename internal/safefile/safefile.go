// Package safefile is parley's one reader of files from outside (the
// config file, theme files, images to attach or edit, stored images, the
// caches and state files) so that no path can hang or flood it: only a
// regular file is read, so a device, a named pipe or a directory is refused
// at once instead of blocking or reading without end (a config symlinked to
// /dev/zero), and no more than a size limit is read.
package safefile

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"

	"parley/internal/bytesize"
	"parley/internal/fserr"
)

// NotRegularError is a path that names something other than a regular
// file. Kind says what, for messages: "a directory", "a named pipe (FIFO)".
type NotRegularError struct {
	Path string
	Kind string
	Mode fs.FileMode
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
	return fmt.Sprintf("%s is larger than %s", e.Path, bytesize.Format(e.Limit))
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
	// One buffer of the size the file says it has: growing by doubling
	// would hold up to twice a large image while it is read.
	var b bytes.Buffer
	b.Grow(int(min(st.Size(), limit)) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fserr.Cause(err)}
	}
	if int64(b.Len()) > limit {
		return nil, &TooLargeError{Path: path, Size: -1, Limit: limit}
	}
	return b.Bytes(), nil
}

func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: kind(st.Mode()), Mode: st.Mode()}
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
