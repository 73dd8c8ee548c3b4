package slash

import (
	"strings"

	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/list"
	"parley/ui/uictx"
)

// columns is the widths of a command row's parts; short says the key
// column shows each action's first key only.
type columns struct {
	name, summary, key int
	short              bool
}

// nameRows is what the command rows are drawn from: the commands and
// the keys of their actions, read when the list opened.
type nameRows[E any] struct {
	cmds          []Command[E]
	labels, short []string
}

// nameOptions makes the list of commands: filtered by name or alias,
// each row drawn by commandRow.
func nameOptions[E any](ctx *uictx.Context, cmds []Command[E], labels, short []string) list.Options[int] {
	nr := nameRows[E]{cmds: cmds, labels: labels, short: short}
	if len(nr.labels) != len(cmds) {
		nr.labels, nr.short = make([]string, len(cmds)), make([]string, len(cmds))
	}
	return list.Options[int]{
		Text:    func(i int) string { return cmds[i].Name },
		Aliases: func(i int) []string { return cmds[i].Aliases },
		Render: func(r list.Row[int]) string {
			return nr.commandRow(lookFor(ctx), r.Item, r.Hits, r.Selected, nr.columns(r.Width), r.Width)
		},
	}
}

// candOptions makes the list of argument candidates.
func candOptions(ctx *uictx.Context) list.Options[Completion] {
	return list.Options[Completion]{
		Render: func(r list.Row[Completion]) string { return candidateRow(lookFor(ctx), r.Item, r.Selected, r.Width) },
	}
}

// columns sizes the usage, summary and key columns for rows w cells wide:
// marker, usage, two spaces, summary, a space, key. They are sized over
// every command, not the ones shown, so they do not move while the user
// types. When space is short the key column shows first keys only, then
// goes, then the summary goes.
func (l nameRows[E]) columns(w int) columns {
	avail := w - 2 // the marker
	nameW, keyW, shortW := 0, 0, 0
	for i, c := range l.cmds {
		nameW = max(nameW, cells.Width(c.Usage()))
		keyW = max(keyW, cells.Width(l.labels[i]))
		shortW = max(shortW, cells.Width(l.short[i]))
	}
	cols := columns{name: min(nameW, max(avail*2/5, 12))}
	rest := avail - cols.name - 2
	switch {
	case keyW > 0 && rest-min(keyW, maxKeyCol)-1 >= minSummary:
		cols.key = min(keyW, maxKeyCol)
	case shortW > 0 && rest-min(shortW, maxKeyCol)-1 >= minSummary:
		cols.key, cols.short = min(shortW, maxKeyCol), true
	}
	cols.summary = rest
	if cols.key > 0 {
		cols.summary -= cols.key + 1
	}
	if cols.summary < minSummary {
		cols = columns{name: max(avail, 0)}
	}
	return cols
}

// commandRow renders one command: marker, "/name args" with the matched
// letters marked, summary, and its key at the right.
func (l nameRows[E]) commandRow(lk look, i int, hits []bool, selected bool, cols columns, w int) string {
	c := l.cmds[i]
	st, match := rowStyles(lk, selected)
	marker := "  "
	if selected {
		marker = "▸ "
	}
	usage := st(lk.name).Render("/") + list.Highlight(cells.OneLine(c.Name), hits, st(lk.name), match)
	if c.Args != "" {
		usage += st(lk.args).Render(" " + cells.OneLine(c.Args))
	}
	row := st(lk.marker).Render(marker) + fitStyled(usage, cols.name, st(lk.text))
	if cols.summary > 0 {
		row += st(lk.text).Render("  ") + fitStyled(st(lk.text).Render(cells.OneLine(c.Summary)), cols.summary, st(lk.text))
	}
	if cols.key > 0 {
		k := l.labels[i]
		if cols.short {
			k = l.short[i]
		}
		k = cells.Truncate(k, cols.key)
		row += st(lk.text).Render(strings.Repeat(" ", 1+cols.key-cells.Width(k)))
		if k != "" {
			row += st(lk.key).Render(k)
		}
	}
	return fitStyled(row, w, st(lk.text))
}

// headerRow renders the command whose arguments are being typed: its full
// usage first, then as much of the summary as fits, its key at the right.
func (l List[E]) headerRow(lk look, i int, w int) string {
	c := l.reg.cmds[i]
	usage := lk.header.Render(c.Usage())
	if c.Args != "" {
		usage = lk.header.Render("/"+c.Name) + lk.args.Render(" "+cells.OneLine(c.Args))
	}
	k := l.labels[i]
	room := w - 2
	if k != "" && room-cells.Width(c.Usage())-2-cells.Width(k)-1 < minSummary {
		k = l.shortLabels[i]
	}
	if k != "" && room-cells.Width(c.Usage())-1-cells.Width(k) < 0 {
		k = ""
	}
	left := lk.header.Render("› ") + usage
	if k == "" {
		return cells.Fit(left+lk.text.Render("  ")+lk.text.Render(cells.OneLine(c.Summary)), w)
	}
	left = cells.Fit(left+lk.text.Render("  ")+lk.text.Render(cells.OneLine(c.Summary)), w-1-cells.Width(k))
	return left + " " + lk.key.Render(k)
}

// candidateRow renders one argument candidate with its detail.
func candidateRow(lk look, c Completion, selected bool, w int) string {
	st, _ := rowStyles(lk, selected)
	marker := "  "
	if selected {
		marker = "▸ "
	}
	shown := c.Display
	if shown == "" {
		shown = c.Value
	}
	row := st(lk.marker).Render(marker) + st(lk.text).Render(cells.OneLine(shown))
	if c.Detail != "" {
		row += st(lk.muted).Render("  " + cells.OneLine(c.Detail))
	}
	return fitStyled(row, w, st(lk.text))
}

// rowStyles returns the style to draw each part of a row with, and the
// style of matched letters. The highlighted row is drawn in the selection
// style throughout (the theme's selection colours are chosen to be read
// together; an accent on the selection background may not be), matches
// underlined.
func rowStyles(lk look, selected bool) (func(lipgloss.Style) lipgloss.Style, lipgloss.Style) {
	if selected {
		return func(lipgloss.Style) lipgloss.Style { return lk.selected }, lk.selected.Underline(true)
	}
	return func(s lipgloss.Style) lipgloss.Style { return s }, lk.match
}

// fitStyled is fit with the padding drawn in pad's style, so a highlighted
// row's background runs to its end.
func fitStyled(s string, w int, pad lipgloss.Style) string {
	if w <= 0 {
		return ""
	}
	s = cells.Truncate(s, w)
	if gap := w - cells.Width(s); gap > 0 {
		s += pad.Render(strings.Repeat(" ", gap))
	}
	return s
}
