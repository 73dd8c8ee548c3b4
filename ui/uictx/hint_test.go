package uictx

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
)

func TestHintLine(t *testing.T) {
	th, _ := themes.NewSet().Get(themes.Dark)
	c := &Context{Theme: th, Styles: th.Styles(false)}
	hints := []Hint{{"enter", "open"}, {"ctrl+r", "rename"}, {"", "skipped"}, {"ctrl+x", "delete"}, {"esc", "close"}}
	for _, w := range []int{0, 5, 12, 20, 40, 80} {
		got := c.HintLine(hints, w)
		if lipgloss.Width(got) != w || strings.Contains(got, "\n") {
			t.Fatalf("width %d: %q is %d cells", w, ansi.Strip(got), lipgloss.Width(got))
		}
	}
	if got := ansi.Strip(c.HintLine(hints, 80)); !strings.HasPrefix(got, " enter open · ctrl+r rename · ctrl+x delete · esc close") || strings.Contains(got, "skipped") {
		t.Fatalf("all fit: %q", got)
	}
	// The last hint (the way out) stays when the others do not fit.
	if got := ansi.Strip(c.HintLine(hints, 28)); !strings.Contains(got, "enter open") || !strings.Contains(got, "esc close") || strings.Contains(got, "rename") {
		t.Fatalf("narrow: %q", got)
	}
}

func TestKeyOf(t *testing.T) {
	b := func(ks ...string) key.Binding { return key.NewBinding(key.WithKeys(ks...)) }
	cases := []struct {
		b    key.Binding
		want string
	}{
		{b("up", "ctrl+p"), "↑"},
		{b("pgdown"), "pgdn"},
		{key.NewBinding(key.WithKeys("alt+s", "f5"), key.WithHelp("alt+s/f5", "sessions")), "alt+s"},
		{key.NewBinding(key.WithKeys("x"), key.WithDisabled()), "fallback"},
		{key.Binding{}, "fallback"},
	}
	for _, c := range cases {
		if got := KeyOf(c.b, "fallback"); got != c.want {
			t.Errorf("KeyOf(%v) = %q, want %q", c.b.Keys(), got, c.want)
		}
	}
}

func TestHintCache(t *testing.T) {
	th, _ := themes.NewSet().Get(themes.Dark)
	c := &Context{Theme: th, Styles: th.Styles(false)}
	var hc HintCache
	a := []Hint{{"enter", "open"}, {"esc", "close"}}
	first := hc.Line(c, a, 40)
	if first != c.HintLine(a, 40) || hc.Line(c, a, 40) != first {
		t.Fatal("the cached line differs")
	}
	if got := hc.Line(c, []Hint{{"y", "delete"}}, 40); !strings.Contains(ansi.Strip(got), "y delete") {
		t.Fatalf("other hints: %q", got)
	}
	c.Styles = th.Styles(true)
	c.StyleGen++
	if got := hc.Line(c, a, 40); got == first {
		t.Fatal("a new theme kept the old line")
	}
}
