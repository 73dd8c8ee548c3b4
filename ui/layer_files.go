package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// filesLayer is the image file picker of /attach: the folders and image
// files (PNG, JPEG, WEBP, GIF) of one folder, a filter, several files
// chosen at once, and a preview of the highlighted image.
type filesLayer struct {
	ctx  *uictx.Context
	home string

	dir     string
	entries []fileEntry // the folder's entries, folders first
	shown   []int       // indexes into entries that match the filter
	filter  string
	chosen  map[string]bool // full paths marked with space
	cursor  int
	offset  int
	gen     int // numbers folder reads: a late one is dropped
	loading bool
	err     string

	preview previewSlot

	w, h    int
	view    string
	viewKey string
	dirty   bool
}

// fileEntry is one row of the picker.
type fileEntry struct {
	name string
	dir  bool
	size int64
}

// Bounds of a folder read: a huge folder still opens at once.
const (
	maxPickerEntries = 5000
	dirReadTimeout   = 3 * time.Second
)

// dirListedMsg brings a folder's entries.
type dirListedMsg struct {
	gen       int
	dir       string
	entries   []fileEntry
	truncated bool
	err       error
}

func newFilesLayer(ctx *uictx.Context, start, home string) (*filesLayer, tea.Cmd) {
	l := &filesLayer{ctx: ctx, home: home, chosen: map[string]bool{}, dirty: true}
	return l, l.open(start)
}

func (l *filesLayer) name() string     { return "files" }
func (l *filesLayer) full() bool       { return true }
func (l *filesLayer) setSize(w, h int) { l.w, l.h, l.dirty = w, h, true }

func (l *filesLayer) hints() []uictx.Hint {
	km := &l.ctx.Keys
	return []uictx.Hint{{Key: "type", Desc: "filter"}, {Key: "space", Desc: "choose several"}, {Key: keyOf(km.Select), Desc: "attach / open folder"}, {Key: "backspace", Desc: "up a folder"}, {Key: keyOf(km.Close), Desc: "cancel"}}
}

// open reads a folder in the background.
func (l *filesLayer) open(dir string) tea.Cmd {
	l.gen++
	l.loading, l.err, l.filter = true, "", ""
	l.dir = dir
	gen := l.gen
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), dirReadTimeout)
		defer cancel()
		entries, truncated, err := readPickerDir(ctx, dir)
		return dirListedMsg{gen: gen, dir: dir, entries: entries, truncated: truncated, err: err}
	}
}

