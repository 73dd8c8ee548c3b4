package cells

import (
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want []string
	}{
		{"short", 10, []string{"short"}},
		{"install wl-clipboard and demo-vision now", 16, []string{"install", "wl-clipboard and", "demo-vision now"}},
		{"see /usr/local/share/parley/config.toml here", 20, []string{"see /usr/local/", "share/parley/", "config.toml here"}},
		{"a path /usr/local/bin/parley-demo stays", 28, []string{"a path", "/usr/local/bin/parley-demo", "stays"}},
		{"call foo(); then bar.", 11, []string{"call foo();", "then bar."}},
		{"end of a sentence .", 17, []string{"end of a sentence", "."}},
		{"  indented text that wraps", 12, []string{"  indented", "text that", "wraps"}},
		{"aaaaaaaaaaaaaaaaaaaa", 8, []string{"aaaaaaaa", "aaaaaaaa", "aaaa"}},
		{"x aaaaaaaaaaaaaaaa", 8, []string{"x aaaaaa", "aaaaaaaa", "aa"}},
		{"xxxxx aaaaaaaaaaaaaaaa", 8, []string{"xxxxx", "aaaaaaaa", "aaaaaaaa"}},
		{"one  two   three", 9, []string{"one  two", "three"}},
		{"日本語のテキストです", 6, []string{"日本語", "のテキ", "ストで", "す"}},
		// A path longer than a line is cut after a slash, never inside a
		// name with hyphens that fits on a line of its own.
		{"/home/u/Pictures/parley/20261129-040600-a-red-kite-over-hills-1.png · 1.2 MB", 50,
			[]string{"/home/u/Pictures/parley/", "20261129-040600-a-red-kite-over-hills-1.png · 1.2", "MB"}},
		{"/tmp/a-name-longer-than-the-line-itself.png", 20, []string{"/tmp/a-name-longer-", "than-the-line-", "itself.png"}},
	} {
		got := Wrap(c.in, c.w)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
		for _, l := range got {
			if Width(l) > c.w {
				t.Errorf("Wrap(%q, %d): line %q is wider than %d", c.in, c.w, l, c.w)
			}
		}
	}
}

func TestWrapLinesKeepsBreaksAndHyphenatedNames(t *testing.T) {
	got := WrapLines("install wl-clipboard or xclip\n\nthen try again", 14)
	want := []string{"install", "wl-clipboard", "or xclip", "", "then try again"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("WrapLines = %q, want %q", got, want)
	}
}

// A huge word without spaces is cut in time proportional to its length.
func BenchmarkWrapHugeWord(b *testing.B) {
	word := strings.Repeat("abcdefghij", 50_000) // 500 KB
	for b.Loop() {
		if lines := Wrap(word, 80); len(lines) != 6250 {
			b.Fatalf("%d lines", len(lines))
		}
	}
}

// WrapWithin keeps text that fits whole, and text that does not ends with
// the pointer to the whole text, wrapped, never cut, at every width.
func TestWrapWithinEndsWithThePointerWhole(t *testing.T) {
	text := "the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images; copy the file's path instead"
	more := "f4 or /notices shows all"
	if got := WrapWithin(text, 80, 3, more); len(got) != 2 || strings.Join(got, " ") != text {
		t.Fatalf("text that fits was changed: %q", got)
	}
	long := strings.Repeat(text+" ", 4)
	for _, w := range []int{20, 28, 40, 78} {
		for h := 1; h <= 4; h++ {
			got := WrapWithin(long, w, h, more)
			if len(got) > h {
				t.Fatalf("w=%d h=%d: %d lines: %q", w, h, len(got), got)
			}
			for _, l := range got {
				if Width(l) > w {
					t.Fatalf("w=%d h=%d: a line is wider than %d: %q", w, h, w, l)
				}
			}
			if h == 1 && w < Width(more)+2 {
				continue // not even the pointer fits: what fits of it
			}
			flat := strings.Join(got, " ")
			if !strings.HasSuffix(flat, Ellipsis+" "+more) {
				t.Fatalf("w=%d h=%d: the pointer is not whole at the end: %q", w, h, got)
			}
			if shown := strings.TrimSuffix(flat, " "+Ellipsis+" "+more); !strings.HasPrefix(long, shown) && shown != Ellipsis+" "+more {
				t.Fatalf("w=%d h=%d: the text shown is not the start of the text, whole words: %q", w, h, shown)
			}
		}
	}
}
