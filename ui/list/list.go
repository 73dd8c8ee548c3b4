package list

import (
	"slices"
	"strings"

	"parley/ui/uictx"
)

// Options say what a list holds and how it draws it. Only Render is
// required.
type Options[T any] struct {
	// Render draws one row: exactly RowHeight lines (joined by "\n") of
	// exactly r.Width cells. It must depend only on r and on the context's
	// styles: rows are cached by those, and the list re-renders a row only
	// when its item, its selection, its matches, the width, the focus or
	// the style generation change.
	Render func(r Row[T]) string
	// Text is what the filter matches (usually what the row shows first).
	// Without it the list does not filter.
	Text func(T) string
	// Aliases are other names an item is found by; a match by an alias
	// loses a tie to a match by Text and highlights nothing.
	Aliases func(T) []string
	// Keep marks items shown whatever the filter (results found another
	// way, such as a full-text search): they follow the matches, in order.
	Keep func(T) bool
	// Custom makes a row from a non-empty filter, shown last (a model
	// name the catalog does not list); false when there is none.
	Custom func(query string) (T, bool)
	// ID names an item, so the selection stays on it when the items are
	// replaced (Select uses it too).
	ID func(T) string
	// RowHeight is how many lines each row takes; 0 means 1.
	RowHeight int
	// Section names the group of an item; a heading line with the name is
	// drawn above the first row of each group with a non-empty name.
	Section func(T) string
	// Empty is the sentence shown when there are no items at all
	// ("no saved session yet"); SetEmpty changes it.
	Empty string
	// Typing says that printable keys type into a filter next to the list,
	// so list bindings on printable keys (a user's "k") are left alone.
	Typing bool
}

// Row is what Options.Render draws.
type Row[T any] struct {
	Item T
	// Index is the row's position among the rows shown.
	Index int
	// Selected is the row under the cursor; Focused says whether the list
	// has the keys (SetFocused), so a selection can look different
	// without them.
	Selected, Focused bool
	// Custom is the row Options.Custom made from the filter.
	Custom bool
	// Hits marks the runes of Options.Text that matched the filter; nil
	// when nothing is highlighted.
	Hits []bool
	// Width is the width to draw in.
	Width int
}

// Model is one list. Make it with New; the zero value has no context.
type Model[T any] struct {
	ctx  *uictx.Context
	opts Options[T]

	items  []T
	folded [][]rune // Fold(Text(item)), made with the items
	query  string

	rows   []rowRef // the rows shown, in order
	heads  []int    // rows with a heading above them, ascending
	custom T        // the item of the custom row, when rows ends with one

	cursor int // row index
	offset int // first line shown
	w, h   int

	focused       bool
	empty, status string

	// rowsRev changes whenever what any row draws may change (items,
	// filter, matches); rev on every change of state. Both come from a
	// counter shared by copies, so two states never share a number.
	rowsRev, rev uint64
	sh           *shared
}

// rowRef is one row shown: an item (or -1 for the custom row) and its
// matched runes.
type rowRef struct {
	item int
	hits []bool
}

// New returns an empty list that reads keys and styles from ctx, focused.
func New[T any](ctx *uictx.Context, opts Options[T]) Model[T] {
	if opts.RowHeight <= 0 {
		opts.RowHeight = 1
	}
	m := Model[T]{ctx: ctx, opts: opts, focused: true, empty: opts.Empty, sh: &shared{}}
	m.refilter()
	return m
}

// SetItems replaces the items (the list keeps the slice: do not change it
// afterwards). The filter stays; the selection stays on the same item
// (Options.ID) when it is still shown, else on the same row.
func (m *Model[T]) SetItems(items []T) {
	prevID, hadID := m.selectedID()
	prevRow := m.cursor
	m.items = items
	m.folded = nil
	if m.opts.Text != nil {
		m.folded = make([][]rune, len(items))
		for i, it := range items {
			m.folded[i] = Fold(m.opts.Text(it))
		}
	}
	m.refilter()
	m.cursor = min(prevRow, max(len(m.rows)-1, 0))
	if hadID {
		m.Select(prevID)
	}
	m.scroll()
}

// SetItem replaces item i, keeping the selection (see SetItems).
func (m *Model[T]) SetItem(i int, item T) {
	if i < 0 || i >= len(m.items) {
		return
	}
	items := slices.Clone(m.items)
	items[i] = item
	m.SetItems(items)
}

// SetQuery filters the items by q and puts the cursor on the best match.
// Nothing changes when q is the filter already.
func (m *Model[T]) SetQuery(q string) {
	if q == m.query {
		return
	}
	m.query = q
	m.refilter()
	m.cursor = 0
	m.scroll()
}

// SetSize sets the area the list draws in.
func (m *Model[T]) SetSize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	if w == m.w && h == m.h {
		return
	}
	m.w, m.h = w, h
	m.touch()
	m.scroll()
}

// SetFocused says whether the list has the keys (Row.Focused).
func (m *Model[T]) SetFocused(f bool) {
	if f != m.focused {
		m.focused = f
		m.touch()
	}
}

