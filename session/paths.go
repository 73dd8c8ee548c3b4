package session

import "path/filepath"

// File names inside the data directory.
const (
	DBName  = "parley.db"
	BlobDir = "blobs"
)

// DefaultDir is where parley keeps its history: $XDG_DATA_HOME/parley when
// XDG_DATA_HOME is an absolute path (the XDG spec ignores a relative one),
// else ~/.local/share/parley; "" when neither is known.
func DefaultDir(getenv func(string) string, home string) string {
	if getenv != nil {
		if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "parley")
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "parley")
}
