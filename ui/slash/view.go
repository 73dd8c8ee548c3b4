package slash

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"parley/ui/keys"
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
	minSummary = 8
	// maxKeyCol bounds the key column ("f3/alt+t").
	maxKeyCol = 12
	// minFramed is the smallest area that gets a frame.
	minFramedW, minFramedH = 16, 4
)

// viewCache is the last rendering and what it was made from besides the
// list's own state (a change of which replaces the cache).
type viewCache struct {
	valid  bool
	w, h   int
	gen    int
	labels []string // key labels of the commands shown
	out    string
}

// Height is how tall the list wants to be, at most maxH: the frame and one
// row per command up to MaxRows. It does not change while the user types,
// so the screen does not jump.
func (l List[E]) Height(maxH int) int {
	want := chrome + max(min(len(l.reg.cmds), MaxRows), 2)
	return max(min(want, maxH), 0)
}

// View renders the list into exactly height lines of exactly width cells.
// It is cached: while neither the list, the size, the theme nor the keys
// of the commands shown change, it returns the same string.
func (l List[E]) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	var buf [MaxRows + 1]string
	labels := l.shownLabels(buf[:0], width, height)
	c := l.cache
	if c != nil && c.valid && c.w == width && c.h == height && c.gen == l.ctx.StyleGen && slices.Equal(c.labels, labels) {
		return c.out
	}
	out := l.render(width, height)
	if c != nil {
		*c = viewCache{valid: true, w: width, h: height, gen: l.ctx.StyleGen, labels: slices.Clone(labels), out: out}
	}
	return out
}

// bodyRows is how many rows of content fit in an area height lines tall.
func bodyRows(width, height int) int {
	if framed(width, height) {
		return height - chrome
	}
	return height
}

func framed(width, height int) bool { return width >= minFramedW && height >= minFramedH }

// shownLabels appends the key labels of the commands the view shows.
func (l List[E]) shownLabels(dst []string, width, height int) []string {
	switch l.mode {
	case modeName:
		rows := bodyRows(width, height)
		off := offset(l.cursor, rows)
		for r := off; r < off+rows && r < len(l.matches); r++ {
			dst = append(dst, l.label(l.reg.cmds[l.matches[r].cmd].Action))
		}
	case modeArgs:
		dst = append(dst, l.label(l.reg.cmds[l.cmd].Action))
	}
	return dst
}

// label is the key of an action as the help shows it ("ctrl+o"), or "".
func (l List[E]) label(action string) string {
	if action == "" {
		return ""
	}
	b, ok := l.ctx.Keys.Binding(action)
	if !ok {
		return ""
	}
	return keys.Short(b)
}

// offset is the first row shown so that row cursor is visible in rows.
func offset(cursor, rows int) int {
	return max(cursor-rows+1, 0)
}

// render draws the list: the rows in a frame titled "Commands" with a key
// hint at the bottom, or the bare rows when the area is too small.
func (l List[E]) render(w, h int) string {
	lk := lookFor(l.ctx)
	if !framed(w, h) {
		return strings.Join(l.body(lk, w, h), "\n")
	}
	cw := w - 4 // border and one column of padding each side
	var inner []string
	for _, line := range l.body(lk, cw, h-chrome) {
		inner = append(inner, " "+line+" ")
	}
	inner = append(inner, " "+fit(lk.muted.Render(l.hint(cw)), cw)+" ")
	title := " " + lk.title.Render("Commands") + " "
	return strings.Join(frame(inner, w-2, lk.border, title), "\n")
}

// body returns exactly n lines of exactly w cells.
func (l List[E]) body(lk look, w, n int) []string {
	var lines []string
	switch l.mode {
	case modeName:
		lines = l.nameLines(lk, w, n)
	case modeArgs:
		lines = l.argLines(lk, w, n)
	case modeLiteral:
		lines = []string{lk.muted.Render(firstKey(l.ctx.Keys.Select, "enter")+" sends ") + lk.text.Render("“"+oneLine(l.input[1:])+"”") + lk.muted.Render(" as a message")}
	}
	out := make([]string, n)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return out
}

// nameLines lists the commands that match what is typed.
func (l List[E]) nameLines(lk look, w, n int) []string {
	if len(l.matches) == 0 {
		lines := []string{lk.errText.Render("no command matches “/" + oneLine(l.query) + "”")}
		if s := l.sugg; s != "" {
			lines = append(lines, lk.muted.Render("did you mean ")+lk.name.Render("/"+s)+lk.muted.Render("?"))
		}
		return lines
	}
	cols := l.columns(w)
	off := offset(l.cursor, n)
	var lines []string
	for r := off; r < off+n && r < len(l.matches); r++ {
		m := l.matches[r]
		lines = append(lines, l.commandRow(lk, l.reg.cmds[m.cmd], m.hits, r == l.cursor, false, cols, w))
	}
	return lines
}

// argLines shows the command being given arguments, then the candidates
// for the word being typed, or its options.
func (l List[E]) argLines(lk look, w, n int) []string {
	c := l.reg.cmds[l.cmd]
	lines := []string{l.commandRow(lk, c, nil, false, true, l.columns(w), w)}
	rows := n - 1
	if rows <= 0 {
		return lines
	}
	if len(l.cands) > 0 {
		off := offset(l.cursor, rows)
		for r := off; r < off+rows && r < len(l.cands); r++ {
			lines = append(lines, candidateRow(lk, l.cands[r], r == l.cursor, w))
		}
		return lines
	}
	switch {
	case l.pending:
	case len(c.Flags) > 0:
		for _, f := range c.Flags {
			lines = append(lines, "  "+lk.name.Render(f.usage())+"  "+lk.muted.Render(oneLine(f.Usage)))
		}
	case c.Complete != nil && l.arg.Word != "":
		lines = append(lines, lk.muted.Render("  no match for “"+oneLine(l.arg.Word)+"”"))
	}
	return lines
}

