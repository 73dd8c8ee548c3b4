package media

import (
	"path/filepath"
	"strings"

	"parley/internal/safefile"
)

// DefaultImageDir is where generated images go when the config names no
// directory: the pictures folder (see PicturesDir) and in it "parley".
// getenv and home are parameters so callers (and tests) decide where the
// environment comes from.
func DefaultImageDir(getenv func(string) string, home string) string {
	return filepath.Join(PicturesDir(getenv, home), "parley")
}

// PicturesDir is the user's pictures folder: $XDG_PICTURES_DIR, else the
// XDG_PICTURES_DIR entry of $XDG_CONFIG_HOME/user-dirs.dirs (the
// xdg-user-dirs file), else ~/Pictures.
func PicturesDir(getenv func(string) string, home string) string {
	if p := getenv("XDG_PICTURES_DIR"); p != "" && filepath.IsAbs(p) {
		return p
	}
	cfgHome := getenv("XDG_CONFIG_HOME")
	if cfgHome == "" || !filepath.IsAbs(cfgHome) {
		cfgHome = filepath.Join(home, ".config")
	}
	if p := userDirsPictures(filepath.Join(cfgHome, "user-dirs.dirs"), home); p != "" {
		return p
	}
	return filepath.Join(home, "Pictures")
}

// maxUserDirsBytes bounds the user-dirs.dirs file, which holds a dozen
// short lines.
const maxUserDirsBytes = 64 << 10

// userDirsPictures reads XDG_PICTURES_DIR from an xdg-user-dirs file, whose
// lines look like XDG_PICTURES_DIR="$HOME/Pictures". An entry equal to $HOME
// means "disabled" by that file's convention and is ignored.
func userDirsPictures(file, home string) string {
	data, err := safefile.Read(file, maxUserDirsBytes)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		v, ok := strings.CutPrefix(line, "XDG_PICTURES_DIR=")
		if !ok {
			continue
		}
		v = strings.Trim(v, `"`)
		switch {
		case v == "$HOME" || v == "$HOME/":
			return ""
		case strings.HasPrefix(v, "$HOME/"):
			return filepath.Join(home, v[len("$HOME/"):])
		case filepath.IsAbs(v):
			return filepath.Clean(v)
		}
		return ""
	}
	return ""
}
