package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileBytes is the largest image file parley reads (attachments, the
// images and the mask of an edit). It protects parley, not the gateway:
// gateways take far less, and larger files are refused before they are read.
const MaxFileBytes int64 = 256 << 20

// Why readRegular refused a file.
var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("file too large")
)

// readRegular reads the regular file at path, at most limit bytes. A FIFO,
// a device (/dev/zero) or a directory is refused from its mode before it is
// opened, and again after opening (O_NONBLOCK, so a file swapped for a FIFO
// in between cannot block the open), so nothing but a regular file is ever
// read, and never more than limit+1 bytes of it.
func readRegular(path string, limit int64) ([]byte, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, st, errNotRegular
	}
	if st.Size() > limit {
		return nil, st, errTooLarge
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, st, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, st, errNotRegular
	}
	var b bytes.Buffer
	b.Grow(int(min(st.Size(), limit)) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, st, err
	}
	if int64(b.Len()) > limit {
		return nil, st, errTooLarge
	}
	return b.Bytes(), st, nil
}

// ReadImageFile reads an image file the user named, refusing what is not a
// regular file (a directory, a FIFO, a device such as /dev/zero) and files
// over limit bytes before reading them. Its errors complete "cannot attach
// "x.png": " and say what to do: "there is no such file; check the path".
// It does not look at the content; Inspect does.
func ReadImageFile(path string, limit int64) ([]byte, error) {
	const want = "give an image file (PNG, JPEG, WEBP or GIF)"
	data, st, err := readRegular(path, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("there is no such file; check the path")
	case errors.Is(err, fs.ErrPermission):
		return nil, errors.New("permission denied; check the file's permissions")
	case errors.Is(err, errNotRegular) && st.IsDir():
		return nil, errors.New("it is a directory; " + want)
	case errors.Is(err, errNotRegular):
		return nil, fmt.Errorf("it is %s, not a regular file; %s", fileKind(st.Mode()), want)
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("the file is %s, more than parley reads (%s); shrink it first", FormatBytes(st.Size()), FormatBytes(limit))
	case err != nil:
		return nil, fmt.Errorf("reading it failed (%w)", PathErrCause(err))
	case len(data) == 0:
		return nil, errors.New("the file is empty; " + want)
	}
	return data, nil
}

// fileKind names a non-regular file type for an error message.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
