package mdstream

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// softwrap cuts a line wider than width into lines of at most width cells.
// glamour's word wrap leaves some lines too long (a word ending in a
// breakpoint character at the end of a line is put after the limit), and
// it does not wrap code; cutting such a line at the width would leave "."
// or ";" alone on the next line, or break a word. So it breaks at the last
// space that fits, unless what follows the space is only punctuation (it
// stays with the word before it); a word longer than the whole line is cut
// at the width. The continuation lines start with the line's prefix (its
// indent and block quote bars), so wrapped text stays inside its block;
// a prefix of more than half the width is not repeated. Styles open at the
// break are opened again on the next line.
func softwrap(s string, width int) []string {
	g := graphemes(s)
	pw := 0 // cells of the prefix
	for pw < len(g.cells) && (g.cells[pw] == " " || g.cells[pw] == "│") {
		pw++
	}
	prefix := ""
	if pw <= width/2 {
		prefix = s[:g.off[min(pw, len(g.off)-1)]]
		if strings.IndexByte(prefix, 0x1b) >= 0 {
			prefix += sgrReset
		}
	}
	var out []string
	for ansi.StringWidth(s) > width {
		b, next := g.breakAt(width, pw)
		head := strings.TrimRight(s[:g.off[b]], " ")
		if strings.IndexByte(head, 0x1b) >= 0 {
			head += sgrReset
		}
		out = append(out, head)
		s = prefix + openStyles(s[:g.off[next]]) + s[g.off[next]:]
		g = graphemes(s)
		pw = 0
		for pw < len(g.cells) && (g.cells[pw] == " " || g.cells[pw] == "│") {
			pw++
		}
	}
	return append(out, s)
}

// cellText is a line split into cells: cells[i] is the grapheme that
// starts at cell i ("" for the second cell of a wide one), off[i] the byte
// offset where cell i starts (before the escape sequences in front of it);
// off has one more entry, the end of the line.
type cellText struct {
	cells []string
	off   []int
}

func graphemes(s string) cellText {
	var g cellText
	for i := 0; i < len(s); {
		start := i
		for i < len(s) && s[i] == 0x1b {
			n, _ := escapeLen(s[i:])
			i += max(n, 1)
		}
		if i >= len(s) {
			break
		}
		c, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if len(c) == 0 {
			c = s[i : i+1]
		}
		g.cells = append(g.cells, c)
		g.off = append(g.off, start)
		for range w - 1 {
			g.cells = append(g.cells, "")
			g.off = append(g.off, i+len(c))
		}
		i += len(c)
	}
	g.off = append(g.off, len(s))
	return g
}

// breakAt returns the cell to end the first line at and the cell the next
// line starts at, for a line wider than width whose first pw cells are its
// prefix: at the last space that fits, or an earlier one (that still
// leaves the line half full) when only punctuation follows the last; a
// word wider than the room is cut at the width.
func (g cellText) breakAt(width, pw int) (int, int) {
	good, any := -1, -1
	for c := pw + 1; c <= width && c < len(g.cells); c++ {
		if g.cells[c] != " " || g.cells[c-1] == " " {
			continue
		}
		any = c
		next := c
		for next < len(g.cells) && g.cells[next] == " " {
			next++
		}
		if next < len(g.cells) && !onlyPunct(g.word(next)) {
			good = c
		}
	}
	best := any
	if good > pw+(width-pw)/2 {
		best = good // a line at least half full, not ending before "." alone
	}
	if best < 0 {
		// One word wider than the room: cut it at the width (a wide
		// grapheme at the edge goes to the next line whole). Indentation
		// as wide as the room (a code line of many tabs) is cut too: the
		// line holds its first width cells, the rest goes on.
		b := max(width, 1)
		for b > pw+1 && b < len(g.cells) && g.cells[b] == "" {
			b--
		}
		return b, b
	}
	next := best
	for next < len(g.cells) && g.cells[next] == " " {
		next++
	}
	return best, next
}

// word is the text from cell c to the next space.
func (g cellText) word(c int) string {
	var b strings.Builder
	for ; c < len(g.cells) && g.cells[c] != " "; c++ {
		b.WriteString(g.cells[c])
	}
	return b.String()
}

// onlyPunct reports whether a word has no letter or digit: punctuation or
// symbols, which belong to the word before them.
func onlyPunct(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// openStyles returns the SGR sequences in s since its last reset: what is
// in effect at its end, to open again on a continuation line.
func openStyles(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != 0x1b {
			i++
			continue
		}
		n, sgr := escapeLen(s[i:])
		n = max(n, 1)
		if sgr {
			seq := s[i : i+n]
			if seq == "\x1b[m" || seq == "\x1b[0m" {
				b.Reset()
			} else {
				b.WriteString(seq)
			}
		}
		i += n
	}
	return b.String()
}
