package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/media"
	"parley/ui/cells"
	"parley/ui/preview"
)

// previewSlot is one place that shows a preview (the file picker's
// highlighted image): it asks for a rendering in the background and keeps
// the latest answer for its current request.
type previewSlot struct {
	// opts are the root's preview options when the slot was made;
	// cache is the root's.
	opts  preview.Options
	cache *preview.Cache

	gen   int
	path  string
	w, h  int
	shown []string
	err   string
}

// previewMsg brings a rendering.
type previewMsg struct {
	gen  int
	path string
	r    preview.Rendered
	err  error
}

// request asks for path drawn into w×h cells, reading the file and
// rendering in a command.
func (p *previewSlot) request(path string, w, h int) tea.Cmd {
	if p.opts.Mode == preview.Off || w < 4 || h < 2 || p.cache == nil {
		return nil
	}
	if path == p.path && w == p.w && h == p.h && p.err == "" && p.shown != nil {
		return nil
	}
	p.gen++
	p.path, p.w, p.h, p.shown, p.err = path, w, h, nil, ""
	gen, cache, opts := p.gen, p.cache, p.opts
	return func() tea.Msg {
		data, err := media.ReadImageFile(path, media.MaxFileBytes)
		if err != nil {
			return previewMsg{gen: gen, path: path, err: err}
		}
		r, err := cache.Render(preview.NewSource(data), w, h, opts)
		return previewMsg{gen: gen, path: path, r: r, err: err}
	}
}

// take keeps a rendering if it answers the current request.
func (p *previewSlot) take(msg previewMsg) {
	if msg.gen != p.gen {
		return
	}
	if msg.err != nil {
		p.err = cells.Fold(msg.err.Error())
		return
	}
	p.shown = msg.r.Lines
}

// lines is what the slot shows in w×h cells now.
func (p *previewSlot) lines(w, h int) []string {
	switch {
	case w <= 0 || h <= 0:
		return nil
	case p.err != "":
		return strings.Split(cellsWrap(p.err, w), "\n")
	case p.shown == nil && p.path != "" && p.opts.Mode != preview.Off:
		return []string{cells.Fit("…", w)}
	}
	return p.shown
}

func cellsWrap(s string, w int) string {
	var b strings.Builder
	line := 0
	for _, word := range strings.Fields(s) {
		ww := cells.Width(word)
		if line > 0 && line+1+ww > w {
			b.WriteByte('\n')
			line = 0
		} else if line > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += ww
	}
	return b.String()
}
