package slash

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/list"
	"parley/ui/uictx"
)

// Layout of the list.
const (
	// MaxRows is how many commands the list shows at once; more scroll.
	MaxRows = 8
	// chrome is the frame's lines around the rows: top and bottom border,
	// and the hint line.
	chrome = 3
	// minSummary is the narrowest summary column worth showing; below it
	// the key column goes first, then the summary.
	minSummary = 12
	// maxKeyCol bounds the key column ("f3/alt+t").
	maxKeyCol = 12
	// minFramed is the smallest area that gets a frame.
	minFramedW, minFramedH = 16, 4
	// widePadding is the width from which the frame has padding on both
	// sides.
	widePadding = 60
)

// viewCache is the last rendering and what it was made from besides the
// list's own state (a change of which replaces the cache).
type viewCache struct {
	valid bool
	w, h  int
	gen   int
	out   string
}

// Height is how tall the list wants to be, at most maxH: the frame and one
// row per command up to MaxRows. It does not change while the user types,
// so the screen does not jump.
func (l List[E]) Height(maxH int) int {
	want := chrome + max(min(len(l.reg.cmds), MaxRows), 2)
	return max(min(want, maxH), 0)
}

// View renders the list into exactly height lines of exactly width cells
// (blank while the list is closed). It is cached: while neither the list,
// the size nor the theme's generation change, it returns the same string.
func (l List[E]) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if !l.open {
		return strings.TrimSuffix(strings.Repeat(strings.Repeat(" ", width)+"\n", height), "\n")
	}
	c := l.cache
	if c != nil && c.valid && c.w == width && c.h == height && c.gen == l.ctx.StyleGen {
		return c.out
	}
	out := l.render(width, height)
	if c != nil {
		*c = viewCache{valid: true, w: width, h: height, gen: l.ctx.StyleGen, out: out}
	}
	return out
}

// framed reports whether an area is large enough for the frame.
func framed(width, height int) bool { return width >= minFramedW && height >= minFramedH }

// keyLabels reads the key of each command's action from the key map, as
// the help shows it ("f3/alt+t") and its first key alone ("f3") for narrow
// lists. Reading a binding copies the key map, so this runs when the list
// opens (in Update), not per frame.
func keyLabels[E any](ctx *uictx.Context, cmds []Command[E]) (full, short []string) {
	full, short = make([]string, len(cmds)), make([]string, len(cmds))
	for i, c := range cmds {
		if c.Action == "" {
			continue
		}
		if b, ok := ctx.Keys.Binding(c.Action); ok && b.Enabled() {
			full[i], short[i] = keys.Short(b), firstKey(b, "")
		}
	}
	return full, short
}

// render draws the list: the rows in a frame titled "Commands" (with how
// many match) with a key hint at the bottom and the highlight's position
// at its right when the rows scroll, or the bare rows when the area is
// too small.
func (l List[E]) render(w, h int) string {
	lk := lookFor(l.ctx)
	if !framed(w, h) {
		lines, _ := l.body(lk, w, h)
		return strings.Join(lines, "\n")
	}
	// Inside the border, one column of padding each side; a narrow list
	// gives up the left one (the row marker's blank column is there).
	left := " "
	if w < widePadding {
		left = ""
	}
	cw := w - 3 - len(left)
	body, pos := l.body(lk, cw, h-chrome)
	var inner []string
	for _, line := range body {
		inner = append(inner, left+line+" ")
	}
	hint := l.hint(cw - 1 + len(left))
	inner = append(inner, left+cells.Fit(lk.muted.Render(strings.Repeat(" ", 1-len(left))+hint), cw)+" ")
	title := "Commands"
	if l.mode == modeName {
		title += " · " + strconv.Itoa(l.names.Len())
	}
	if pos != "" {
		pos = " " + lk.muted.Render(pos) + " "
	}
	return strings.Join(frame(inner, w-2, lk.border, " "+lk.title.Render(title)+" ", pos), "\n")
}

