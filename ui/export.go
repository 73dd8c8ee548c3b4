package ui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/conversation"
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
	// line is the command as typed: on a failure it goes back into an
	// empty composer.
	line string
	err  error
}

// export writes conv as Markdown (or JSON for a .json path), with its
// images copied next to the file, once the recorder wrote what is on
// screen. Without a path it goes to the export folder (exportDir), named
// after the title. A chat that keeps no history (the demo, --no-save)
// exports what it holds (created is when it started). Only the export
// folder is made when missing: a path given whose folder does not exist
// is refused (session.NoFolderError), as a typo there would leave stray
// folders. line is the command as typed.
func (h *history) export(conv *conversation.Conversation, arg string, allBranches bool, o Options, created time.Time, line string) (tea.Cmd, noticeResult) {
	if conv.Len() == 0 {
		return nil, noticeResult{"there is nothing to export yet", toastInfo}
	}
	home := o.Getenv("HOME")
	path := strings.TrimSpace(arg)
	own := path == ""
	if own {
		name := "parley-" + conv.ID()[:8]
		if slug := fileSlug(conv.Title()); slug != "" {
			name = slug
		}
		path = filepath.Join(exportDir(o.Getenv), name+".md")
	}
	path = slash.ExpandHome(path, home)
	if !filepath.IsAbs(path) && o.WorkDir != "" {
		path = filepath.Join(o.WorkDir, path)
	}
	shown := homepath.Short(path, home)
	opts := session.ExportOptions{Format: session.FormatMarkdown, AllBranches: allBranches}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		opts.Format = session.FormatJSON
	}
	// The snapshot is the export when there is no store, or when the one
	// still opening at the start cannot be opened after all.
	store, rec, id, snap := h.Store, h.rec, conv.ID(), conv.Snapshot()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		msg := exportedMsg{path: path, shown: shown, line: line}
		if own {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				msg.err = err
				return msg
			}
		}
		if store == nil || openFailed(ctx, store) {
			msg.err = session.ExportSnapshotFile(snap, id, created, path, opts)
			return msg
		}
		// What is on screen is written first.
		if rec != nil {
			if msg.err = rec.Flush(ctx); msg.err != nil {
				return msg
			}
		}
		msg.err = store.ExportFile(ctx, id, path, opts)
		return msg
	}, noticeResult{}
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

func (msg exportedMsg) refusedLine() string {
	if msg.err == nil {
		return ""
	}
	return msg.line
}

func (msg exportedMsg) notice() noticeResult {
	shown := cells.OneLine(msg.shown)
	switch {
	case errors.Is(msg.err, fs.ErrExist):
		return noticeResult{shown + " exists already and was left alone; give another path: /export PATH", toastWarn}
	case errors.As(msg.err, new(*session.NoFolderError)):
		return noticeResult{"the folder " + cells.OneLine(filepath.Dir(msg.shown)) + " does not exist, so nothing was exported; create it first, or give a path in a folder that exists: /export PATH", toastErr}
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
