package mdstream

import (
	"strconv"
	"strings"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// Code block labels (Options.CodeNumbers). glamour puts a blank line before
// a code block (inside a quote, a line with only the quote's bar); the
// label is written there, at the code's column: "[3] go". A block right
// under a list item's text has the item's line above it: the label goes
// after that text when it fits, and is left out when it does not (the
// numbering is unchanged, so every other label still matches CodeBlocks).

// labelSGR opens the style of labels: the colour of horizontal rules (both
// are chrome, not content); "" when the style has none.
func labelSGR(style ansi.StyleConfig) string {
	c := style.HorizontalRule.Color
	if c == nil || *c == "" {
		return ""
	}
	s := lipgloss.NewStyle().Foreground(lipgloss.Color(*c)).Render("x")
	if i := strings.IndexByte(s, 'x'); i > 0 {
		return s[:i]
	}
	return ""
}

// withLabel writes the label of code block n (language lang) into line at
// cell column col, or after the line's text if that reaches col.
func (r *Renderer) withLabel(line string, col, n int, lang string) string {
	label := "[" + strconv.Itoa(n) + "]"
	full := label
	if lang != "" {
		full += " " + lang
	}
	text := strings.TrimRight(xansi.Strip(line), " ")
	end := xansi.StringWidth(text)
	at := col
	if end > 0 && end+2 > col {
		at = end + 2
	}
	switch {
	case at+xansi.StringWidth(full) <= r.width:
		label = full
	case at+xansi.StringWidth(label) > r.width:
		return line
	}
	var b strings.Builder
	head := xansi.Truncate(line, end, "")
	b.WriteString(head)
	if strings.IndexByte(head, 0x1b) >= 0 {
		b.WriteString(sgrReset)
	}
	b.WriteString(strings.Repeat(" ", at-end))
	if r.label != "" {
		b.WriteString(r.label)
		b.WriteString(label)
		b.WriteString(sgrReset)
	} else {
		b.WriteString(label)
	}
	return b.String()
}

// nonBreaking turns the spaces of a code span's padding into non-breaking
// spaces, and reports whether there were any.
func nonBreaking(pad string) (string, bool) {
	if !strings.Contains(pad, " ") {
		return pad, false
	}
	return strings.ReplaceAll(pad, " ", nbsp), true
}

// nbsp is U+00A0 NO-BREAK SPACE. cleanLine turns it back into a space
// (counted as text, so trailing padding stays): a terminal shows both
// alike, and a copied line should hold plain spaces.
const nbsp = "\u00a0"
