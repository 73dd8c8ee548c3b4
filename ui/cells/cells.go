// Package cells holds the UI's one rule for fitting text to terminal cells
// and its one rule for putting untrusted text on one line. Every part of
// the UI uses these, so "fit" and "one line" mean the same everywhere.
package cells

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
)

// Ellipsis marks text cut to fit; one cell wide in every terminal font.
const Ellipsis = "…"

// Width is the display width of one line of (possibly styled) text. Plain
// printable ASCII with CSI sequences (colours), the common case, is
// measured without grapheme segmentation.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++ // parameters and intermediates
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// Truncate cuts s (which may be styled) to at most w cells, ending with an
// ellipsis when anything was cut.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, Ellipsis)
}

// Fit makes one line s exactly w cells: cut with an ellipsis when longer,
// padded with spaces when shorter.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		s = ansi.Truncate(s, w, Ellipsis)
		sw = Width(s)
	}
	if sw < w {
		s += Spaces(w - sw)
	}
	return s
}

// Block makes lines exactly h lines of exactly w cells each, joined by
// newlines.
func Block(lines []string, w, h int) string {
	if h <= 0 || w <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(h * (w + 1))
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			b.WriteString(Fit(lines[i], w))
		} else {
			b.WriteString(Spaces(w))
		}
	}
	return b.String()
}

// Stack is Block for lines that are already exactly w cells wide: it
// only drops extra lines, adds blank ones and joins them, measuring
// nothing (measuring styled lines is the expensive part of Block).
func Stack(lines []string, w, h int) string {
	if h <= 0 || w <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(h * (w + 1))
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			b.WriteString(lines[i])
		} else {
			b.WriteString(Spaces(w))
		}
	}
	return b.String()
}

// Spaces returns n spaces (none for n ≤ 0).
func Spaces(n int) string {
	const blank = "                                                                                                                                "
	if n <= len(blank) {
		return blank[:max(n, 0)]
	}
	return strings.Repeat(" ", n)
}

// OneLine makes untrusted text (a model id, a title, a file name, an error
// from the gateway) safe to show on one line: termsafe.Line, the project's
// one rule for single-line fields (control sequences become visible
// placeholders, a line break shows as \n, a tab as \t).
func OneLine(s string) string { return termsafe.Line(s) }

// Fold joins the lines of text the user wrote into one line: runs of
// white space, line breaks included, become one space. Control sequences
// become visible placeholders.
func Fold(s string) string {
	return strings.Join(strings.Fields(termsafe.Sanitize(s)), " ")
}

// Input makes text typed or pasted into a one-line input safe to keep and
// to draw as it is: line breaks and tabs become spaces (a run of line
// breaks one space), and control characters, bidi controls and invalid
// bytes are dropped rather than shown as placeholders, because the text is
// a value (a filter, a path, a title), not a message to read.
func Input(s string) string {
	if termsafe.IsClean(s) && !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	lastBreak := false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			if !lastBreak {
				b.WriteByte(' ')
			}
			lastBreak = true
			continue
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError || unicode.IsControl(r) || !termsafe.IsClean(string(r)):
			// dropped
		default:
			b.WriteRune(r)
		}
		lastBreak = false
	}
	return b.String()
}
