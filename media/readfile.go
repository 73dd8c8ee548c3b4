package media

import (
	"errors"
	"fmt"
	"io/fs"

	"parley/internal/bytesize"
	"parley/internal/fserr"
	"parley/internal/safefile"
)

// MaxFileBytes is the largest image file parley reads (attachments, the
// images and the mask of an edit). It protects parley, not the gateway:
// gateways take far less, and larger files are refused before they are read.
const MaxFileBytes int64 = 256 << 20

// ReadImageFile reads an image file the user named, refusing what is not a
// regular file (a directory, a FIFO, a device such as /dev/zero) and files
// over limit bytes before reading them (safefile.Read). Its errors complete
// "cannot attach "x.png": " and say what to do: "there is no such file;
// check the path". It does not look at the content; Inspect does.
func ReadImageFile(path string, limit int64) ([]byte, error) {
	return ReadUserFile(path, limit, "give an image file (PNG, JPEG, WEBP or GIF)")
}

// ReadUserFile is ReadImageFile for a file that may be of other kinds:
// want ends the sentences that refuse a folder, a special file or an
// empty file ("give an image or a text file").
func ReadUserFile(path string, limit int64, want string) ([]byte, error) {
	data, err := safefile.Read(path, limit)
	var (
		notRegular *safefile.NotRegularError
		tooLarge   *safefile.TooLargeError
	)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("there is no such file; check the path")
	case errors.Is(err, fs.ErrPermission):
		return nil, errors.New("permission denied; check the file's permissions")
	case errors.As(err, &notRegular) && notRegular.Mode.IsDir():
		return nil, errors.New("it is a directory; " + want)
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("it is %s, not a regular file; %s", notRegular.Kind, want)
	case errors.As(err, &tooLarge) && tooLarge.Size >= 0:
		return nil, fmt.Errorf("the file is %s, more than parley reads (%s); shrink it first", bytesize.Format(tooLarge.Size), bytesize.Format(limit))
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("the file grew past %s while it was read, more than parley reads; try again once it is written", bytesize.Format(limit))
	case err != nil:
		return nil, fmt.Errorf("reading it failed (%w)", fserr.Cause(err))
	case len(data) == 0:
		return nil, errors.New("the file is empty; " + want)
	}
	return data, nil
}
