package ui

import (
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
)

// The file picker opens where the last attach was made: the folder is
// kept in the state directory ($XDG_STATE_HOME/parley/last-attach-dir).

// pickerDirPath is where the folder the picker last attached from is kept.
func pickerDirPath(getenv func(string) string) string {
	p := lastModelPath(getenv)
	if p == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "last-attach-dir")
}

// rememberPickerDir keeps the folder for the next /attach.
func rememberPickerDir(getenv func(string) string, dir string) tea.Cmd {
	p := pickerDirPath(getenv)
	if p == "" {
		return nil
	}
	return func() tea.Msg {
		if os.MkdirAll(filepath.Dir(p), 0o700) == nil {
			_ = os.WriteFile(p, []byte(dir+"\n"), 0o600)
		}
		return nil
	}
}

// pickerStart is where the picker opens: the folder it attached from last
// time, else the screenshots folder, else the pictures folder, else the
// working directory. It reads a state file and looks at folders: call it
// in a command, never in Update.
func pickerStart(getenv func(string) string, workDir string) string {
	if p := pickerDirPath(getenv); p != "" {
		if d := readSmallFile(p); isDir(d) {
			return d
		}
	}
	home := getenv("HOME")
	pictures := getenv("XDG_PICTURES_DIR")
	if pictures == "" && home != "" {
		pictures = filepath.Join(home, "Pictures")
	}
	for _, d := range []string{filepath.Join(pictures, "Screenshots"), filepath.Join(home, "Screenshots"), pictures} {
		if home != "" && isDir(d) {
			return d
		}
	}
	if workDir != "" {
		return workDir
	}
	return home
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
