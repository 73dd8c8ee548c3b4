package list

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// The cursor stops at the ends (no wrap-around), pages by the rows that
// fit less one, and home/end jump.
func TestMovement(t *testing.T) {
	items := strs(30, func(i int) string { return fmt.Sprintf("item-%02d", i) })
	m := newStrings(t, items, 20, 10)
	steps := []struct {
		seq  string
		want string
	}{
		{up, "item-00"}, // up at the top stays at the top
		{down, "item-01"},
		{ctrlN, "item-02"},
		{ctrlP, "item-01"},
		{pgdown, "item-10"},
		{pgdown, "item-19"},
		{pgup, "item-10"},
		{end, "item-29"},
		{down, "item-29"}, // down at the bottom stays there
		{pgdown, "item-29"},
		{home, "item-00"},
		{pgup, "item-00"},
	}
	for i, s := range steps {
		if !m.Update(press(t, s.seq)) {
			t.Fatalf("step %d: %q not handled", i, s.seq)
		}
		if got := selected(t, m); got != s.want {
			t.Fatalf("step %d (%q): on %s, want %s", i, s.seq, got, s.want)
		}
		if v := plain(m.View()); !strings.Contains(v, "▸ "+s.want) {
			t.Fatalf("step %d: the cursor's row is not in view:\n%s", i, v)
		}
		requireArea(t, m.View(), 20, 10)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if got := selected(t, m); got != "item-01" {
		t.Fatalf("wheel: %s", got)
	}
	// Other keys are the caller's.
	for _, seq := range []string{"a", "\r", "\x1b", "\t", "\x15"} {
		if m.Update(press(t, seq)) {
			t.Errorf("%q was taken by the list", seq)
		}
	}
	// Moving in an empty list does nothing and does not crash.
	m.SetQuery("zzz")
	for _, s := range []string{up, down, pgup, pgdown, home, end} {
		m.Update(press(t, s))
	}
	if _, ok := m.Selected(); ok || m.SelectedIndex() != -1 {
		t.Fatal("something is selected with no rows")
	}
}

// Key overrides apply; a printable key bound to a list action types into
// the filter when the list says so.
func TestKeyOverridesAndTyping(t *testing.T) {
	km, _ := keys.Load(map[string][]string{"list_down": {"alt+j", "j"}, "list_up": {"alt+k"}})
	for _, typing := range []bool{false, true} {
		ctx := testCtx(t)
		ctx.Keys = km
		m := New(ctx, Options[string]{Render: plainRow, Typing: typing})
		m.SetItems([]string{"a", "b", "c"})
		m.SetSize(10, 5)
		m.Update(press(t, "\x1bj"))
		m.Update(press(t, down)) // the arrows always work
		if got := selected(t, m); got != "c" {
			t.Fatalf("alt+j, down: %s", got)
		}
		m.Update(press(t, "\x1bk"))
		handled := m.Update(press(t, "j"))
		if handled == typing {
			t.Fatalf("typing=%v: j handled=%v", typing, handled)
		}
	}
}

func TestFilterKeepCustomAndSelection(t *testing.T) {
	type it struct{ name, kind string }
	m := New(testCtx(t), Options[it]{
		Render: func(r Row[it]) string { return r.Item.name },
		Text:   func(x it) string { return x.name },
		ID:     func(x it) string { return x.name },
		Keep:   func(x it) bool { return x.kind == "hit" },
		Custom: func(q string) (it, bool) { return it{name: q, kind: "custom"}, q != "gpt-4o" },
	})
	m.SetItems([]it{{"gpt-4o", ""}, {"o3", ""}, {"found elsewhere", "hit"}, {"gpt-4o-mini", ""}})
	m.SetSize(30, 10)
	names := func() string {
		var out []string
		for r := range m.Len() {
			x, _ := m.Row(r)
			out = append(out, x.name)
		}
		return strings.Join(out, ",")
	}
	if got := names(); got != "gpt-4o,o3,found elsewhere,gpt-4o-mini" {
		t.Fatalf("no filter: %s", got)
	}
	m.SetQuery("mini")
	if got := names(); got != "gpt-4o-mini,found elsewhere,mini" {
		t.Fatalf("filtered: %s", got)
	}
	m.Update(press(t, end))
	if !m.IsCustom() || m.SelectedIndex() != -1 {
		t.Fatal("the custom row is not under the cursor after end")
	}
	m.SetQuery("gpt-4o")
	if got := names(); got != "gpt-4o,gpt-4o-mini,found elsewhere" {
		t.Fatalf("exact name, no custom row: %s", got)
	}
	// The selection follows its item when the items change.
	m.Update(press(t, down))
	m.SetItems([]it{{"gpt-4o-mini", ""}, {"gpt-4o", ""}, {"new-gpt-4o-x", ""}})
	if x, _ := m.Selected(); x.name != "gpt-4o-mini" {
		t.Fatalf("selection moved to %q", x.name)
	}
	if !m.Select("gpt-4o") || m.SelectedIndex() != 1 {
		t.Fatalf("Select: index %d", m.SelectedIndex())
	}
	if m.Select("nope") {
		t.Fatal("selected an item that is not there")
	}
	// SetItem replaces one item and keeps the selection.
	m.SetItem(1, it{"gpt-4o", "renamed"})
	if x, _ := m.Selected(); x.kind != "renamed" {
		t.Fatalf("SetItem: selected %+v", x)
	}
}

// A copy of a list is independent: updating two copies of one state does
// not mix their views.
func TestCopiesAreIndependent(t *testing.T) {
	m := newStrings(t, []string{"a", "b", "c"}, 10, 3)
	_ = m.View()
	c1, c2 := m, m
	c1.Update(press(t, down))
	c2.Update(press(t, end))
	if v := plain(c1.View()); !strings.Contains(v, "▸ b") {
		t.Fatalf("c1:\n%s", v)
	}
	if v := plain(c2.View()); !strings.Contains(v, "▸ c") {
		t.Fatalf("c2:\n%s", v)
	}
	if v := plain(m.View()); !strings.Contains(v, "▸ a") {
		t.Fatalf("the original:\n%s", v)
	}
}
