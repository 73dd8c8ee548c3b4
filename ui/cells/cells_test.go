package cells

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"日本語", 4, "日… "},
		{"\x1b[1mbold\x1b[m", 6, "\x1b[1mbold\x1b[m  "},
		{"x", 0, ""},
	} {
		if got := Fit(tc.in, tc.w); got != tc.want || (tc.w > 0 && ansi.StringWidth(got) != tc.w) {
			t.Errorf("Fit(%q, %d) = %q", tc.in, tc.w, got)
		}
	}
	if got := Block([]string{"a", "bb"}, 3, 3); got != "a  \nbb \n   " {
		t.Errorf("Block = %q", got)
	}
	if got := Stack([]string{"ab", "cd", "ef"}, 2, 2); got != "ab\ncd" {
		t.Errorf("Stack cuts to %q", got)
	}
	if got := Stack([]string{"ab"}, 2, 3); got != "ab\n  \n  " {
		t.Errorf("Stack pads to %q", got)
	}
}

func TestOneLineAndFold(t *testing.T) {
	if got := OneLine("gpt\n4o\t\x1b]0;pwned\x07"); strings.ContainsAny(got, "\n\t\x1b\x07") || !strings.Contains(got, `gpt\n4o`) {
		t.Errorf("OneLine = %q", got)
	}
	if got := Fold("  what   is\n\nthis?  "); got != "what is this?" {
		t.Errorf("Fold = %q", got)
	}
}

// After ForWcWidth, a line measures the same by grapheme cluster (how the
// UI lays it out) and by code point (how a terminal without mode 2027 draws
// it), so nothing is clipped.
func TestForWcWidthAgrees(t *testing.T) {
	for _, s := range []string{
		"wave 👋🏽 long line",
		"\x1b[1mfamily 👨‍👩‍👧 and ❤️ and 1️⃣\x1b[m end",
		"flag 🇺🇸 ok",
		"plain ascii and ─── box",
	} {
		got := ForWcWidth(s)
		gw, ww := ansi.GraphemeWidth.StringWidth(got), ansi.WcWidth.StringWidth(got)
		if gw != ww {
			t.Errorf("%q -> %q: grapheme %d, wcwidth %d", s, got, gw, ww)
		}
		if ansi.GraphemeWidth.StringWidth(s) != gw {
			t.Errorf("%q: the layout width changed from %d to %d", s, ansi.GraphemeWidth.StringWidth(s), gw)
		}
		if !strings.Contains(got, "end") && strings.Contains(s, "end") {
			t.Errorf("text lost: %q", got)
		}
	}
	plain := "nothing to change ─ ● ✓"
	if got := ForWcWidth(plain); got != plain {
		t.Errorf("plain text changed: %q", got)
	}
	if got := ForWcWidth("a 👋🏽 b"); !strings.Contains(got, "👋") || strings.Contains(got, "🏽") {
		t.Errorf("skin tone: %q", got)
	}
}

func BenchmarkForWcWidth(b *testing.B) {
	line := strings.Repeat("Some text with ● and ─── and an emoji 🎉 but no joiner. ", 2)
	screen := strings.Repeat(line+"\n", 40)
	b.Run("no-clusters", func(b *testing.B) {
		b.SetBytes(int64(len(screen)))
		for b.Loop() {
			_ = ForWcWidth(screen)
		}
	})
	withTone := strings.Replace(screen, "🎉", "👋🏽", 1)
	b.Run("one-cluster", func(b *testing.B) {
		b.SetBytes(int64(len(withTone)))
		for b.Loop() {
			_ = ForWcWidth(withTone)
		}
	})
}

func TestInput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"two\r\n\r\nlines\tand tab", "two lines and tab"},
		{"esc\x1b[2J bel\x07 c1\u009b bidi\u202e!", "esc[2J bel c1 bidi!"},
		{"bad \xff byte", "bad  byte"},
		{"日本語 🎉", "日本語 🎉"},
	} {
		if got := Input(tc.in); got != tc.want {
			t.Errorf("Input(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFitMiddleKeepsTheEnd(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"20261126-121821-a-lighthouse-at-dusk-1.png", 24, "20261126-12…t-dusk-1.png"},
		{"short.png", 12, "short.png   "},
	} {
		got := FitMiddle(c.in, c.w)
		if Width(got) != c.w || got != c.want {
			t.Errorf("FitMiddle(%q, %d) = %q", c.in, c.w, got)
		}
	}
	a, b := FitMiddle("20261126-121821-a-lighthouse-at-dusk-1.png", 24), FitMiddle("20261126-121821-a-lighthouse-at-dusk-2.png", 24)
	if a == b || !strings.HasSuffix(a, "dusk-1.png") || !strings.HasSuffix(b, "dusk-2.png") || !strings.Contains(a, Ellipsis) {
		t.Errorf("names that differ at the end look alike: %q %q", a, b)
	}
}
