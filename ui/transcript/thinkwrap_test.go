package transcript

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// thinkPieces are what the random texts of TestThinkWrapIsIncremental are
// made of: words, runs of spaces, line breaks, words longer than a line
// (with and without hyphens and slashes), wide and combining characters.
var thinkPieces = []string{
	"the", "model", "considers", "List<String>", "a<b>c", " ", " ", " ", "   ", "\n", "\n\n",
	"wl-clipboard", "/usr/local/share/very/long/path/to/somewhere/else",
	"supercalifragilisticexpialidocious-and-then-some-more-hyphenated-words",
	strings.Repeat("x", 57), "漢字かな混じり", "é", "e\u0301", "👍🏽", "␛[31m",
}

// TestThinkWrapIsIncremental grows random texts a random piece at a time
// and checks, after every update, that the incremental wrapper gives the
// lines wrapPlain gives for the whole text (spaces at the ends of lines
// aside: they are never seen), at rooms from 1 to 60.
func TestThinkWrapIsIncremental(t *testing.T) {
	for seed := range uint64(24) {
		r := rand.New(rand.NewPCG(seed, 11))
		room := 1 + r.IntN(60)
		var w thinkWrap
		w.reset(room)
		var text strings.Builder
		for step := range 300 {
			p := thinkPieces[r.IntN(len(thinkPieces))]
			if r.IntN(3) == 0 && len(p) > 1 {
				// A piece cut short: the next delta continues it.
				p = p[:len(p)/2]
				for !utf8.ValidString(p) {
					p = p[:len(p)-1]
				}
			}
			text.WriteString(p)
			w.update(text.String())
			got := trimEnds(append(slices.Clone(w.lines), w.open...))
			want := trimEnds(wrapPlain(text.String(), room, nil))
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d room %d step %d: text %q\nincremental %q\nwhole       %q", seed, room, step, text.String(), got, want)
			}
		}
		if len(w.lines) == 0 {
			t.Fatalf("seed %d: no line was ever final", seed)
		}
	}
}

// TestThinkWrapKeepsWorkSmall checks that a long paragraph without any
// line break (the hostile case: one huge line) is not wrapped again whole
// at every update: what stays open is a few lines.
func TestThinkWrapKeepsWorkSmall(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("word ", 20_000),
		strings.Repeat("y", 100_000),
		strings.Repeat("漢", 30_000),
	} {
		var w thinkWrap
		w.reset(40)
		for n := 0; n < len(text); n += 97 {
			w.update(text[:n])
			if open := len(text[:n]) - w.from; open > 4*4*40 {
				t.Fatalf("%.10q…: %d bytes are wrapped again at every update", text, open)
			}
		}
	}
}

// trimEnds drops spaces at the ends of lines and blank lines at the end.
func trimEnds(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

func TestLineStartRefusesWhatDoesNotMatch(t *testing.T) {
	if _, ok := lineStart("abc def", []string{"abc", "xyz"}, 1); ok {
		t.Error("lineStart took a line that is not in the paragraph")
	}
	if off, ok := lineStart("  abc   def ghi", []string{"  abc", "def ghi"}, 1); !ok || off != 8 {
		t.Errorf("lineStart = %d, %v; want 8, true", off, ok)
	}
	if off, ok := lineStart("abcdef", []string{"abc", "def"}, 1); !ok || off != 3 {
		t.Errorf("lineStart of a cut word = %d, %v; want 3, true", off, ok)
	}
}
