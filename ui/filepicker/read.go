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

// entry is one row: a folder or a file of the folder shown.
type entry struct {
	name   string // as the file system has it (untrusted: sanitised to draw)
	dir    bool
	size   int64
	chosen bool // marked with space
	// kind is what the file's first bytes say; why, for a file that
	// cannot be attached, says why (completing "NAME cannot be attached: ").
	kind fileKind
	why  string
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
	// kind, why and size are a typed file's (see entry).
	kind fileKind
	why  string
	size int64
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
			switch {
			case !typed:
			case !st.Mode().IsRegular():
				msg.kind, msg.why = kindBinary, "it is not a regular file (a pipe, a socket or a device); give an image or a text file"
			default:
				if head, size, err := readHead(dir, sniffBytes); err == nil {
					msg.kind, msg.why = classify(head)
					msg.size = size
				}
			}
			return msg
		}
		msg.entries, msg.truncated, msg.err = readDir(ctx, dir, limit)
		sniffFirst(ctx, dir, msg.entries)
		return msg
	}
}

// readDir lists a folder's subfolders and regular files (symbolic links
// followed), at most limit of them, folders first, then by name; hidden
// ones and special files (pipes, sockets, devices) are left out. Every
// file is listed, whatever its name: its first bytes say whether it can
// be attached (sniff), and one that cannot is shown as such rather than
// hidden, so a file the user looks for is never missing without a word.
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
			typ := e.Type()
			var size int64
			if typ&os.ModeSymlink != 0 {
				st, err := os.Stat(filepath.Join(dir, name))
				if err != nil {
					continue // a link to nothing
				}
				typ, size = st.Mode().Type(), st.Size()
			} else if typ.IsRegular() {
				if info, err := e.Info(); err == nil {
					size = info.Size()
				}
			}
			isDir := typ.IsDir()
			if !isDir && !typ.IsRegular() {
				continue
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

// sniffFirst looks at the first firstSniff files of a folder just read,
// so its first screen shows with their kinds; the others are looked at
// in the background (sniffRest).
func sniffFirst(ctx context.Context, dir string, entries []entry) {
	var at []int
	var names []string
	for i, e := range entries {
		if len(names) == firstSniff {
			break
		}
		if !e.dir {
			at, names = append(at, i), append(names, e.name)
		}
	}
	for j, s := range sniff(ctx, dir, names) {
		entries[at[j]].kind, entries[at[j]].why = s.kind, s.why
	}
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
