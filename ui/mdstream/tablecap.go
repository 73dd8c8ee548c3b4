package mdstream

import (
	"bytes"
	"slices"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Tables cost goldmark and glamour far more than their size: about 1 KB of
// parse tree per cell, then lipgloss lays out every cell again, so a 510 KB
// table of 50 columns peaked at 508 MB, and 2 MB at 1.8 GB (issue 18 §1).
// A table with more columns or cells than the caps below never reaches the
// parser as a table: plainTables turns it into a paragraph of its own
// lines, which glamour shows line by line, every character (the pipes
// too), at a cost linear in its size.
const (
	// maxTableCols: no terminal shows more columns side by side legibly.
	maxTableCols = 64
	// maxTableCells: a table of 8,192 cells (80 KB of short cells) costs
	// about 20 MB and 150 ms to render here (BENCHMARKS.md).
	maxTableCells = 8192
)

// plainTables returns src with a backslash put before every delimiter row
// ("|---|:--:|") of each table over the caps: the row is then no longer a
// delimiter row, so the table's lines are read as a paragraph, and the
// backslash escapes the "|", "-" or ":" after it (it is not shown). A row
// of a capped table that looks like a delimiter row gets one too, so that
// no part of the table becomes a smaller table. It also returns where the
// backslashes are (prepare shows such a paragraph line by line, see
// textLines). src itself is returned when no table is over the caps; it
// is never written to.
//
// Tables are found as GFM finds them, approximately and on the safe side:
// a delimiter row under a line with a "|", after any block quote markers
// and indentation, and the rows up to the next blank line.
func plainTables(src []byte) ([]byte, []int) {
	if !bytes.Contains(src, []byte("-")) || !bytes.Contains(src, []byte("|")) {
		return src, nil
	}
	var at []int // offsets to put a backslash before
	prevPipe := false
	var fence fenceState
	for pos := 0; pos < len(src); {
		line, next := lineAt(src, pos)
		body, off := tableLineBody(line)
		if fence.skip(body) {
			// Code is never a table, and gets no backslash.
			prevPipe = false
			pos = next
			continue
		}
		if prevPipe {
			if cols, ok := delimiterCols(body); ok {
				at = capTable(src, pos+off, next, cols, at)
				// capTable leaves the table behind: go on after it.
				pos, prevPipe = skipTable(src, next), false
				continue
			}
		}
		prevPipe = bytes.IndexByte(body, '|') >= 0
		pos = next
	}
	if len(at) == 0 {
		return src, nil
	}
	return escapeAt(src, at)
}

// fenceState follows the fenced code blocks of a text line by line (after
// the lines' quote markers and indentation).
type fenceState struct {
	open bool
	ch   byte
	n    int
}

// skip reports whether body is a line of a fenced code block (its fences
// included).
func (f *fenceState) skip(body []byte) bool {
	if f.open {
		if isClosingFence(body, f.ch, f.n) {
			f.open = false
		}
		return true
	}
	if ch, n, ok := fenceOpener(body); ok {
		f.open, f.ch, f.n = true, ch, n
		return true
	}
	return false
}

// capTable counts the table whose delimiter row starts (after its prefix)
// at delim and whose rows start at rows, and, when it is over the caps,
// adds the offsets plainTables puts a backslash before.
func capTable(src []byte, delim, rows, cols int, at []int) []int {
	n := 1 // the header
	for pos := rows; pos < len(src); {
		line, next := lineAt(src, pos)
		body, _ := tableLineBody(line)
		if endsTable(body) {
			break
		}
		n++
		pos = next
	}
	if cols <= maxTableCols && cols*n <= maxTableCells {
		return at
	}
	at = append(at, delim)
	for pos := rows; pos < len(src); {
		line, next := lineAt(src, pos)
		body, off := tableLineBody(line)
		if endsTable(body) {
			break
		}
		if _, ok := delimiterCols(body); ok {
			at = append(at, pos+off)
		}
		pos = next
	}
	return at
}

// endsTable reports whether a line (without its prefix) ends a table's
// rows: a blank line or a code fence.
func endsTable(body []byte) bool {
	_, _, fence := fenceOpener(body)
	return fence || isBlank(body)
}

// skipTable returns the start of the line that ends a table's rows (see
// endsTable) at or after pos, or len(src).
func skipTable(src []byte, pos int) int {
	for pos < len(src) {
		line, next := lineAt(src, pos)
		if body, _ := tableLineBody(line); endsTable(body) {
			return pos
		}
		pos = next
	}
	return pos
}

// lineAt returns the line starting at pos (without its newline) and where
// the next one starts.
func lineAt(src []byte, pos int) ([]byte, int) {
	nl := bytes.IndexByte(src[pos:], '\n')
	if nl < 0 {
		return trimCR(src[pos:]), len(src)
	}
	return trimCR(src[pos : pos+nl]), pos + nl + 1
}

// tableLineBody strips what may come before a table line's cells: block
// quote markers and indentation. It returns the rest and its offset.
func tableLineBody(line []byte) ([]byte, int) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	return line[i:], i
}

