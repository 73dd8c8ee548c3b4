package mdstream

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Tables sized to their content (Options.FitTables). glamour gives every
// table the full width (lipgloss's table widens its columns to fill it),
// so a two-column table of short words spans the screen. The renderer
// marks tables (the table style's block prefix and suffix, which glamour
// writes around the table and, as the cell style, around every cell's
// text); fitTables finds each table by the marks, reads its columns from
// the header's separator line ("───┼───"), and keeps of each column only
// the cells any line uses, plus one cell of padding on each side. A table
// that needed its full width (wrapped cells) keeps it. Cell alignment is
// kept: the kept window covers what every row shows.

// fitTables shrinks the tables in glamour's output and removes the marks.
func fitTables(out string) string {
	if !strings.Contains(out, tableMark) {
		return out
	}
	lines := strings.Split(out, "\n")
	depth := 0
	start := -1
	for i, l := range lines {
		before := depth
		depth += strings.Count(l, tableMark) - strings.Count(l, tableEndMark)
		depth = max(depth, 0)
		if before == 0 && depth > 0 {
			start = i
		}
		if start >= 0 && depth == 0 {
			fitTable(lines[start : i+1])
			start = -1
		}
	}
	for i, l := range lines {
		lines[i] = unmark(l)
	}
	return strings.Join(lines, "\n")
}

// unmark removes table marks from a line.
func unmark(l string) string {
	if strings.Contains(l, tableMark) {
		l = strings.ReplaceAll(l, tableMark, "")
	}
	if strings.Contains(l, tableEndMark) {
		l = strings.ReplaceAll(l, tableEndMark, "")
	}
	return l
}

// span is a range of cell columns [from, to).
type span struct{ from, to int }

// fitTable shrinks one table's lines in place. Each line is walked once
// (to find what its columns show, and where its cells start in bytes).
func fitTable(lines []string) {
	for i := range lines {
		lines[i] = unmark(lines[i])
	}
	sep, cols := separatorLine(lines)
	if sep < 0 {
		return
	}
	used, ok := usedColumns(lines, sep, cols)
	if !ok {
		return
	}
	keep, shrunk := keptColumns(cols, used)
	if !shrunk {
		return
	}
	at := cutPoints(cols, keep)
	var b strings.Builder
	for i, l := range lines {
		lines[i] = cutLine(&b, l, at, keep, i == sep)
	}
}

// separatorLine finds the header's separator line ("───┼───") and the
// columns it shows; sep is -1 when there is none.
func separatorLine(lines []string) (sep int, cols []span) {
	for i, l := range lines {
		if c, ok := separatorColumns(ansi.Strip(l)); ok {
			return i, c
		}
	}
	return -1, nil
}

// usedColumns is what each column shows, over every line but the
// separator (from -1: nothing). It is not ok when a line does not follow
// the columns: glamour misplaces some tables (inside a block quote the
// separator line loses the quote's bar and shifts), which are left as
// they are.
func usedColumns(lines []string, sep int, cols []span) ([]span, bool) {
	used := make([]span, len(cols))
	for k := range used {
		used[k] = span{from: -1}
	}
	for i, l := range lines {
		if i == sep {
			continue
		}
		shown, ok := lineColumns(l, cols)
		if !ok {
			return nil, false
		}
		for k, c := range shown {
			if c.from < 0 {
				continue
			}
			if used[k].from < 0 || c.from < used[k].from {
				used[k].from = c.from
			}
			used[k].to = max(used[k].to, c.to)
		}
	}
	return used, true
}

// keptColumns is the window of each column that stays: what it shows and
// one cell of padding on each side (an empty column keeps its padding).
// shrunk says whether any column loses cells.
func keptColumns(cols, used []span) (keep []span, shrunk bool) {
	keep = make([]span, len(cols))
	for k, c := range cols {
		w := span{from: c.from, to: min(c.from+2, c.to)}
		if used[k].from >= 0 {
			w = span{from: max(used[k].from-1, c.from), to: min(used[k].to+1, c.to)}
		}
		keep[k] = w
		shrunk = shrunk || w != c
	}
	return keep, shrunk
}

