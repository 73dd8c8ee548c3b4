package list

import (
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
)

// shared is what copies of a Model share: the counter that numbers
// states, and the caches keyed by those numbers.
type shared struct {
	seq uint64

	// rows holds rendered rows for one rowsKey; a different key empties
	// it. Keys are item indexes (-1 the custom row) with the selection.
	rowsKey rowsKey
	rows    map[rowKey][]string

	viewKey viewKey
	view    string
}

type rowsKey struct {
	rev      uint64
	w, gen   int
	focused  bool
	occupied bool
}

type rowKey struct {
	item     int
	selected bool
}

type viewKey struct {
	rev uint64
	gen int
	ok  bool
}

func (s *shared) next() uint64 {
	s.seq++
	return s.seq
}

// maxCachedRows bounds the row cache: scrolling through thousands of
// items keeps only about a few screens.
const maxCachedRows = 512

// rowHeight is the lines per row.
func (m Model[T]) rowHeight() int { return m.opts.RowHeight }

// headsUpTo is how many rows up to and including r have a heading.
func (m Model[T]) headsUpTo(r int) int { return sort.SearchInts(m.heads, r+1) }

// hasHead reports whether row r has a heading above it.
func (m Model[T]) hasHead(r int) bool {
	i := sort.SearchInts(m.heads, r)
	return i < len(m.heads) && m.heads[i] == r
}

// lineOf is the first line of row r (after its heading).
func (m Model[T]) lineOf(r int) int { return r*m.rowHeight() + m.headsUpTo(r) }

// lines is how many lines all rows take.
func (m Model[T]) lines() int { return len(m.rows)*m.rowHeight() + len(m.heads) }

// PageSize is how many rows a page key moves: the rows that fit, less one
// so a row of the last page stays in sight.
func (m Model[T]) PageSize() int { return max(m.h/m.rowHeight()-1, 1) }

// scroll moves the window so the cursor's row (with its heading) is in it.
func (m *Model[T]) scroll() {
	old := m.offset
	if len(m.rows) == 0 || m.h <= 0 {
		m.offset = 0
	} else {
		top := m.lineOf(m.cursor)
		if m.hasHead(m.cursor) {
			top--
		}
		bottom := m.lineOf(m.cursor) + m.rowHeight()
		if top < m.offset {
			m.offset = top
		}
		if bottom > m.offset+m.h {
			m.offset = bottom - m.h
		}
		m.offset = max(min(m.offset, m.lines()-m.h), 0)
	}
	if m.offset != old {
		m.touch()
	}
}

// Position says where the cursor is, "3/25", when the rows do not all fit
// in the list's height; "" when they do.
func (m Model[T]) Position() string {
	if len(m.rows) == 0 || m.lines() <= m.h {
		return ""
	}
	return strconv.Itoa(m.cursor+1) + "/" + strconv.Itoa(len(m.rows))
}

// View draws the list in exactly its size (SetSize): the rows that fit,
// or the empty state. A View that follows no change returns the string
// it returned before.
func (m Model[T]) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	k := viewKey{rev: m.rev, gen: m.ctx.StyleGen, ok: true}
	if m.sh.viewKey == k {
		return m.sh.view
	}
	out := m.render()
	m.sh.viewKey, m.sh.view = k, out
	return out
}

func (m Model[T]) render() string {
	out := make([]string, 0, m.h)
	if len(m.rows) == 0 {
		out = m.emptyLines()
	} else {
		out = m.rowLines(out)
	}
	blank := cells.Spaces(m.w)
	for len(out) < m.h {
		out = append(out, blank)
	}
	return strings.Join(out[:m.h], "\n")
}

// rowLines appends the lines of the rows in the window.
func (m Model[T]) rowLines(out []string) []string {
	rh := m.rowHeight()
	r := sort.Search(len(m.rows), func(r int) bool { return m.lineOf(r)+rh > m.offset })
	for ; r < len(m.rows) && len(out) < m.h; r++ {
		start := m.lineOf(r)
		if m.hasHead(r) && start-1 >= m.offset {
			out = append(out, m.heading(r))
		}
		for k, l := range m.renderRow(r) {
			if start+k >= m.offset && len(out) < m.h {
				out = append(out, l)
			}
		}
	}
	return out
}

// heading draws the name of row r's section.
func (m Model[T]) heading(r int) string {
	name := cells.OneLine(m.opts.Section(m.rowItem(r)))
	return m.ctx.Styles.OverlayTitle.Render(cells.Fit(name, m.w))
}

// renderRow returns row r's lines, from the cache when its inputs are the
// same.
func (m Model[T]) renderRow(r int) []string {
	rk := rowsKey{rev: m.rowsRev, w: m.w, gen: m.ctx.StyleGen, focused: m.focused, occupied: true}
	if m.sh.rowsKey != rk || len(m.sh.rows) > maxCachedRows {
		m.sh.rowsKey, m.sh.rows = rk, make(map[rowKey][]string)
	}
	ref := m.rows[r]
	key := rowKey{item: ref.item, selected: r == m.cursor}
	if ls, ok := m.sh.rows[key]; ok {
		return ls
	}
	s := m.opts.Render(Row[T]{
		Item: m.rowItem(r), Index: r, Selected: key.selected, Focused: m.focused,
		Custom: ref.item < 0, Hits: ref.hits, Width: m.w,
	})
	ls := strings.Split(s, "\n")
	rh := m.rowHeight()
	for len(ls) < rh {
		ls = append(ls, "")
	}
	ls = ls[:rh]
	for i, l := range ls {
		ls[i] = cells.Fit(l, m.w)
	}
	m.sh.rows[key] = ls
	return ls
}

// emptyLines says why there are no rows: the status, "nothing here" (the
// caller's sentence) or "nothing matches" naming the filter.
func (m Model[T]) emptyLines() []string {
	text := m.status
	switch {
	case text != "":
	case len(m.items) == 0:
		text = m.empty
	default:
		text = "nothing matches “" + cells.OneLine(strings.TrimSpace(m.query)) + "”"
	}
	if text == "" {
		return nil
	}
	wrapped := strings.Split(ansi.Wrap(cells.OneLine(text), m.w, ""), "\n")
	out := make([]string, 0, min(len(wrapped), m.h))
	for _, l := range wrapped {
		if len(out) == m.h {
			break
		}
		out = append(out, m.ctx.Styles.Muted.Render(cells.Fit(l, m.w)))
	}
	return out
}
