package list

import (
	"fmt"
	"strings"
	"testing"
)

// The list draws exactly its area, whatever its size and state.
func TestExactArea(t *testing.T) {
	items := strs(50, func(i int) string { return fmt.Sprintf("a rather long item name number %d 日本語 🎉", i) })
	for _, sz := range [][2]int{{1, 1}, {2, 3}, {10, 4}, {40, 12}, {80, 24}, {200, 60}} {
		m := newStrings(t, items, sz[0], sz[1])
		requireArea(t, m.View(), sz[0], sz[1])
		m.Update(press(t, end))
		requireArea(t, m.View(), sz[0], sz[1])
		m.SetQuery("zzz")
		requireArea(t, m.View(), sz[0], sz[1])
		m.SetItems(nil)
		requireArea(t, m.View(), sz[0], sz[1])
	}
	m := newStrings(t, items, 0, 5)
	if m.View() != "" {
		t.Fatal("a list of no width drew something")
	}
}

// "Nothing here" and "nothing matches" are told apart; a status replaces
// both while it is set.
func TestEmptyStates(t *testing.T) {
	m := newStrings(t, nil, 40, 5)
	if v := plain(m.View()); !strings.Contains(v, "nothing here yet") {
		t.Fatalf("empty:\n%s", v)
	}
	m.SetItems([]string{"alpha", "beta"})
	m.SetQuery("zeta\x1b]0;x\x07")
	v := m.View()
	if !strings.Contains(plain(v), "nothing matches “zeta␛]0;x␇”") || strings.Contains(v, "\x1b]0") {
		t.Fatalf("no match:\n%q", v)
	}
	m.SetStatus("searching…")
	if v := plain(m.View()); !strings.Contains(v, "searching…") || strings.Contains(v, "nothing matches") {
		t.Fatalf("status:\n%s", v)
	}
	m.SetStatus("")
	m.SetEmpty("")
	m.SetItems(nil)
	if v := plain(m.View()); strings.TrimSpace(v) != "" {
		t.Fatalf("an empty sentence drew %q", v)
	}
	// A long sentence wraps within the width.
	m.SetEmpty("no saved session yet: every conversation is kept here as you chat")
	m.SetSize(20, 5)
	if v := plain(m.View()); !strings.Contains(v, "as you chat") {
		t.Fatalf("wrapped empty state lost words:\n%s", v)
	}
	requireArea(t, m.View(), 20, 5)
}

// The position shows only when the rows do not fit.
func TestPosition(t *testing.T) {
	m := newStrings(t, strs(25, func(i int) string { return fmt.Sprint("x", i) }), 10, 10)
	if m.Position() != "1/25" {
		t.Fatalf("position %q", m.Position())
	}
	m.Update(press(t, down))
	m.Update(press(t, down))
	if m.Position() != "3/25" {
		t.Fatalf("position %q", m.Position())
	}
	m.SetQuery("x2") // x2, x20…x24 and x12 (letters in order): they fit
	if m.Len() > 10 || m.Position() != "" {
		t.Fatalf("position %q for %d rows that fit", m.Position(), m.Len())
	}
	m.SetSize(10, 3)
	if m.Position() != "1/"+fmt.Sprint(m.Len()) {
		t.Fatalf("position %q after the box shrank", m.Position())
	}
}

// Rows of two lines with section headings scroll so the cursor's row and
// its heading stay in view.
func TestSectionsAndTallRows(t *testing.T) {
	type it struct{ name, sec string }
	var items []it
	for i := range 6 {
		items = append(items, it{fmt.Sprint("session ", i), ""})
	}
	for i := range 6 {
		items = append(items, it{fmt.Sprint("message ", i), "Messages with “x”"})
	}
	m := New(testCtx(t), Options[it]{
		Render: func(r Row[it]) string {
			mark := "  "
			if r.Selected {
				mark = "▸ "
			}
			return mark + r.Item.name + "\n    preview of " + r.Item.name
		},
		RowHeight: 2,
		Section:   func(x it) string { return x.sec },
	})
	m.SetItems(items)
	m.SetSize(30, 7)
	for range 6 {
		m.Update(press(t, down))
	}
	v := plain(m.View())
	if !strings.Contains(v, "Messages with “x”") || !strings.Contains(v, "▸ message 0") || !strings.Contains(v, "preview of message 0") {
		t.Fatalf("heading or row missing:\n%s", v)
	}
	requireArea(t, m.View(), 30, 7)
	m.Update(press(t, end))
	v = plain(m.View())
	lines := strings.Split(v, "\n")
	if !strings.Contains(v, "▸ message 5") || !strings.Contains(lines[len(lines)-1], "preview of message 5") {
		t.Fatalf("last row not whole at the bottom:\n%s", v)
	}
	m.Update(press(t, home))
	if v := plain(m.View()); !strings.HasPrefix(v, "▸ session 0") {
		t.Fatalf("home:\n%s", v)
	}
	if m.Position() != "1/12" {
		t.Fatalf("position %q", m.Position())
	}
}

// Rows are drawn again only when their inputs change: a move re-renders
// the two rows whose selection changed.
func TestRowsAreCached(t *testing.T) {
	calls := 0
	m := New(testCtx(t), Options[string]{Render: func(r Row[string]) string { calls++; return plainRow(r) }})
	m.SetItems(strs(100, func(i int) string { return fmt.Sprint("row ", i) }))
	m.SetSize(20, 10)
	_ = m.View()
	if calls != 10 {
		t.Fatalf("first view rendered %d rows", calls)
	}
	calls = 0
	_ = m.View()
	if calls != 0 {
		t.Fatalf("an unchanged view rendered %d rows", calls)
	}
	m.Update(press(t, down))
	_ = m.View()
	if calls != 2 {
		t.Fatalf("a move rendered %d rows, want 2", calls)
	}
	calls = 0
	m.SetFocused(false)
	_ = m.View()
	if calls != 10 {
		t.Fatalf("losing the focus rendered %d rows, want 10", calls)
	}
	calls = 0
	ctx := m.ctx
	ctx.StyleGen++
	_ = m.View()
	if calls != 10 {
		t.Fatalf("a new theme rendered %d rows, want 10", calls)
	}
}

// Rows drawn wider or narrower than the width, or with the wrong number
// of lines, are made to fit; hostile text from a row is the caller's to
// sanitise, but a heading is sanitised here.
func TestRowsAreFitted(t *testing.T) {
	m := New(testCtx(t), Options[string]{
		Render:    func(r Row[string]) string { return r.Item },
		RowHeight: 2,
		Section:   func(string) string { return "evil\x1b[2J heading" },
	})
	m.SetItems([]string{strings.Repeat("wide ", 40), "one line only", "three\nlines\nhere"})
	m.SetSize(25, 9)
	v := m.View()
	requireArea(t, v, 25, 9)
	if strings.Contains(v, "\x1b[2J") {
		t.Fatalf("the heading's sequence reached the view: %q", v)
	}
}
