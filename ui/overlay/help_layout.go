package overlay

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/keys"
)

// helpLines renders the groups with bubbles/help, one block per group: the
// title, then keys and descriptions in aligned columns. The key column has
// one width across the whole overlay, so every group reads the same way.
// Blocks go in two columns when two fit side by side. When a group's
// columns are too wide for the box (40 cells), every group takes the
// narrow layout, which wraps each description beside its key instead of
// cutting it.
func helpLines(groups []keys.Group, w int, lk look) []string {
	hm := help.New()
	hm.Styles = help.Styles{
		FullKey:       lk.key,
		FullDesc:      lk.desc,
		FullSeparator: lk.muted,
		Ellipsis:      lk.muted,
		ShortKey:      lk.key,
		ShortDesc:     lk.desc,
	}
	// One layout and one key column for all groups: the widest key when
	// every description fits beside it, else the narrow layout's column,
	// as wide as the widest key up to a third of the width (longer keys
	// take a line of their own), so descriptions keep most of the room.
	keyW, narrowCol, wide := 0, 0, true
	for _, g := range groups {
		for _, b := range g.Bindings {
			if b.Enabled() {
				keyW = max(keyW, lipgloss.Width(cells.OneLine(b.Help().Key)))
			}
		}
	}
	for _, g := range groups {
		for _, b := range g.Bindings {
			if !b.Enabled() {
				continue
			}
			kw := lipgloss.Width(cells.OneLine(b.Help().Key))
			if kw <= w/3 {
				narrowCol = max(narrowCol, kw)
			}
			if keyW+1+lipgloss.Width(cells.OneLine(b.Help().Desc)) > w {
				wide = false
			}
		}
	}
	var blocks [][]string
	widest := 0
	for _, g := range groups {
		var bs []key.Binding
		for _, b := range g.Bindings {
			if b.Enabled() {
				// A copy with the key padded so every group's columns line up.
				pb := key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(padRight(cells.OneLine(b.Help().Key), keyW), cells.OneLine(b.Help().Desc)))
				bs = append(bs, pb)
			}
		}
		if len(bs) == 0 {
			continue
		}
		b := []string{lk.heading.Render(cells.Truncate(cells.OneLine(g.Title), w))}
		if wide {
			b = append(b, strings.Split(hm.FullHelpView([][]key.Binding{bs}), "\n")...)
		} else {
			b = append(b, narrowHelp(bs, narrowCol, w, lk)...)
		}
		for _, l := range b {
			widest = max(widest, lipgloss.Width(l))
		}
		blocks = append(blocks, b)
	}
	if len(blocks) > 1 && 2*widest+helpColGap <= w {
		return twoColumns(blocks, widest)
	}
	var out []string
	for i, b := range blocks {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, b...)
	}
	return out
}

// narrowHelp lays bindings out for a narrow box: a key column col cells
// wide; descriptions wrap beside it; a key longer than the column gets its
// own line with the description under it.
func narrowHelp(bs []key.Binding, col, w int, lk look) []string {
	descW := max(w-col-1, 1)
	var out []string
	for _, b := range bs {
		k := strings.TrimRight(b.Help().Key, " ")
		desc := wrapText(b.Help().Desc, descW)
		if lipgloss.Width(k) > col {
			for _, l := range wrapText(k, w) {
				out = append(out, lk.key.Render(l))
			}
			k = ""
		}
		pad := strings.Repeat(" ", col+1)
		for i, d := range desc {
			if i == 0 {
				out = append(out, lk.key.Render(padRight(k, col))+" "+lk.desc.Render(d))
				continue
			}
			out = append(out, pad+lk.desc.Render(d))
		}
	}
	return out
}

func padRight(s string, w int) string {
	if gap := w - lipgloss.Width(s); gap > 0 {
		return s + strings.Repeat(" ", gap)
	}
	return s
}

// twoColumns places blocks in two columns of colW cells, filling the left
// column first and keeping whole blocks together, balanced by height.
func twoColumns(blocks [][]string, colW int) []string {
	total := 0
	for _, b := range blocks {
		total += len(b) + 1
	}
	var left, right []string
	for _, b := range blocks {
		col := &left
		if len(left) > 0 && len(left)+len(b)/2 >= total/2 {
			col = &right
		}
		if len(*col) > 0 {
			*col = append(*col, "")
		}
		*col = append(*col, b...)
	}
	n := max(len(left), len(right))
	out := make([]string, n)
	gap := strings.Repeat(" ", helpColGap)
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = cells.Fit(l, colW) + gap + r
	}
	return out
}