// columns is the widths of a command row's parts.
type columns struct{ name, summary, key int }

// columns sizes the usage, summary and key columns for rows w cells wide.
// They are sized over every command, not the ones shown, so they do not
// move while the user types. The key column goes first when space is
// short, then the summary.
func (l List[E]) columns(w int) columns {
	avail := w - 2 // the marker
	nameW, keyW := 0, 0
	for _, c := range l.reg.cmds {
		nameW = max(nameW, width(c.Usage()))
		keyW = max(keyW, width(l.label(c.Action)))
	}
	cols := columns{name: min(nameW, max(avail*2/5, 12)), key: min(keyW, maxKeyCol)}
	cols.summary = avail - cols.name - 2
	if cols.key > 0 {
		cols.summary -= cols.key + 2
		if cols.summary < minSummary {
			cols.summary += cols.key + 2
			cols.key = 0
		}
	}
	if cols.summary < minSummary {
		cols.summary, cols.key = 0, 0
		cols.name = max(avail, 0)
	}
	return cols
}

// commandRow renders one command: marker, "/name args" with the matched
// letters marked, summary, and its key at the right.
func (l List[E]) commandRow(lk look, c Command[E], hits []bool, selected, header bool, cols columns, w int) string {
	st := func(s lipgloss.Style) lipgloss.Style {
		if selected {
			return s.Inherit(lk.selected)
		}
		return s
	}
	marker := "  "
	switch {
	case selected:
		marker = "▸ "
	case header:
		marker = "› "
	}
	nameStyle := lk.name
	if header {
		nameStyle = lk.header
	}
	usage := st(nameStyle).Render("/") + highlight(c.Name, hits, st(nameStyle), st(lk.match))
	if c.Args != "" {
		usage += st(lk.args).Render(" " + oneLine(c.Args))
	}
	gap := st(lk.text).Render("  ")
	row := st(lk.marker).Render(marker) + fitStyled(usage, cols.name, st(lk.text))
	if cols.summary > 0 {
		row += gap + fitStyled(st(lk.text).Render(oneLine(c.Summary)), cols.summary, st(lk.text))
	}
	if cols.key > 0 {
		k := truncate(l.label(c.Action), cols.key)
		row += gap + st(lk.text).Render(strings.Repeat(" ", cols.key-width(k))) + st(lk.key).Render(k)
	}
	return fitStyled(row, w, st(lk.text))
}

// candidateRow renders one argument candidate with its detail.
func candidateRow(lk look, c Completion, selected bool, w int) string {
	st := func(s lipgloss.Style) lipgloss.Style {
		if selected {
			return s.Inherit(lk.selected)
		}
		return s
	}
	marker := "  "
	if selected {
		marker = "▸ "
	}
	shown := c.Display
	if shown == "" {
		shown = c.Value
	}
	row := st(lk.marker).Render(marker) + st(lk.text).Render(oneLine(shown))
	if c.Detail != "" {
		row += st(lk.muted).Render("  " + oneLine(c.Detail))
	}
	return fitStyled(row, w, st(lk.text))
}

// fitStyled is fit with the padding drawn in pad's style, so a highlighted
// row's background runs to its end.
func fitStyled(s string, w int, pad lipgloss.Style) string {
	if w <= 0 {
		return ""
	}
	s = truncate(s, w)
	if gap := w - width(s); gap > 0 {
		s += pad.Render(strings.Repeat(" ", gap))
	}
	return s
}

// highlight renders an ASCII name with the bytes marked in hits in the
// match style.
func highlight(name string, hits []bool, base, match lipgloss.Style) string {
	if len(hits) == 0 {
		return base.Render(name)
	}
	var b strings.Builder
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || hits[i] != hits[start] {
			s := base
			if hits[start] {
				s = match
			}
			b.WriteString(s.Render(name[start:i]))
			start = i
		}
	}
	return b.String()
}

// hint is the longest key hint for the list's state that fits w cells.
func (l List[E]) hint(w int) string {
	enter := firstKey(l.ctx.Keys.Select, "enter")
	esc := firstKey(l.ctx.Keys.Close, "esc")
	var options []string
	switch {
	case l.mode == modeLiteral:
		options = []string{enter + " send · " + esc + " close"}
	case l.mode == modeName && len(l.matches) == 0:
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
		if width(o) <= w {
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
// wide, with title set into the top border.
func frame(inner []string, innerW int, border lipgloss.Style, title string) []string {
	b := lipgloss.RoundedBorder()
	out := make([]string, 0, len(inner)+2)
	t := truncate(title, max(innerW-2, 0))
	out = append(out, border.Render(b.TopLeft+b.Top)+t+border.Render(strings.Repeat(b.Top, max(innerW-1-width(t), 0))+b.TopRight))
	l, r := border.Render(b.Left), border.Render(b.Right)
	for _, line := range inner {
		out = append(out, l+line+r)
	}
	out = append(out, border.Render(b.BottomLeft+strings.Repeat(b.Bottom, innerW)+b.BottomRight))
	return out
}
