package imagepane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/cells"
)

// drawBottom writes the hint line, or the save prompt, or a note.
func (p *Pane) drawBottom(lines []string, l layout) {
	st := p.ctx.Styles
	w := l.w
	if p.prompt != nil {
		sp := p.prompt
		if l.hint >= 0 {
			lines[l.hint] = p.promptLine(w)
		}
		msgRow := l.h - 2
		if msgRow <= l.title {
			return // no row between the title and the prompt
		}
		var msg string
		switch {
		case sp.err != "":
			msg = st.Error.Render(cells.Fit(" "+sp.err, w))
		case len(sp.cands) > 0:
			msg = p.candLine(w)
		case cells.Width(sp.label)+cells.Width(sp.edit.Value())+1 > w:
			// The path does not fit on the prompt's line: it is shown
			// whole above it, wrapped, so what enter saves is in view.
			p.wholePath(lines, l, msgRow)
			return
		default:
			msg = hintLine(st, w, [][3]string{{"tab", "complete", "complete"}, {"enter", "save", "save"}, {"esc", "cancel", "cancel"}})
		}
		lines[msgRow] = msg
		return
	}
	if l.hint < 0 {
		return
	}
	k := hintKey{w, p.ctx.StyleGen, len(p.items) == 0}
	if k != p.cache.hintKey || p.cache.hint == "" {
		items := [][3]string{{"a", "attach", "attach"}, {"o", "open", "open"}, {"c", "copy path", "path"}, {"y", "copy image", "image"}, {"s", "save", "save"}, {"e", "edit", "edit"}, {"esc", "back", "back"}}
		if len(p.items) == 0 {
			items = [][3]string{{"esc", "back", "back"}}
		}
		p.cache.hintKey, p.cache.hint = k, hintLine(st, w, items)
	}
	lines[l.hint] = p.cache.hint
}

// hintLine lists keys with what they do, fitted to w: with the long
// descriptions when they fit, else the short ones, else the short ones
// closer together, else the keys alone.
func hintLine(st themes.Styles, w int, items [][3]string) string {
	build := func(desc int, sep string) (string, int) {
		var b strings.Builder
		n := 1
		b.WriteString(" ")
		for i, it := range items {
			if i > 0 {
				b.WriteString(st.KeyHintSep.Render(sep))
				n += cells.Width(sep)
			}
			b.WriteString(st.KeyHintKey.Render(it[0]))
			n += cells.Width(it[0])
			if desc > 0 {
				b.WriteString(st.KeyHint.Render(" " + it[desc]))
				n += 1 + cells.Width(it[desc])
			}
		}
		return b.String(), n
	}
	forms := []struct {
		desc int
		sep  string
	}{{1, " · "}, {2, " · "}, {2, "  "}, {0, " "}}
	for i, f := range forms {
		if s, n := build(f.desc, f.sep); n <= w || i == len(forms)-1 {
			return cells.Fit(s, w)
		}
	}
	return cells.Spaces(w)
}

// promptLine is the save prompt's input line: its label, then the path
// with the cursor (ui/lineedit keeps the cursor in view). The editor
// learns its width and label here (Draw runs in Update).
func (p *Pane) promptLine(w int) string {
	sp := p.prompt
	label := " Save a copy to: "
	if cells.Width(label) > w/2 {
		label = " "
	}
	if label != sp.label {
		sp.label = label
		sp.edit.SetPrompt(label)
	}
	sp.edit.SetWidth(w)
	return sp.edit.View()
}

// maxPathRows bounds the rows the whole save path takes above the prompt.
const maxPathRows = 3

// wholePath writes the save prompt's path, wrapped, on the rows that end
// at last (never the title's).
func (p *Pane) wholePath(lines []string, l layout, last int) {
	st := p.ctx.Styles
	w := max(l.w-2, 8)
	wrapped := strings.Split(ansi.Hardwrap(cells.OneLine(p.prompt.edit.Value()), w, true), "\n")
	n := min(len(wrapped), maxPathRows, last-l.title)
	if n < len(wrapped) {
		// Too long for the rows there are: its end, where the name is.
		wrapped = wrapped[len(wrapped)-n:]
	}
	for i, part := range wrapped {
		lines[last-n+1+i] = st.Muted.Render(cells.Fit("  "+part, l.w))
	}
}

// candLine lists the completion's candidates, the chosen one highlighted.
func (p *Pane) candLine(w int) string {
	st := p.ctx.Styles
	sp := p.prompt
	var b strings.Builder
	b.WriteString(" ")
	used := 1
	for i, c := range sp.cands {
		d := c.Display
		if d == "" {
			d = c.Value
		}
		d = cells.OneLine(d)
		if used+cells.Width(d)+2 > w {
			b.WriteString(st.Muted.Render("…"))
			break
		}
		if i == sp.candIdx {
			b.WriteString(st.Accent.Bold(true).Render(d))
		} else {
			b.WriteString(st.Muted.Render(d))
		}
		b.WriteString("  ")
		used += cells.Width(d) + 2
	}
	return cells.Fit(b.String(), w)
}
