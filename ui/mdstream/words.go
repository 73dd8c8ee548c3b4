package mdstream

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Whole words (Options.WholeWords). glamour wraps text with
// lipgloss.Wrap, which breaks after every "-", and in lists, quotes and
// the document's final wrap also after ".", "," and ";": "wl-clipboard"
// became "wl-" and "clipboard", "docs.example.com" "docs." and
// "example.com", and a word ending in such a character at the end of a line
// was put past the width (then wrapped again, leaving "." alone on a
// line). Inside a word that fits a line, prepare writes these characters
// as look-alikes of the same width that are no break points, and
// renderParsed writes them back after glamour has wrapped. A word longer
// than a line keeps its break points.

// breakLookalikes maps each break character to its stand-in; all are one
// cell wide (as the character they stand for) and never break points.
var breakLookalikes = [...][2]string{
	{"-", nbHyphen}, // U+2011 NON-BREAKING HYPHEN
	{".", "\u2024"}, // ONE DOT LEADER
	{",", "\u201a"}, // SINGLE LOW-9 QUOTATION MARK
	{";", "\u037e"}, // GREEK QUESTION MARK
}

// hasLookalike reports whether b holds a stand-in already: then the
// characters cannot be told apart after rendering, and none is put in.
func hasLookalike(b []byte) bool {
	for _, l := range breakLookalikes {
		if bytes.Contains(b, []byte(l[1])) {
			return true
		}
	}
	return false
}

// restoreBreaks writes the stand-ins back as the characters they stand for.
func restoreBreaks(s string) string {
	if !strings.ContainsAny(s, "\u2011\u2024\u201a\u037e") {
		return s
	}
	return strings.NewReplacer(
		breakLookalikes[0][1], breakLookalikes[0][0],
		breakLookalikes[1][1], breakLookalikes[1][0],
		breakLookalikes[2][1], breakLookalikes[2][0],
		breakLookalikes[3][1], breakLookalikes[3][0],
	).Replace(s)
}

// wholeWords gives a text node stand-ins for the break characters inside
// its words that fit a line.
func (p *preparer) wholeWords(t *gast.Text) {
	v := t.Segment.Value(p.ext)
	if !bytes.ContainsAny(v, "-.,;") {
		return
	}
	out := make([]byte, 0, len(v)+16)
	changed := false
	for len(v) > 0 {
		sp := bytes.IndexAny(v, " \t\n")
		if sp == 0 {
			out = append(out, v[0])
			v = v[1:]
			continue
		}
		word := v
		if sp > 0 {
			word = v[:sp]
		}
		v = v[len(word):]
		if !bytes.ContainsAny(word, "-.,;") || ansi.StringWidth(string(word)) > p.r.width {
			out = append(out, word...)
			continue
		}
		// glamour decodes entity references after this ("&amp;"): their
		// ";" must stay one.
		entities := bytes.IndexByte(word, '&') >= 0
		for _, c := range word {
			switch c {
			case '-':
				out = append(out, breakLookalikes[0][1]...)
			case '.':
				out = append(out, breakLookalikes[1][1]...)
			case ',':
				out = append(out, breakLookalikes[2][1]...)
			case ';':
				if entities {
					out = append(out, c)
					continue
				}
				out = append(out, breakLookalikes[3][1]...)
			default:
				out = append(out, c)
				continue
			}
			changed = true
		}
	}
	if !changed {
		return
	}
	start := len(p.ext)
	p.ext = append(p.ext, out...)
	t.Segment = text.NewSegment(start, len(p.ext))
	p.lookalikes = true
}

// codeWords is wholeWords for the text of a code span.
func (p *preparer) codeWords(n *gast.CodeSpan) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*gast.Text); ok {
			p.wholeWords(t)
		}
	}
}
