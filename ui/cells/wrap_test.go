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