// SetEmpty changes the sentence shown when there are no items at all.
func (m *Model[T]) SetEmpty(s string) {
	if s != m.empty {
		m.empty = s
		m.touch()
	}
}

// SetStatus shows s (loading, searching, a time-out) where the empty
// state goes while there are no rows; "" goes back to the empty state.
func (m *Model[T]) SetStatus(s string) {
	if s != m.status {
		m.status = s
		m.touch()
	}
}

// refilter recomputes the rows for the filter.
func (m *Model[T]) refilter() {
	m.rowsRev = m.sh.next()
	m.touch()
	m.rows = m.rows[:0:0]
	q := strings.TrimSpace(m.query)
	if m.opts.Text == nil || q == "" {
		m.rows = make([]rowRef, len(m.items))
		for i := range m.items {
			m.rows[i] = rowRef{item: i}
		}
	} else {
		m.rows = m.matchRows(q)
	}
	if q != "" && m.opts.Custom != nil {
		if c, ok := m.opts.Custom(q); ok {
			m.custom = c
			m.rows = append(m.rows, rowRef{item: -1})
		}
	}
	m.heads = m.heads[:0:0]
	if m.opts.Section != nil {
		prev := ""
		for r := range m.rows {
			s := m.opts.Section(m.rowItem(r))
			if s != "" && (r == 0 || s != prev) {
				m.heads = append(m.heads, r)
			}
			prev = s
		}
	}
}

// matchRows ranks the items by the filter, then adds the kept ones.
func (m *Model[T]) matchRows(q string) []rowRef {
	terms := Terms(q)
	var alias func(int) []string
	if m.opts.Aliases != nil {
		alias = func(i int) []string { return m.opts.Aliases(m.items[i]) }
	}
	ms := make([]Match, 0, len(m.items))
	var kept []rowRef
	for i, it := range m.items {
		if m.opts.Keep != nil && m.opts.Keep(it) {
			kept = append(kept, rowRef{item: i})
			continue
		}
		if mt, ok := matchOne(i, m.folded[i], terms, alias); ok {
			ms = append(ms, mt)
		}
	}
	sortMatches(ms)
	rows := make([]rowRef, 0, len(ms)+len(kept)+1)
	for _, mt := range ms {
		rows = append(rows, rowRef{item: mt.Index, hits: mt.Hits})
	}
	return append(rows, kept...)
}

// touch marks a change of state: the next View draws again.
func (m *Model[T]) touch() { m.rev = m.sh.next() }

func (m Model[T]) rowItem(r int) T {
	if ref := m.rows[r]; ref.item >= 0 {
		return m.items[ref.item]
	}
	return m.custom
}

func (m Model[T]) selectedID() (string, bool) {
	it, ok := m.Selected()
	if !ok || m.opts.ID == nil {
		return "", false
	}
	return m.opts.ID(it), true
}

// Items returns the items as given (do not change them).
func (m Model[T]) Items() []T { return m.items }

// Total is the number of items.
func (m Model[T]) Total() int { return len(m.items) }

// Len is the number of rows shown (matches, kept items, the custom row).
func (m Model[T]) Len() int { return len(m.rows) }

// Query is the filter.
func (m Model[T]) Query() string { return m.query }

// Row returns the item of row r.
func (m Model[T]) Row(r int) (T, bool) {
	if r < 0 || r >= len(m.rows) {
		var zero T
		return zero, false
	}
	return m.rowItem(r), true
}

// Cursor is the row under the cursor (0 when there are none).
func (m Model[T]) Cursor() int { return m.cursor }

// Selected returns the item under the cursor; false when no row is shown.
func (m Model[T]) Selected() (T, bool) { return m.Row(m.cursor) }

// SelectedIndex is the position in Items of the item under the cursor;
// -1 for the custom row or when no row is shown.
func (m Model[T]) SelectedIndex() int {
	if m.cursor < len(m.rows) {
		return m.rows[m.cursor].item
	}
	return -1
}

// IsCustom reports whether the cursor is on the custom row.
func (m Model[T]) IsCustom() bool {
	return m.cursor < len(m.rows) && m.rows[m.cursor].item < 0
}

// Select moves the cursor to the row of the item named id (Options.ID);
// false when it is not shown.
func (m *Model[T]) Select(id string) bool {
	if m.opts.ID == nil {
		return false
	}
	for r, ref := range m.rows {
		if ref.item >= 0 && m.opts.ID(m.items[ref.item]) == id {
			m.SetCursor(r)
			return true
		}
	}
	return false
}

// SetCursor moves the cursor to row r, clamped to the rows.
func (m *Model[T]) SetCursor(r int) {
	r = max(min(r, len(m.rows)-1), 0)
	if r != m.cursor {
		m.cursor = r
		m.touch()
	}
	m.scroll()
}

// Move moves the cursor by n rows, stopping at the first and last rows.
func (m *Model[T]) Move(n int) { m.SetCursor(m.cursor + n) }
