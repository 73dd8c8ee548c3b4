//go:build !unix

package safefile

import "os"

// openNoWait opens path for reading; without unix named pipes there is
// nothing to wait for.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
