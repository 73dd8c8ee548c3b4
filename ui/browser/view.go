package browser

import (
	"strconv"
	"strings"

	"parley/ui/cells"
)

// Status texts.
const (
	readingText   = "reading the history…"
	searchingText = "searching every message…"
	timedOutText  = "search took too long; try more specific words"
)

// roomy is the height from which the browser has a blank line under the
// input and a status line above its keys.
const roomy = 7

// rows splits the height: the list gets what the title, the input, the
// keys and (when roomy) the blank and status lines leave.
func (b *Browser) rows() int {
	fixed := 3
	if b.h >= roomy {
		fixed += 1 + len(b.statusLines())
	}
	return max(b.h-fixed, 0)
}

// errLines is the error wrapped whole over as many lines as it takes,
// leaving the list one row; only a window too small for that cuts it,
// saying so.
func (b *Browser) errLines() []string {
	room := max(b.h-6, 1)
	return cells.WrapWithin(b.err, max(b.w-1, 1), room, "make the window larger to read the rest")
}

// layout hands the parts their sizes and the list its status, after any
// change.
func (b *Browser) layout() {
	b.list.SetSize(b.w, b.rows())
	b.filter.SetWidth(b.w)
	b.rename.SetWidth(b.w)
	switch {
	case !b.loaded:
		b.list.SetStatus(readingText)
	case b.timedOut:
		b.list.SetStatus(timedOutText)
	case b.searching:
		b.list.SetStatus(searchingText)
	default:
		b.list.SetStatus("")
	}
	b.rev++
}

// View draws the browser in exactly its size: the title with the
// position, the input, the rows, a status line and the keys.
// Draw is the browser filling its rectangle (uictx.Component).
func (b *Browser) Draw() (string, int, int) { return b.View(), 0, 0 }

// View is the browser, drawn into its whole rectangle.
func (b *Browser) View() string {
	if b.w <= 0 || b.h <= 0 {
		return ""
	}
	if v := b.view; v.ok && v.rev == b.rev && v.gen == b.ctx.StyleGen {
		return v.out
	}
	out := b.render()
	b.view = viewCache{rev: b.rev, gen: b.ctx.StyleGen, ok: true, out: out}
	return out
}

func (b *Browser) render() string {
	w := b.w
	lines := make([]string, 0, b.h)
	lines = append(lines, b.titleLine())
	if b.h >= 2 {
		lines = append(lines, b.inputLine())
	}
	if b.h >= roomy {
		lines = append(lines, cells.Spaces(w))
	}
	if n := b.rows(); n > 0 {
		lines = append(lines, strings.Split(b.list.View(), "\n")...)
	}
	if b.h >= roomy {
		lines = append(lines, b.statusLines()...)
	}
	if b.h >= 3 {
		lines = append(lines, b.hints.Line(b.ctx, b.Hints(), w))
	}
	return cells.Stack(lines, w, b.h)
}

// titleLine is "Sessions · N" with the cursor's position at the right
// when the rows do not all fit.
func (b *Browser) titleLine() string {
	st := &b.ctx.Styles
	t := " Sessions"
	if b.loaded {
		t += " · " + strconv.Itoa(len(b.all))
	}
	pos := b.list.Position()
	if pos == "" || cells.Width(t)+cells.Width(pos)+2 > b.w {
		return st.OverlayTitle.Render(cells.Fit(t, b.w))
	}
	return st.OverlayTitle.Render(cells.Fit(t, b.w-cells.Width(pos)-1)) + st.Muted.Render(pos+" ")
}

// inputLine is the filter, the new title being typed, or the question
// before a delete.
func (b *Browser) inputLine() string {
	switch b.mode {
	case renaming:
		return b.rename.View()
	case confirmingDelete:
		e, _ := b.list.Selected()
		q := " delete “" + e.title() + "” and its messages? y deletes, any other key keeps it"
		return b.ctx.Styles.Warning.Render(cells.Fit(q, b.w))
	}
	return b.filter.View()
}

// statusLines say what went wrong (every word of it), or how the search
// is going while rows are shown (with no rows, the list itself says it).
func (b *Browser) statusLines() []string {
	st := &b.ctx.Styles
	switch {
	case b.err != "":
		ls := b.errLines()
		for i, l := range ls {
			ls[i] = st.Error.Render(cells.Fit(" "+l, b.w))
		}
		return ls
	case b.list.Len() == 0:
	case b.timedOut:
		return []string{st.Warning.Render(cells.Fit(" "+timedOutText, b.w))}
	case b.searching:
		return []string{st.Muted.Render(cells.Fit(" "+searchingText, b.w))}
	}
	return []string{cells.Spaces(b.w)}
}
