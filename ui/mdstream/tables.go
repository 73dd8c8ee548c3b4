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

// fitTable shrinks one table's lines in place.
func fitTable(lines []string) {
	for i := range lines {
		lines[i] = unmark(lines[i])
	}
	sep := -1
	var cols []span
	for i, l := range lines {
		if c, ok := separatorColumns(ansi.Strip(l)); ok {
			sep, cols = i, c
			break
		}
	}
	if sep < 0 {
		return
	}
	// What each column shows, over every line but the separator.
	used := make([]span, len(cols))
	for k := range used {
		used[k] = span{from: -1}
	}
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = ansi.Strip(l)
		if i == sep {
			continue
		}
		if !aligned(plain[i], cols) {
			// glamour misplaces some tables (inside a block quote the
			// separator line loses the quote's bar and shifts): leave
			// them as they are.
			return
		}
		for k, c := range cols {
			from, to := textSpan(plain[i], c)
			if from < 0 {
				continue
			}
			if used[k].from < 0 || from < used[k].from {
				used[k].from = from
			}
			used[k].to = max(used[k].to, to)
		}
	}
	keep := make([]span, len(cols))
	shrunk := false
	for k, c := range cols {
		w := span{from: c.from, to: c.from + 2} // an empty column keeps its padding
		if used[k].from >= 0 {
			w = span{from: max(used[k].from-1, c.from), to: min(used[k].to+1, c.to)}
		}
		keep[k] = w
		shrunk = shrunk || w != c
	}
	if !shrunk {
		return
	}
	left, right := cols[0].from, cols[len(cols)-1].to
	for i, l := range lines {
		var b strings.Builder
		b.WriteString(ansi.Cut(l, 0, left))
		for k, w := range keep {
			if k > 0 {
				// The column border: "│", or "┼" on the separator line.
				b.WriteString(ansi.Cut(l, cols[k].from-1, cols[k].from))
			}
			if i == sep {
				b.WriteString(ansi.Cut(l, w.from, w.from+1)) // the line's style
				b.WriteString(strings.Repeat("─", w.to-w.from-1))
				continue
			}
			b.WriteString(ansi.Cut(l, w.from, w.to))
		}
		rest := ansi.Cut(l, right, 1<<20)
		if strings.TrimSpace(ansi.Strip(rest)) != "" {
			b.WriteString(rest)
		}
		s := b.String()
		if strings.IndexByte(s, 0x1b) >= 0 && !strings.HasSuffix(s, sgrReset) {
			s += sgrReset
		}
		lines[i] = s
	}
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

// aligned reports whether a plain table line has its column borders where
// the separator line has them (or shows nothing in the table's columns).
func aligned(plain string, cols []span) bool {
	if strings.TrimSpace(ansi.Cut(plain, cols[0].from, cols[len(cols)-1].to)) == "" {
		return true
	}
	for _, c := range cols[1:] {
		if ansi.Cut(plain, c.from-1, c.from) != "│" {
			return false
		}
	}
	return true
}

// textSpan returns the cells of column c that show text on a plain line,
// or -1 when none do.
func textSpan(plain string, c span) (int, int) {
	cell := strings.TrimRight(ansi.Cut(plain, c.from, c.to), " ")
	if strings.TrimSpace(cell) == "" {
		return -1, -1
	}
	lead := len(cell) - len(strings.TrimLeft(cell, " "))
	return c.from + lead, c.from + ansi.StringWidth(cell)
}
