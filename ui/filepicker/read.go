package filepicker

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// entry is one row: a folder or an image file of the folder shown.
type entry struct {
	name   string // as the file system has it (untrusted: sanitised to draw)
	dir    bool
	size   int64
	chosen bool // marked with space
}

// listedMsg brings a folder's entries, or says the path is a file.
type listedMsg struct {
	p         *Picker
	gen       int
	dir       string
	entries   []entry
	truncated bool
	file      bool // typed: the path is a file, not a folder
	typed     bool // the path was typed
	err       error
}

// read reads a folder in a command; typed says the user typed the path
// (then a file is attached rather than refused).
func (p *Picker) read(dir string, typed bool) tea.Cmd {
	p.gen++
	p.loading = true
	gen, parent, timeout, limit := p.gen, p.opts.Context, p.opts.ReadTimeout, p.opts.MaxEntries
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		msg := listedMsg{p: p, gen: gen, dir: dir, typed: typed}
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			msg.file = true
			return msg
		}
		msg.entries, msg.truncated, msg.err = readDir(ctx, dir, limit)
		return msg
	}
}

// readDir lists a folder's subfolders and image files, at most limit of
// them, folders first, then by name; hidden ones are left out.
func readDir(ctx context.Context, dir string, limit int) ([]entry, bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var out []entry
	truncated := false
	for ctx.Err() == nil && !truncated {
		batch, err := f.ReadDir(256)
		for _, e := range batch {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			isDir := e.IsDir()
			if e.Type()&os.ModeSymlink != 0 {
				if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
					isDir = st.IsDir()
				}
			}
			if !isDir && !isImageName(name) {
				continue
			}
			var size int64
			if info, err := e.Info(); err == nil && !isDir {
				size = info.Size()
			}
			if len(out) == limit {
				truncated = true
				break
			}
			out = append(out, entry{name: name, dir: isDir, size: size})
		}
		if err != nil {
			break
		}
	}
	slices.SortFunc(out, func(a, b entry) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	})
	return out, truncated, ctx.Err()
}

// isImageName reports whether a file name has an image extension the
// chat can attach.
func isImageName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// readError says in one sentence why a folder cannot be shown.
func readError(shown string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "there is no folder " + shown + "; check the path"
	case errors.Is(err, fs.ErrPermission):
		return "you may not read " + shown + "; choose another folder"
	case errors.Is(err, context.DeadlineExceeded):
		return "reading " + shown + " took too long; is it on a network drive that is away?"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return "cannot read " + shown + ": " + err.Error()
}
