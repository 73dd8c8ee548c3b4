// Package homepath writes paths under the user's home folder the short way
// people read them, with "~".
package homepath

import (
	"path/filepath"
	"strings"
)

// Short writes path with "~" for home when path is home or lies under it
// ("/home/ann/Pictures/parley" becomes "~/Pictures/parley"); any other path,
// or any path when home is "", comes back as it is. A sibling that merely
// starts with the same letters ("/home/anna") is not under home.
func Short(path, home string) string {
	home = strings.TrimRight(home, string(filepath.Separator))
	if home == "" {
		return path
	}
	if path == home || strings.HasPrefix(path, home+string(filepath.Separator)) {
		return "~" + path[len(home):]
	}
	return path
}
