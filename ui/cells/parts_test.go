package cells

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// partsCases are clusters a wcwidth terminal draws wider than one glyph.
var partsCases = []struct{ in, want string }{
	{"a family 👨\u200d👩\u200d👧 here", "a family 👨👩👧 here"},
	{"thumbs 👍🏽 up", "thumbs 👍\u200b🏽 up"},
	{"love ❤\ufe0f", "love ❤"},
	{"key 1\ufe0f\u20e3", "key 1\u20e3"},
	{"coder 👩🏽\u200d💻", "coder 👩\u200b🏽💻"},
	{"flag 🏳\ufe0f\u200d🌈", "flag 🏳🌈"},
	{"thai กำ", "thai ก\u200bำ"},
	{"plain text, é and 日本語", "plain text, é and 日本語"},
	{"flag 🇩🇪 stays", "flag 🇩🇪 stays"},
}

// TestParts: every cluster whose widths differ becomes its parts, all of
// them, and the result measures the same both ways; the rest is untouched.
func TestParts(t *testing.T) {
	for _, c := range partsCases {
		got := Parts(c.in)
		if got != c.want {
			t.Errorf("Parts(%q) = %q, want %q", c.in, got, c.want)
		}
		if g, w := ansi.StringWidth(got), ansi.StringWidthWc(got); g != w {
			t.Errorf("Parts(%q) = %q measures %d by grapheme and %d by wcwidth", c.in, got, g, w)
		}
		// Every code point is shown but the joiners and selectors.
		strip := strings.NewReplacer("\u200d", "", "\ufe0f", "", "\u200b", "")
		if strip.Replace(got) != strip.Replace(c.in) {
			t.Errorf("Parts(%q) lost a part: %q", c.in, got)
		}
	}
	if s := "nothing to do"; Parts(s) != s {
		t.Error("plain text changed")
	}
}

// TestPartsStream: however the text is cut into pieces (at rune
// boundaries, as the sanitiser hands it on), the pieces measure the same
// both ways and show every part, as Parts does for the whole (a joiner
// between parts may stay or go: it takes no cell).
func TestPartsStream(t *testing.T) {
	visible := strings.NewReplacer("\u200d", "", "\ufe0f", "", "\u200b", "")
	for _, c := range partsCases {
		runes := []rune(c.in)
		for cut := 1; cut < len(runes); cut++ {
			var p PartsStream
			got := p.Write(string(runes[:cut])) + p.Write(string(runes[cut:]))
			if g, w := ansi.StringWidth(got), ansi.StringWidthWc(got); g != w {
				t.Errorf("%q cut at rune %d: %q measures %d by grapheme and %d by wcwidth", c.in, cut, got, g, w)
			}
			if visible.Replace(got) != visible.Replace(c.want) {
				t.Errorf("%q cut at rune %d: %q, want the parts of %q", c.in, cut, got, c.want)
			}
		}
	}
}

// TestForWcWidthLeavesParts: text made by Parts passes ForWcWidth
// unchanged (nothing left to cut).
func TestForWcWidthLeavesParts(t *testing.T) {
	for _, c := range partsCases {
		if got := ForWcWidth(Parts(c.in)); got != Parts(c.in) {
			t.Errorf("ForWcWidth(Parts(%q)) = %q", c.in, got)
		}
	}
}

// TestDetach: a line that starts with a joining code point gets a zero
// width space before it, so an indent put before the line keeps its cells.
func TestDetach(t *testing.T) {
	for in, want := range map[string]string{
		"🏽 tone":         "\u200b🏽 tone",
		"\u0301e":        "\u200b\u0301e",
		"\x1b[1m\u200dx": "\x1b[1m\u200b\u200dx",
		"plain":          "plain",
		"👍🏽":             "👍🏽",
		"":               "",
	} {
		if got := Detach(in); got != want {
			t.Errorf("Detach(%q) = %q, want %q", in, got, want)
		}
		if got := ansi.StringWidth("  " + Detach(in)); got != 2+ansi.StringWidth(Detach(in)) {
			t.Errorf("an indent before %q takes %d cells with it", in, got)
		}
	}
}
