package slash

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"parley/termsafe"
)

// Bounds of one path completion.
const (
	// DefaultMaxEntries is how many names are read from one directory at
	// most; a directory with more completes from the first ones read.
	DefaultMaxEntries = 4096
	// DefaultMaxResults is how many candidates are returned at most.
	DefaultMaxResults = 200
	// readChunk is how many names are read per system call, so a done
	// context is noticed between chunks.
	readChunk = 256
)

// PathOptions shape and bound a path completion.
type PathOptions struct {
	// Dir is where relative paths start (the working directory); "" is ".".
	Dir string
	// Home is what "~" stands for; "" leaves "~" alone (nothing completes).
	Home string
	// MaxEntries and MaxResults override DefaultMaxEntries and
	// DefaultMaxResults when positive.
	MaxEntries, MaxResults int
	// Keep, when set, keeps only the files it returns true for (say, image
	// extensions); directories are always offered.
	Keep func(name string) bool
}

// CompletePath returns the files and directories that complete partial, a
// path as the user typed it: "~/Pic", "./shots/sc", "/tmp/", "notes".
//
// Each Value is partial's directory part as typed followed by the name, so
// "~" and relative paths stay as the user wrote them; a directory ends with
// "/" and has More set. Hidden names are offered only when the typed name
// starts with "." . Names that match with their case come first, then those
// matching when case is ignored ("pic" finds "Pictures"); each group is in
// name order.
//
// Bounds: at most MaxEntries names are read from the directory, in chunks of
// 256, stopping early when ctx is done; symbolic links among the matches
// cost one stat each, at most MaxResults. Nothing else touches the disk. A
// directory that cannot be read completes nothing. Call it off the Update
// goroutine (from Complete, which the list runs in a tea.Cmd with a
// deadline), since a slow or hung file system blocks the call that reads it.
func CompletePath(ctx context.Context, partial string, opt PathOptions) []Completion {
	maxEntries, maxResults := opt.MaxEntries, opt.MaxResults
	if maxEntries <= 0 {
		maxEntries = DefaultMaxEntries
	}
	if maxResults <= 0 {
		maxResults = DefaultMaxResults
	}
	if partial == "~" {
		if opt.Home == "" {
			return nil
		}
		return []Completion{{Value: "~/", More: true}}
	}
	cut := strings.LastIndexAny(partial, "/"+string(os.PathSeparator)) + 1
	typedDir, base := partial[:cut], partial[cut:]
	dir, ok := fsDir(typedDir, opt)
	if !ok {
		return nil
	}
	entries := readNames(ctx, dir, maxEntries)

	hidden := strings.HasPrefix(base, ".")
	lowerBase := strings.ToLower(base)
	type cand struct {
		name   string
		folded bool // matched only when case is ignored
		entry  os.DirEntry
	}
	var cands []cand
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && !hidden {
			continue
		}
		if !termsafe.IsClean(name) || strings.ContainsAny(name, "\t\n") {
			continue // cannot be shown or typed safely
		}
		switch {
		case strings.HasPrefix(name, base):
			cands = append(cands, cand{name: name, entry: e})
		case strings.HasPrefix(strings.ToLower(name), lowerBase):
			cands = append(cands, cand{name: name, entry: e, folded: true})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].folded != cands[j].folded {
			return !cands[i].folded
		}
		return cands[i].name < cands[j].name
	})

	var out []Completion
	stats := 0
	for _, c := range cands {
		if len(out) >= maxResults || ctx.Err() != nil {
			break
		}
		isDir := c.entry.IsDir()
		if c.entry.Type()&os.ModeSymlink != 0 {
			if stats >= maxResults {
				continue
			}
			stats++
			if fi, err := os.Stat(filepath.Join(dir, c.name)); err == nil {
				isDir = fi.IsDir()
			}
		}
		if isDir {
			out = append(out, Completion{Value: typedDir + c.name + "/", Display: c.name + "/", More: true})
			continue
		}
		if opt.Keep != nil && !opt.Keep(c.name) {
			continue
		}
		out = append(out, Completion{Value: typedDir + c.name, Display: c.name})
	}
	return out
}

// ExpandHome turns a path as completed ("~/Pictures/a.png") into one the
// file system knows: a leading "~" or "~/" becomes home. Other paths, and
// "~user/…", come back unchanged, as does everything when home is "".
func ExpandHome(path, home string) string {
	if home == "" || !strings.HasPrefix(path, "~") {
		return path
	}
	if path == "~" {
		return home
	}
	if path[1] == '/' || path[1] == os.PathSeparator {
		return filepath.Join(home, path[2:])
	}
	return path
}

// fsDir turns the typed directory part into the directory to read.
func fsDir(typed string, opt PathOptions) (string, bool) {
	base := opt.Dir
	if base == "" {
		base = "."
	}
	switch {
	case typed == "":
		return base, true
	case strings.HasPrefix(typed, "~"):
		dir := ExpandHome(typed, opt.Home)
		if dir == typed {
			return "", false // no home, or "~user/", which is not expanded
		}
		return dir, true
	case filepath.IsAbs(typed):
		return typed, true
	default:
		return filepath.Join(base, typed), true
	}
}

// readNames reads at most limit entries of dir, a chunk at a time,
// stopping when ctx is done. A read error part-way completes from what was
// read.
func readNames(ctx context.Context, dir string, limit int) []os.DirEntry {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []os.DirEntry
	for len(out) < limit && ctx.Err() == nil {
		chunk, err := f.ReadDir(min(readChunk, limit-len(out)))
		out = append(out, chunk...)
		if err != nil { // io.EOF at the end, or a failed read
			break
		}
	}
	return out
}