// readPickerDir lists a folder's subfolders and image files, at most
// maxPickerEntries of them, folders first, then by name.
func readPickerDir(ctx context.Context, dir string) ([]fileEntry, bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var out []fileEntry
	truncated := false
	for ctx.Err() == nil {
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
			out = append(out, fileEntry{name: name, dir: isDir, size: size})
			if len(out) >= maxPickerEntries {
				truncated = true
				break
			}
		}
		if err != nil || truncated {
			break
		}
	}
	slices.SortFunc(out, func(a, b fileEntry) int {
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

func (l *filesLayer) refilter() {
	l.shown = l.shown[:0]
	q := strings.ToLower(l.filter)
	for i, e := range l.entries {
		if q == "" || strings.Contains(strings.ToLower(e.name), q) {
			l.shown = append(l.shown, i)
		}
	}
	l.cursor, l.offset = 0, 0
}

func (l *filesLayer) current() (fileEntry, bool) {
	if l.cursor < len(l.shown) {
		return l.entries[l.shown[l.cursor]], true
	}
	return fileEntry{}, false
}

func (l *filesLayer) update(msg tea.Msg) (tea.Cmd, result) {
	l.dirty = true
	switch msg := msg.(type) {
	case dirListedMsg:
		if msg.gen != l.gen {
			return nil, nil
		}
		l.loading = false
		if msg.err != nil {
			l.err = "cannot read " + cells.OneLine(msg.dir) + ": " + msg.err.Error()
		} else if msg.truncated {
			l.err = "this folder has more than " + strconv.Itoa(maxPickerEntries) + " images and folders; type to filter the first ones, or /attach PATH"
		}
		l.entries = msg.entries
		l.refilter()
		return l.previewCmd(), nil
	case previewMsg:
		l.preview.take(msg)
		return nil, nil
	case tea.KeyPressMsg:
		return l.key(msg)
	}
	return nil, nil
}

func (l *filesLayer) key(msg tea.KeyPressMsg) (tea.Cmd, result) {
	km := &l.ctx.Keys
	k := msg.Keystroke()
	switch {
	case keys.Matches(msg, km.Close):
		return nil, closeLayer{}
	case keys.Matches(msg, km.ListUp):
		l.cursor = max(l.cursor-1, 0)
		return l.previewCmd(), nil
	case keys.Matches(msg, km.ListDown):
		l.cursor = min(l.cursor+1, max(len(l.shown)-1, 0))
		return l.previewCmd(), nil
	case k == "pgup":
		l.cursor = max(l.cursor-l.rows(), 0)
		return l.previewCmd(), nil
	case k == "pgdown":
		l.cursor = min(l.cursor+l.rows(), max(len(l.shown)-1, 0))
		return l.previewCmd(), nil
	case k == "space":
		if e, ok := l.current(); ok && !e.dir {
			p := filepath.Join(l.dir, e.name)
			if l.chosen[p] {
				delete(l.chosen, p)
			} else {
				l.chosen[p] = true
			}
			l.cursor = min(l.cursor+1, max(len(l.shown)-1, 0))
		}
		return l.previewCmd(), nil
	case keys.Matches(msg, km.Select):
		e, ok := l.current()
		if ok && e.dir {
			return l.open(filepath.Join(l.dir, e.name)), nil
		}
		paths := l.chosenPaths()
		if len(paths) == 0 && ok {
			paths = []string{filepath.Join(l.dir, e.name)}
		}
		if len(paths) == 0 {
			return nil, nil
		}
		dir := l.dir
		return nil, filesChosen{paths: paths, dir: dir}
	case k == "backspace" && l.filter != "":
		l.filter = dropLastRune(l.filter)
		l.refilter()
		return l.previewCmd(), nil
	case k == "backspace" || k == "left":
		if parent := filepath.Dir(l.dir); parent != l.dir {
			return l.open(parent), nil
		}
	case k == "right":
		if e, ok := l.current(); ok && e.dir {
			return l.open(filepath.Join(l.dir, e.name)), nil
		}
	case k == "~":
		if l.home != "" {
			return l.open(l.home), nil
		}
	case msg.Text != "":
		l.filter += msg.Text
		l.refilter()
		return l.previewCmd(), nil
	}
	return nil, nil
}

// chosenPaths are the files marked with space, in name order.
func (l *filesLayer) chosenPaths() []string {
	out := make([]string, 0, len(l.chosen))
	for p := range l.chosen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// rows is the list's height.
func (l *filesLayer) rows() int { return max(l.h-4, 1) }

// listWidth leaves room for the preview beside the list when the screen
// is wide enough.
func (l *filesLayer) listWidth() int {
	if l.w >= 70 {
		return l.w * 11 / 20
	}
	return l.w
}

// previewCmd renders the highlighted image for the preview, in the
// background.
func (l *filesLayer) previewCmd() tea.Cmd {
	e, ok := l.current()
	if !ok || e.dir || l.listWidth() == l.w {
		return nil
	}
	return l.preview.request(filepath.Join(l.dir, e.name), l.w-l.listWidth()-2, l.rows()-2)
}

func (l *filesLayer) draw() (string, int, int) {
	key := strconv.Itoa(l.w) + "x" + strconv.Itoa(l.h) + "/" + strconv.Itoa(l.ctx.StyleGen)
	if l.dirty || key != l.viewKey {
		l.viewKey, l.dirty = key, false
		l.view = l.render()
	}
	return l.view, 0, 0
}

func (l *filesLayer) render() string {
	st := l.ctx.Styles
	w, h := max(l.w, 1), max(l.h, 1)
	lw := l.listWidth()
	lines := []string{
		st.OverlayTitle.Render(cells.Fit(" Attach images · "+cells.OneLine(shortHome(l.dir, l.home)), w)),
		st.PickerFilter.Render(cells.Fit(" filter: "+cells.OneLine(l.filter)+"▏", w)),
	}
	rows := l.rows()
	if l.cursor < l.offset {
		l.offset = l.cursor
	} else if l.cursor >= l.offset+rows {
		l.offset = l.cursor - rows + 1
	}
	var list []string
	switch {
	case l.loading:
		list = append(list, st.Muted.Render(cells.Fit(" reading the folder…", lw)))
	case len(l.shown) == 0:
		list = append(list, st.Muted.Render(cells.Fit(" no images or folders here (backspace goes up)", lw)))
	}
	for i := l.offset; i < len(l.shown) && len(list) < rows; i++ {
		e := l.entries[l.shown[i]]
		mark := "  "
		if l.chosen[filepath.Join(l.dir, e.name)] {
			mark = "✓ "
		}
		name := cells.OneLine(e.name)
		info := ""
		if e.dir {
			name += "/"
		} else {
			info = formatSize(e.size)
		}
		row := cells.Fit(" "+mark+cells.Truncate(name, max(lw-len(info)-6, 4)), max(lw-len(info)-1, 1)) + info + " "
		if i == l.cursor {
			row = st.PickerSelected.UnsetPaddingLeft().Render(cells.Fit(row, lw))
		} else {
			row = cells.Fit(row, lw)
		}
		list = append(list, row)
	}
	pv := l.preview.lines(l.w-lw-2, rows)
	for i := 0; i < rows; i++ {
		row := cells.Spaces(lw)
		if i < len(list) {
			row = list[i]
		}
		if lw < w {
			side := cells.Spaces(w - lw - 2)
			if i < len(pv) {
				side = cells.Fit(pv[i], w-lw-2)
			}
			row += "  " + side
		}
		lines = append(lines, row)
	}
	status := strconv.Itoa(len(l.chosen)) + " chosen"
	if l.err != "" {
		status = cells.Fold(l.err)
	}
	lines = append(lines, st.Muted.Render(cells.Fit(" "+status, w)))
	return cells.Block(lines, w, h)
}

// shortHome writes a path under home with "~".
func shortHome(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+string(filepath.Separator))) {
		return "~" + p[len(home):]
	}
	return p
}

func formatSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + " KB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

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
// working directory.
func pickerStart(getenv func(string) string) string {
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
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return home
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// openFilePicker opens the picker (/attach without a path).
func (m *Model) openFilePicker() tea.Cmd {
	l, cmd := newFilesLayer(m.ctx, pickerStart(m.opts.Getenv), m.opts.Getenv("HOME"))
	l.preview.opts, l.preview.cache = m.pics.options(m.ctx, m.term.profile), m.pics.cache
	m.layers.push(l)
	return cmd
}
