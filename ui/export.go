package ui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/internal/homepath"
	"parley/session"
	"parley/ui/cells"
	"parley/ui/slash"
)

// exportedMsg reports an export.
type exportedMsg struct {
	path string
	// shown is the path as the user reads it (~/…).
	shown string
	err   error
}

// exportCommand writes the conversation on screen as Markdown (or JSON for
// a .json path), with its images copied next to the file. Without a path
// it goes to the export folder (exportDir), named after the title. A chat
// that keeps no history (the demo, --no-save) exports what it holds.
func (m *Model) exportCommand(arg string, allBranches bool) tea.Cmd {
	if m.eng.Conv().Len() == 0 {
		return m.notes.show("there is nothing to export yet", toastInfo)
	}
	home := m.opts.Getenv("HOME")
	path := strings.TrimSpace(arg)
	if path == "" {
		name := "parley-" + m.eng.Conv().ID()[:8]
		if slug := fileSlug(m.eng.Conv().Title()); slug != "" {
			name = slug
		}
		path = filepath.Join(exportDir(m.opts.Getenv), name+".md")
	}
	path = slash.ExpandHome(path, home)
	if !filepath.IsAbs(path) && m.opts.WorkDir != "" {
		path = filepath.Join(m.opts.WorkDir, path)
	}
	shown := homepath.Short(path, home)
	opts := session.ExportOptions{Format: session.FormatMarkdown, AllBranches: allBranches}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		opts.Format = session.FormatJSON
	}
	store, rec, id := m.hist.Store, m.hist.rec, m.eng.Conv().ID()
	if store == nil {
		snap, created := m.eng.Conv().Snapshot(), m.term.started
		return func() tea.Msg {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return exportedMsg{path: path, shown: shown, err: err}
			}
			return exportedMsg{path: path, shown: shown, err: session.ExportSnapshotFile(snap, id, created, path, opts)}
		}
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		// What is on screen is written first.
		if rec != nil {
			if err := rec.Flush(ctx); err != nil {
				return exportedMsg{path: path, shown: shown, err: err}
			}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return exportedMsg{path: path, shown: shown, err: err}
		}
		return exportedMsg{path: path, shown: shown, err: store.ExportFile(ctx, id, path, opts)}
	}
}

// exportDir is where /export writes without a path: $XDG_DOCUMENTS_DIR
// (else ~/Documents) /parley, or, with neither, parley's data folder's
// "exports".
func exportDir(getenv func(string) string) string {
	home := getenv("HOME")
	docs := getenv("XDG_DOCUMENTS_DIR")
	if docs == "" && home != "" {
		docs = filepath.Join(home, "Documents")
	}
	if docs != "" && isDir(docs) {
		return filepath.Join(docs, "parley")
	}
	data := getenv("XDG_DATA_HOME")
	if data == "" {
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "parley", "exports")
}

func (msg exportedMsg) notice() noticeResult {
	shown := cells.OneLine(msg.shown)
	switch {
	case errors.Is(msg.err, fs.ErrExist):
		return noticeResult{shown + " exists already and was left alone; give another path: /export PATH", toastWarn}
	case msg.err != nil:
		return noticeResult{"could not export to " + shown + ": " + msg.err.Error(), toastErr}
	}
	return noticeResult{"exported to " + shown, toastOK}
}

// fileSlug makes a file name stem from a title: lower-case letters and
// digits joined by "-", at most 40 characters.
func fileSlug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return b.String()
}