// delimiterCols reports whether a line (without its prefix) is a table's
// delimiter row as GFM reads one, and how many columns it has: cells of
// dashes with an optional colon at either end, separated by pipes.
func delimiterCols(b []byte) (int, bool) {
	b = bytes.TrimRight(b, " \t")
	// Dashes alone under a paragraph line underline a heading.
	if bytes.IndexByte(b, '-') < 0 || !bytes.ContainsAny(b, "|:") {
		return 0, false
	}
	for _, c := range b {
		if c != '|' && c != '-' && c != ':' && c != ' ' && c != '\t' {
			return 0, false
		}
	}
	cells := bytes.Split(b, []byte("|"))
	if len(cells) > 0 && isBlank(cells[0]) {
		cells = cells[1:]
	}
	if len(cells) > 0 && isBlank(cells[len(cells)-1]) {
		cells = cells[:len(cells)-1]
	}
	for _, c := range cells {
		c = bytes.Trim(c, " \t")
		c = bytes.TrimPrefix(c, []byte(":"))
		c = bytes.TrimSuffix(c, []byte(":"))
		if len(c) == 0 || len(bytes.Trim(c, "-")) != 0 {
			return 0, false
		}
	}
	return len(cells), len(cells) > 0
}

// tableInfo is what prepare records of a table for Options.WholeTables:
// where its delimiter row's cells start in the source (to escape it) and
// how many "…" its header row has there (any more in glamour's header
// were put in by cutting a header cell short).
type tableInfo struct {
	delim    int
	ellipses int
}

// table records a table's tableInfo.
func (p *preparer) table(t *east.Table) {
	head := t.FirstChild()
	if head == nil || head.FirstChild() == nil {
		return
	}
	cell := head.FirstChild()
	if cell.Lines().Len() == 0 {
		return
	}
	start := cell.Lines().At(0).Start
	lineStart := bytes.LastIndexByte(p.src[:start], '\n') + 1
	header, next := lineAt(p.src, lineStart)
	if next >= len(p.src) {
		return
	}
	delim, _ := lineAt(p.src, next)
	_, off := tableLineBody(delim)
	p.tables = append(p.tables, tableInfo{delim: next + off, ellipses: bytes.Count(header, []byte("…"))})
}

// cutTables returns the delimiter offsets (tableInfo.delim) of the tables
// in glamour's output whose header shows more "…" than its source has:
// lipgloss cut a header cell short to fit the width.
func cutTables(out string, tables []tableInfo) []int {
	var cut []int
	k := 0
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines) && k < len(tables); i++ {
		if !strings.Contains(lines[i], tableMark) {
			continue
		}
		n := 0
		for j := i; j < len(lines); j++ {
			l := xansi.Strip(lines[j])
			if _, ok := separatorColumns(unmark(l)); ok {
				break
			}
			n += strings.Count(l, "…")
			if strings.Contains(lines[j], tableEndMark) {
				break
			}
		}
		if n > tables[k].ellipses {
			cut = append(cut, tables[k].delim)
		}
		k++
	}
	return cut
}

// escapeAt returns a copy of src with a backslash before each offset in at
// (ascending), and where the backslashes are in the copy.
func escapeAt(src []byte, at []int) ([]byte, []int) {
	out := make([]byte, 0, len(src)+len(at))
	pos := make([]int, len(at))
	last := 0
	for k, a := range at {
		out = append(out, src[last:a]...)
		pos[k] = len(out)
		out = append(out, '\\')
		last = a
	}
	return append(out, src[last:]...), pos
}

// unmarkTables removes the table marks from glamour's output.
func unmarkTables(out string) string {
	if !strings.Contains(out, tableMark) && !strings.Contains(out, tableEndMark) {
		return out
	}
	return strings.NewReplacer(tableMark, "", tableEndMark, "").Replace(out)
}

// mergeEscaped returns the offsets of escaped delimiter rows after escapeAt
// put backslashes at cut (now at more): the earlier ones shifted by the
// backslashes before them, and the new ones, in order.
func mergeEscaped(old, cut, more []int) []int {
	out := make([]int, 0, len(old)+len(more))
	k := 0
	for _, o := range old {
		for k < len(cut) && cut[k] <= o {
			out = append(out, more[k])
			k++
		}
		out = append(out, o+k)
	}
	return append(out, more[k:]...)
}

// holdsPlain reports whether a paragraph holds an escaped delimiter row
// (see plainTables): it is a table shown as text.
func (p *preparer) holdsPlain(n *gast.Paragraph) bool {
	lines := n.Lines()
	if len(p.plain) == 0 || lines.Len() == 0 {
		return false
	}
	from, to := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	i, _ := slices.BinarySearch(p.plain, from)
	return i < len(p.plain) && p.plain[i] < to
}

// textLines shows a paragraph line by line: glamour joins a paragraph's
// lines into one and wraps it, which would run a table's rows together.
// Its inline content moves into a text block, whose line breaks glamour
// keeps (as it does in a list item), between blank lines as a
// paragraph's.
func (p *preparer) textLines(n gast.Node) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	tb := gast.NewTextBlock()
	tb.SetLines(n.Lines())
	tb.AppendChild(tb, gast.NewTextSegment(p.newline()))
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		tb.AppendChild(tb, c)
		c = next
	}
	tb.AppendChild(tb, gast.NewTextSegment(p.newline()))
	parent.ReplaceChild(parent, n, tb)
}

// newline is a segment of the extended source holding a line break.
func (p *preparer) newline() text.Segment {
	start := len(p.ext)
	p.ext = append(p.ext, '\n')
	return text.NewSegment(start, len(p.ext))
}
