package paste

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"parley/internal/bytesize"
	"parley/internal/fserr"
	"parley/media"
)

// headBytes is how much of each file Check reads: enough to name any format
// media.Sniff knows and to describe a file that is something else.
const headBytes = 512

// CheckError says why a pasted path is not a file parley can attach, in
// the words api.Attach uses: `cannot attach "/tmp/a.zip": it is a ZIP
// archive (or an office document), neither a PNG, JPEG, WEBP or GIF image
// nor a text file; convert it or attach another file`.
type CheckError struct {
	Path   string
	Reason string
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("cannot attach %q: %s", e.Path, e.Reason)
}

// Check confirms the paths of a Paths paste before anything is attached:
// each one exists, is a regular file (a directory, a FIFO or a device is
// refused from its mode, and the file is opened without blocking so a FIFO
// swapped in cannot hang it), is not empty and at most media.MaxFileBytes,
// and its first bytes sniff as PNG, JPEG, WEBP or GIF, or as text
// (media.IsTextHead). Only headBytes of each file are read, so checking a
// drop of large photos is instant; the full checks (dimensions, decoding
// budget, animation, the text caps) happen when the root attaches them.
// It returns the first problem as a *CheckError, or the context's error
// when ctx ends between files.
//
// Run it in a command (it touches the file system); when it fails, the
// root pastes the content as text and shows the error.
func Check(ctx context.Context, paths []string) error {
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		if reason := checkOne(p); reason != "" {
			return &CheckError{Path: p, Reason: reason}
		}
	}
	return nil
}

// checkOne returns why p is neither an image nor a text file, or "".
func checkOne(p string) string {
	const want = "give an image (PNG, JPEG, WEBP or GIF) or a text file"
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "there is no such file; check the path"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied; check the file's permissions"
	case err != nil:
		return fmt.Sprintf("it cannot be read (%v); check the path", fserr.Cause(err))
	case st.IsDir():
		return "it is a directory; " + want
	case !st.Mode().IsRegular():
		return "it is not a regular file; " + want
	case st.Size() == 0:
		return "the file is empty; " + want
	case st.Size() > media.MaxFileBytes:
		return fmt.Sprintf("the file is %s, more than parley reads (%s); shrink it first",
			bytesize.Format(st.Size()), bytesize.Format(media.MaxFileBytes))
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return "permission denied; check the file's permissions"
		}
		return fmt.Sprintf("it cannot be opened (%v)", fserr.Cause(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "it is not a regular file; " + want
	}
	head := make([]byte, headBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Sprintf("reading it failed (%v)", fserr.Cause(err))
	}
	head = head[:n]
	if media.Sniff(head) != "" || media.IsTextHead(head) {
		return ""
	}
	if bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		// The words api.Attach uses for it.
		return "it is text in UTF-16, which parley does not send; save it as UTF-8 and attach it again"
	}
	if what := media.DescribeContent(head); what != "" {
		return "it is " + what + ", neither a PNG, JPEG, WEBP or GIF image nor a text file; convert it or attach another file"
	}
	return "it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file; attach an image or a text file"
}
