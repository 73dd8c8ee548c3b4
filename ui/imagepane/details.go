package imagepane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/internal/homepath"
	"parley/ui/cells"
)

// detailLines describe the selected image in h rows of exactly w cells:
// its origin and time, the prompt (wrapped, at most three lines), model
// and size, pixels, bytes and format, the path, what it was edited from.
func (p *Pane) detailLines(w, h int) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	k := detKey{p.gen, p.sel(), w, h, p.ctx.StyleGen}
	if k == p.cache.detKey && p.cache.details != nil {
		return p.cache.details
	}
	st := &p.ctx.Styles
	it, _ := p.Selected()
	label := func(name, value string) string {
		return st.Muted.Render(name+" ") + st.Text.Render(value)
	}
	head := it.Origin.marker() + " " + it.Origin.String()
	if !it.Created.IsZero() {
		head += " · " + it.Created.Local().Format("2 Jan 15:04")
	}
	var fixed []string
	fixed = append(fixed, st.Bold.Render(cells.Fit(head, w)))
	var meta []string
	if it.Model != "" {
		meta = append(meta, label("model", cells.OneLine(it.Model)))
	}
	if it.Size != "" {
		meta = append(meta, label("size", cells.OneLine(it.Size)))
	}
	var facts []string
	if r := p.rows[p.sel()]; r.pixels != "" {
		facts = append(facts, r.pixels+" px")
	}
	if r := p.rows[p.sel()]; r.bytes != "" {
		facts = append(facts, r.bytes)
	}
	if it.MIME != "" {
		facts = append(facts, cells.OneLine(it.MIME))
	}
	var tail []string
	if len(meta) > 0 {
		tail = append(tail, strings.Join(meta, st.Muted.Render(" · ")))
	}
	if len(facts) > 0 {
		tail = append(tail, st.Text.Render(strings.Join(facts, " · ")))
	}
	if it.Path != "" {
		tail = append(tail, st.Muted.Render("path ")+st.Text.Render(fitLeft(cells.OneLine(homepath.Short(it.Path, p.dirs.Home)), max(w-5, 1))))
	} else {
		tail = append(tail, st.Muted.Render("pasted, not saved yet (s saves a copy)"))
	}
	if it.From != "" {
		tail = append(tail, st.Muted.Render("edited from ")+st.Text.Render(fitLeft(cells.OneLine(homepath.Short(it.From, p.dirs.Home)), max(w-12, 1))))
	}
	var prompt []string
	if it.Prompt != "" {
		room := min(3, h-len(fixed)-len(tail))
		if room < 1 && h > len(fixed) {
			room = 1 // the prompt matters more than the last facts
		}
		if room > 0 {
			prompt = cells.WrapLines(cells.Fold(it.Prompt), w)
			if len(prompt) > room {
				prompt = prompt[:room]
				prompt[room-1] = cells.Truncate(prompt[room-1]+" "+cells.Ellipsis, w)
			}
			for i, l := range prompt {
				prompt[i] = st.Italic.Render(cells.Fit(l, w))
			}
		}
	}
	all := append(append(fixed, prompt...), tail...)
	out := make([]string, h)
	for i := range out {
		if i < len(all) {
			out[i] = cells.Fit(all[i], w)
		} else {
			out[i] = cells.Spaces(w)
		}
	}
	p.cache.detKey, p.cache.details = k, out
	return out
}

// fitLeft cuts s to w cells by dropping its start, so a path keeps its
// file name.
func fitLeft(s string, w int) string {
	sw := cells.Width(s)
	if sw <= w {
		return s
	}
	if w <= 1 {
		return cells.Ellipsis[:min(len(cells.Ellipsis), w*len(cells.Ellipsis))]
	}
	return cells.Ellipsis + ansi.TruncateLeft(s, sw-w+1, "")
}