// cutPoints are the cells each line is cut at: the table's left edge,
// each kept window, each border, the right edge.
func cutPoints(cols, keep []span) []int {
	at := make([]int, 0, 3*len(cols)+1)
	at = append(at, cols[0].from)
	for k, w := range keep {
		if k > 0 {
			at = append(at, cols[k].from-1, cols[k].from)
		}
		at = append(at, w.from, w.to)
	}
	return append(at, cols[len(cols)-1].to)
}

// cutLine keeps of line l its kept windows and the borders between them,
// in b; the separator line's windows are drawn again at their new width.
func cutLine(b *strings.Builder, l string, at []int, keep []span, isSep bool) string {
	off := cellOffsets(l, at)
	b.Reset()
	b.WriteString(l[:off[0]])
	j := 1
	for k, w := range keep {
		if k > 0 {
			b.WriteString(l[off[j]:off[j+1]]) // the column border
			j += 2
		}
		if isSep {
			b.WriteString(l[off[j]:off[j+1]][:len("─")]) // keeps the line's style
			b.WriteString(strings.Repeat("─", w.to-w.from-1))
		} else {
			b.WriteString(l[off[j]:off[j+1]])
		}
		j += 2
	}
	if rest := l[off[j]:]; strings.TrimSpace(ansi.Strip(rest)) != "" {
		b.WriteString(rest)
	}
	s := b.String()
	if strings.IndexByte(s, 0x1b) >= 0 && !strings.HasSuffix(s, sgrReset) {
		s += sgrReset
	}
	return s
}

// cellOffsets returns the byte offset in s where each cell column of cols
// (ascending) starts: before any escape sequence that precedes the
// character there, so a style opened for a cell stays with the cell.
func cellOffsets(s string, cols []int) []int {
	out := make([]int, len(cols))
	k, w := 0, 0
	for i := 0; i < len(s) && k < len(cols); {
		for k < len(cols) && w >= cols[k] {
			out[k] = i
			k++
		}
		if k == len(cols) {
			break
		}
		if s[i] == 0x1b {
			n, _ := escapeLen(s[i:])
			i += max(n, 1)
			continue
		}
		g, gw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		i += max(len(g), 1)
		w += gw
	}
	for ; k < len(cols); k++ {
		out[k] = len(s)
	}
	return out
}

// separatorColumns reads the columns of a table from its header separator
// line: a run of "─" broken by "┼", after any prefix (a quote's bar, an
// indent). It returns the column spans between the "┼".
func separatorColumns(l string) ([]span, bool) {
	i := strings.Index(l, "─")
	if i < 0 {
		return nil, false
	}
	body := strings.TrimRight(l[i:], " ")
	if strings.Trim(body, "─┼") != "" || !strings.Contains(body, "┼") {
		return nil, false
	}
	col := ansi.StringWidth(l[:i])
	var cols []span
	from := col
	for _, r := range body {
		if r == '┼' {
			cols = append(cols, span{from, col})
			from = col + 1
		}
		col++
	}
	cols = append(cols, span{from, col})
	return cols, true
}

// lineColumns returns, for each column, the cells of a table line that
// show text ({-1, -1} for none), and false when the line's borders are not
// where the separator has them (a line that shows nothing in the table's
// columns is fine).
func lineColumns(l string, cols []span) ([]span, bool) {
	shown := make([]span, len(cols))
	for k := range shown {
		shown[k] = span{-1, -1}
	}
	left, right := cols[0].from, cols[len(cols)-1].to
	borderOK := true
	any := false
	k, w := 0, 0
	for i := 0; i < len(l) && w < right; {
		if l[i] == 0x1b {
			n, _ := escapeLen(l[i:])
			i += max(n, 1)
			continue
		}
		g, gw := ansi.FirstGraphemeCluster(l[i:], ansi.GraphemeWidth)
		i += max(len(g), 1)
		if w >= left {
			for k < len(cols)-1 && w >= cols[k].to {
				k++
			}
			switch {
			case w < cols[k].from: // on the border before column k
				if g != "│" {
					borderOK = false
				}
				if g != " " {
					any = true
				}
			case g != " ":
				any = true
				if shown[k].from < 0 {
					shown[k].from = w
				}
				shown[k].to = w + gw
			}
		}
		w += gw
	}
	return shown, borderOK || !any
}
