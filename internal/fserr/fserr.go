// Package fserr shortens file system errors for messages that already name
// the file.
package fserr

import (
	"errors"
	"io/fs"
	"os"
)

// Cause drops the operation and path an *fs.PathError or *os.LinkError
// repeats ("mkdir /a/b: permission denied" becomes "permission denied"),
// for a message that names the path itself. errors.Is still sees the
// cause; any other error is returned as it is.
func Cause(err error) error {
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
