package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/session"
	"parley/ui/cells"
	"parley/ui/slash"
)

// exportedMsg reports an export.
type exportedMsg struct {
	path string
	err  error
}

// exportCommand writes the conversation on screen as Markdown (or JSON for
// a .json path), with its images copied next to the file. Without a path
// it goes to the working directory, named after the title.
func (m *Model) exportCommand(arg string) tea.Cmd {
	if m.hist.Store == nil {
		return m.notify("cannot export: "+m.hist.off().Error()+"; copy the replies with ctrl+y instead", toastInfo)
	}
	if m.conv.Len() == 0 {
		return m.notify("there is nothing to export yet", toastInfo)
	}
	path := strings.TrimSpace(arg)
	if path == "" {
		name := "parley-" + m.conv.ID()[:8]
		if slug := fileSlug(m.conv.Title()); slug != "" {
			name = slug
		}
		path = name + ".md"
	}
	path = slash.ExpandHome(path, m.opts.Getenv("HOME"))
	if !filepath.IsAbs(path) {
		if wd, err := os.Getwd(); err == nil {
			path = filepath.Join(wd, path)
		}
	}
	format := session.FormatMarkdown
	if strings.EqualFold(filepath.Ext(path), ".json") {
		format = session.FormatJSON
	}
	store, rec, id := m.hist.Store, m.hist.rec, m.conv.ID()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		// What is on screen is written first.
		if rec != nil {
			if err := rec.Flush(ctx); err != nil {
				return exportedMsg{path: path, err: err}
			}
		}
		if _, err := os.Stat(path); err == nil {
			return exportedMsg{path: path, err: os.ErrExist}
		}
		return exportedMsg{path: path, err: store.ExportFile(ctx, id, path, session.ExportOptions{Format: format})}
	}
}

func (m *Model) exported(msg exportedMsg) tea.Cmd {
	switch {
	case os.IsExist(msg.err):
		return m.notify(cells.OneLine(msg.path)+" exists already and was left alone; give another path: /export PATH", toastWarn)
	case msg.err != nil:
		return m.notify("could not export to "+cells.OneLine(msg.path)+": "+msg.err.Error(), toastErr)
	}
	return m.notify("exported to "+cells.OneLine(msg.path), toastOK)
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
