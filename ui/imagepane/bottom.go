package imagepane

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/cells"
)

// drawBottom writes the hint line, or the save prompt, or a note.
func (p *Pane) drawBottom(lines []string, l layout) {
	st := &p.ctx.Styles
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
			p.wholeError(lines, l, msgRow)
			return
		case len(sp.cands) > 0:
			msg = p.candLine(w)
		case cells.Width(sp.label)+cells.Width(sp.edit.Value())+1 > w:
			// The path does not fit on the prompt's line: it is shown
			// whole above it, wrapped, so what enter saves is in view.
			p.wholePath(lines, l, msgRow)
			return
		default:
			// Every key types into the prompt, f1 too: no help hint.
			msg = hintLine(st, w, promptHints, hint{})
		}
		lines[msgRow] = msg
		return
	}
	if l.hint < 0 {
		return
	}
	k := hintKey{w, p.ctx.StyleGen, len(p.items) == 0}
	if k != p.cache.hintKey || p.cache.hint == "" {
		items := paneHints
		if len(p.items) == 0 {
			items = emptyHints
		}
		p.cache.hintKey, p.cache.hint = k, hintLine(st, w, items, p.helpHint())
	}
	lines[l.hint] = p.cache.hint
}

// hint is one key of a hint line: the key, what it does in words (long
// and short), and its rank (0 matters most). A line too narrow for every
// key leaves out the highest ranks, never the words.
type hint struct {
	key, long, short string
	rank             int
}

// paneHints are the pane's keys in the order shown. Leaving comes first
// (esc back), then the help once a key is left out (rank 1, helpHint),
// then what is done with an image most: attach it, save a copy, open it;
// the copies and edit are left out first.
var paneHints = []hint{
	{"a", "attach", "attach", 2}, {"o", "open", "open", 4}, {"c", "copy path", "path", 5},
	{"y", "copy image", "image", 6}, {"s", "save", "save", 3}, {"e", "edit", "edit", 7},
	{"esc", "back", "back", 0},
}

// emptyHints is the hint of a pane without images.
var emptyHints = []hint{{"esc", "back", "back", 0}}

// promptHints are the save prompt's keys: enter saves, esc cancels; tab
// completes, which is left out first.
var promptHints = []hint{{"tab", "complete", "complete", 2}, {"enter", "save", "save", 0}, {"esc", "cancel", "cancel", 1}}

// helpHint is the key of the help, which lists every key of the pane:
// shown when the hint line leaves a key out. None when help is unbound.
func (p *Pane) helpHint() hint {
	if ks := p.ctx.Keys.Help.Keys(); len(ks) > 0 {
		return hint{ks[0], "all keys", "keys", 1}
	}
	return hint{}
}

// hintLine lists keys with what they do, fitted to w: with the long
// descriptions when they fit, else the short ones, else the short ones
// closer together. When not even that fits, the highest ranks are left
// out one at a time, and help (when given) joins the line to say where
// they are; a key is never shown without its word.
func hintLine(st *themes.Styles, w int, items []hint, help hint) string {
	forms := []struct {
		long bool
		sep  string
	}{{true, " · "}, {false, " · "}, {false, "  "}}
	shown, helped := items, help.key == ""
	for {
		for _, f := range forms {
			if s, n := buildHints(st, shown, f.long, f.sep); n <= w {
				return cells.Fit(s, w)
			}
		}
		if len(shown) <= 1 {
			s, _ := buildHints(st, shown, false, "  ")
			return cells.Fit(s, w)
		}
		if !helped {
			shown, helped = append(slices.Clone(items), help), true
		}
		shown = withoutLast(shown)
	}
}

// withoutLast is items without the one of the highest rank (the last of
// them when several share it).
func withoutLast(items []hint) []hint {
	worst := 0
	for i, it := range items {
		if it.rank >= items[worst].rank {
			worst = i
		}
	}
	return slices.Delete(slices.Clone(items), worst, worst+1)
}

// buildHints writes items as "key word" pairs joined by sep, and its
// width in cells.
func buildHints(st *themes.Styles, items []hint, long bool, sep string) (string, int) {
	var b strings.Builder
	n := 1
	b.WriteString(" ")
	for i, it := range items {
		if i > 0 {
			b.WriteString(st.KeyHintSep.Render(sep))
			n += cells.Width(sep)
		}
		desc := it.short
		if long {
			desc = it.long
		}
		b.WriteString(st.KeyHintKey.Render(it.key))
		b.WriteString(st.KeyHint.Render(" " + desc))
		n += cells.Width(it.key) + 1 + cells.Width(desc)
	}
	return b.String(), n
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
	st := &p.ctx.Styles
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

// wholeError shows the save prompt's error above it, wrapped over the
// rows it needs up to every row below the title: each word of it, the
// advice last, in view while the path is typed again.
func (p *Pane) wholeError(lines []string, l layout, last int) {
	st := &p.ctx.Styles
	ls := cells.WrapWithin(cells.Fold(p.prompt.err), max(l.w-1, 1), last-l.title, "make the window larger to read the rest")
	for i, part := range ls {
		lines[last-len(ls)+1+i] = st.Error.Render(cells.Fit(" "+part, l.w))
	}
}

// candLine lists the completion's candidates, the chosen one highlighted.
func (p *Pane) candLine(w int) string {
	st := &p.ctx.Styles
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
