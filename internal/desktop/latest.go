package desktop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"parley/internal/homepath"
	"parley/media"
)

// maxFolderEntries bounds how many entries of the screenshots folder are
// looked at: years of screenshots are a few thousand files.
const maxFolderEntries = 100_000

// folderBatch is how many entries are read at a time, so a cancel is seen
// between batches of a large folder.
const folderBatch = 1024

// maxLocationBytes bounds what `defaults read com.apple.screencapture
// location` prints: one path.
const maxLocationBytes = 4 << 10

// Shot is the newest image of the screenshots folder.
type Shot struct {
	Path    string
	ModTime time.Time
	Size    int64
}

// imageExts are the file names taken for images when the folder is
// listed; the bytes decide when the file is attached.
func imageExts() []string { return []string{".png", ".jpg", ".jpeg", ".webp", ".gif"} }

// LatestScreenshot returns the newest image (.png, .jpg, .jpeg, .webp or
// .gif, by modification time) in dir, or, when dir is "", in the
// screenshots folder (see ScreenshotsDir). Only the folder itself is
// looked at, not its subfolders, and at most 100000 entries of it. Errors
// are one sentence: no such folder, an empty one, one that cannot be read.
func (s System) LatestScreenshot(ctx context.Context, dir string) (Shot, error) {
	if dir == "" {
		var err error
		if dir, err = s.ScreenshotsDir(ctx); err != nil {
			return Shot{}, err
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		return Shot{}, s.folderError(dir, err)
	}
	defer f.Close()
	var (
		best Shot
		seen int
	)
	for {
		if err := ctx.Err(); err != nil {
			return Shot{}, err
		}
		entries, rerr := f.ReadDir(folderBatch)
		for _, e := range entries {
			if sh, ok := imageEntry(dir, e); ok && (best.Path == "" || sh.ModTime.After(best.ModTime) || sh.ModTime.Equal(best.ModTime) && sh.Path > best.Path) {
				best = sh
			}
		}
		seen += len(entries)
		if seen > maxFolderEntries {
			return Shot{}, fmt.Errorf("cannot find the latest screenshot: %s holds more than %d files, more than parley looks through; set screenshots_dir in the config to the folder your screenshots go to", s.short(dir), maxFolderEntries)
		}
		if errors.Is(rerr, io.EOF) || len(entries) == 0 && rerr == nil {
			break
		}
		if rerr != nil {
			return Shot{}, s.folderError(dir, rerr)
		}
	}
	if best.Path == "" {
		return Shot{}, fmt.Errorf("there is no image in %s yet: take a screenshot first (/screenshot), or set screenshots_dir in the config to the folder your screenshots go to", s.short(dir))
	}
	return best, nil
}

// imageEntry is e when it is a regular file (or a link to one) named like
// an image and not hidden.
func imageEntry(dir string, e fs.DirEntry) (Shot, bool) {
	name := e.Name()
	if strings.HasPrefix(name, ".") || !hasImageExt(name) {
		return Shot{}, false
	}
	path := filepath.Join(dir, name)
	var (
		info fs.FileInfo
		err  error
	)
	if e.Type()&fs.ModeSymlink != 0 {
		info, err = os.Stat(path)
	} else {
		info, err = e.Info()
	}
	if err != nil || !info.Mode().IsRegular() || info.Size() == 0 {
		return Shot{}, false
	}
	return Shot{Path: path, ModTime: info.ModTime(), Size: info.Size()}, true
}

func hasImageExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range imageExts() {
		if ext == e {
			return true
		}
	}
	return false
}

func (s System) folderError(dir string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("there is no folder %s: set screenshots_dir in the config to the folder your screenshots go to", s.short(dir))
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot read the folder %s: permission denied; check its permissions or set screenshots_dir in the config", s.short(dir))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read the folder %s (%v); set screenshots_dir in the config to the folder your screenshots go to", s.short(dir), err)
}

// ScreenshotsDir is the folder the desktop saves screenshots to: on macOS
// the location screencapture is set to (defaults read
// com.apple.screencapture location, one bounded run), else ~/Desktop; on
// other systems the first folder that exists of
// $XDG_PICTURES_DIR/Screenshots (or the user-dirs.dirs entry) and
// ~/Pictures/Screenshots. The config's screenshots_dir, when set, is
// passed to LatestScreenshot instead. The error, when none exists, names
// the folders looked at.
func (s System) ScreenshotsDir(ctx context.Context) (string, error) {
	home := s.home()
	if home == "" {
		return "", errors.New("cannot find the screenshots folder: the home folder is unknown; set screenshots_dir in the config")
	}
	var candidates []string
	if s.session() == macOS {
		if loc := s.macScreenshotLocation(ctx, home); loc != "" {
			candidates = append(candidates, loc)
		}
		candidates = append(candidates, filepath.Join(home, "Desktop"))
	} else {
		candidates = append(candidates, filepath.Join(media.PicturesDir(s.getenv, home), "Screenshots"))
		if p := filepath.Join(home, "Pictures", "Screenshots"); p != candidates[0] {
			candidates = append(candidates, p)
		}
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
	}
	shown := make([]string, len(candidates))
	for i, c := range candidates {
		shown[i] = s.short(c)
	}
	return "", fmt.Errorf("there is no screenshots folder (parley looked in %s): set screenshots_dir in the config to the folder your screenshots go to", strings.Join(shown, " and "))
}

// macScreenshotLocation asks macOS where screencapture saves ("" when it
// is not set or cannot be read: the default is the Desktop).
func (s System) macScreenshotLocation(ctx context.Context, home string) string {
	p := s.find("defaults")
	if p == "" {
		return ""
	}
	out, err := s.run(ctx, tool{name: "defaults", path: p, args: []string{"read", "com.apple.screencapture", "location"}, limit: maxLocationBytes})
	if err != nil {
		return ""
	}
	loc := strings.TrimSpace(string(out))
	switch {
	case loc == "~":
		return home
	case strings.HasPrefix(loc, "~/"):
		return filepath.Join(home, loc[2:])
	case filepath.IsAbs(loc):
		return filepath.Clean(loc)
	}
	return ""
}

func (s System) home() string {
	if s.Home != "" {
		return s.Home
	}
	return s.getenv("HOME")
}

// short writes a path under home with "~" for messages.
func (s System) short(path string) string { return homepath.Short(path, s.home()) }
