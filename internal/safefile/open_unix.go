//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading without waiting: should it have turned
// into a named pipe since it was checked, open returns at once (and the
// check after it refuses the pipe) instead of blocking for a writer.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
