package list

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

func testCtx(t testing.TB) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 80, Height: 24, Theme: th, Styles: th.Styles(false), Keys: keys.Default()}
}

// key decodes the bytes a terminal sends for one key.
func press(t testing.TB, seq string) tea.KeyPressMsg {
	t.Helper()
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(seq))
	k, ok := ev.(uv.KeyPressEvent)
	if !ok || n != len(seq) {
		t.Fatalf("%q decodes to %T", seq, ev)
	}
	return tea.KeyPressMsg(k)
}

// Key sequences a terminal sends.
const (
	up, down     = "\x1b[A", "\x1b[B"
	pgup, pgdown = "\x1b[5~", "\x1b[6~"
	home, end    = "\x1b[H", "\x1b[F"
	ctrlP, ctrlN = "\x10", "\x0e"
)

// plainRow draws an item as its text with the selection marked.
func plainRow(r Row[string]) string {
	mark := "  "
	if r.Selected {
		mark = "▸ "
	}
	return mark + cells.OneLine(r.Item)
}

func strs(n int, f func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func newStrings(t testing.TB, items []string, w, h int) Model[string] {
	t.Helper()
	m := New(testCtx(t), Options[string]{Render: plainRow, Text: func(s string) string { return s }, ID: func(s string) string { return s }, Empty: "nothing here yet"})
	m.SetItems(items)
	m.SetSize(w, h)
	return m
}

func requireArea(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, ansi.Strip(view))
	}
	for i, l := range lines {
		if got := lipgloss.Width(l); got != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

func plain(s string) string { return ansi.Strip(s) }

func selected(t testing.TB, m Model[string]) string {
	t.Helper()
	s, ok := m.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return s
}