// body returns exactly n lines of exactly w cells, and the highlight's
// position ("3/25") when the rows do not all fit, else "".
func (l List[E]) body(lk look, w, n int) ([]string, string) {
	var lines []string
	pos := ""
	switch l.mode {
	case modeName:
		lines, pos = l.nameLines(lk, w, n)
	case modeArgs:
		lines, pos = l.argLines(lk, w, n)
	case modeLiteral:
		lines = []string{lk.muted.Render(firstKey(l.ctx.Keys.Select, "enter")+" sends ") + lk.text.Render("“"+cells.OneLine(l.input[1:])+"”") + lk.muted.Render(" as a message")}
	}
	out := make([]string, n)
	for i := range out {
		if i < len(lines) {
			out[i] = cells.Fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return out, pos
}

// sized draws a list in w×n cells (a copy sized for this view: the list
// learns its height only here) and returns its lines and its position.
func sized[T any](m list.Model[T], w, n int) ([]string, string) {
	if n <= 0 || w <= 0 {
		return nil, ""
	}
	m.SetSize(w, n)
	return strings.Split(m.View(), "\n"), m.Position()
}

// nameLines lists the commands that match what is typed.
func (l List[E]) nameLines(lk look, w, n int) ([]string, string) {
	if l.names.Len() == 0 {
		lines := []string{lk.errText.Render("no command matches “/" + cells.OneLine(l.query) + "”")}
		if s := l.sugg; s != "" {
			lines = append(lines, lk.muted.Render("did you mean ")+lk.name.Render("/"+s)+lk.muted.Render("?"))
		}
		return lines, ""
	}
	return sized(l.names, w, n)
}

// argLines shows the command being given arguments, then the candidates
// for the word being typed, or its options.
func (l List[E]) argLines(lk look, w, n int) ([]string, string) {
	c := l.reg.cmds[l.cmd]
	lines := []string{l.headerRow(lk, l.cmd, w)}
	rows := n - 1
	if rows <= 0 {
		return lines, ""
	}
	if len(l.cands) > 0 {
		more, pos := sized(l.candList, w, rows)
		return append(lines, more...), pos
	}
	switch {
	case l.pending:
	case len(c.Flags) > 0:
		fw := 0
		for _, f := range c.Flags {
			fw = max(fw, cells.Width(f.usage()))
		}
		for _, f := range c.Flags {
			lines = append(lines, "  "+lk.name.Render(f.usage())+strings.Repeat(" ", 2+fw-cells.Width(f.usage()))+lk.muted.Render(cells.OneLine(f.Usage)))
		}
	case c.Complete != nil && l.arg.Word != "":
		lines = append(lines, lk.muted.Render("  nothing matches “"+cells.OneLine(l.arg.Word)+"”"))
	}
	return lines, ""
}

// hint is the longest key hint for the list's state that fits w cells.
func (l List[E]) hint(w int) string {
	enter := firstKey(l.ctx.Keys.Select, "enter")
	esc := firstKey(l.ctx.Keys.Close, "esc")
	var options []string
	switch {
	case l.mode == modeLiteral:
		options = []string{enter + " send · " + esc + " close"}
	case l.mode == modeName && l.names.Len() == 0:
		if s := l.sugg; s != "" {
			options = []string{"tab takes /" + s + " · " + esc + " close", esc + " close"}
		} else {
			options = []string{esc + " close · start with // to send text", esc + " close"}
		}
	case l.rows() > 0:
		base := "tab complete · " + enter + " run · " + esc + " close"
		options = []string{base + " · ↑↓ move", base, enter + " run · " + esc + " close"}
	default:
		options = []string{enter + " run · " + esc + " close"}
	}
	for _, o := range options {
		if cells.Width(o) <= w {
			return o
		}
	}
	return options[len(options)-1]
}

// firstKey is the first key of b, or fallback when b is unbound.
func firstKey(b key.Binding, fallback string) string {
	if ks := b.Keys(); b.Enabled() && len(ks) > 0 {
		return ks[0]
	}
	return fallback
}

// frame draws a rounded border around inner lines that are exactly innerW
// wide, with title set into the top border and foot (the highlight's
// position) near the right end of the bottom one.
func frame(inner []string, innerW int, border lipgloss.Style, title, foot string) []string {
	b := lipgloss.RoundedBorder()
	out := make([]string, 0, len(inner)+2)
	t := cells.Truncate(title, max(innerW-2, 0))
	out = append(out, border.Render(b.TopLeft+b.Top)+t+border.Render(strings.Repeat(b.Top, max(innerW-1-cells.Width(t), 0))+b.TopRight))
	l, r := border.Render(b.Left), border.Render(b.Right)
	for _, line := range inner {
		out = append(out, l+line+r)
	}
	if fw := cells.Width(foot); foot != "" && fw+2 <= innerW {
		out = append(out, border.Render(b.BottomLeft+strings.Repeat(b.Bottom, innerW-fw-1))+foot+border.Render(b.Bottom+b.BottomRight))
	} else {
		out = append(out, border.Render(b.BottomLeft+strings.Repeat(b.Bottom, innerW)+b.BottomRight))
	}
	return out
}
