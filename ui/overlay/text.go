package overlay

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// ellipsis marks text cut to fit. One cell wide in every terminal font.
const ellipsis = "…"

// truncate cuts s (which may be styled) to at most w cells, ending with an
// ellipsis when anything was cut. Width is measured by grapheme, as
// lipgloss.Width does, so CJK and emoji never overflow.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, ellipsis)
}

// width is the display width of one line of (possibly styled) text. Plain
// printable ASCII, the common case, is measured without grapheme
// segmentation.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// fit truncates one line s to w cells and pads it with spaces to exactly w
// cells, measuring it once when it already fits.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := width(s)
	if sw > w {
		s = ansi.Truncate(s, w, ellipsis)
		sw = width(s)
	}
	if sw < w {
		s += spaces(w - sw)
	}
	return s
}

// spaces returns n spaces.
func spaces(n int) string {
	const blank = "                                                                                                                                "
	if n <= len(blank) {
		return blank[:max(n, 0)]
	}
	return strings.Repeat(" ", n)
}

// block makes lines into exactly h lines of exactly w cells: extra lines are
// dropped, missing ones are blank.
func block(lines []string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = spaces(w)
		}
	}
	return out
}

// padLines is block for lines that are already exactly w cells wide.
func padLines(lines []string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	if len(lines) >= h {
		return lines[:h]
	}
	out := make([]string, h)
	copy(out, lines)
	for i := len(lines); i < h; i++ {
		out[i] = spaces(w)
	}
	return out
}

// wrapText word-wraps plain or styled text to w cells, breaking long words
// (paths, URLs) where they must. Each returned line is at most w wide.
func wrapText(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// indentWrap wraps text to w cells with every line after the first indented
// by indent spaces (list-style hanging indent).
func indentWrap(s string, w, indent int) []string {
	first := wrapText(s, w)
	if len(first) <= 1 || indent <= 0 || indent >= w {
		return first
	}
	rest := strings.Join(first[1:], " ")
	out := []string{first[0]}
	pad := strings.Repeat(" ", indent)
	for _, l := range wrapText(rest, w-indent) {
		out = append(out, pad+l)
	}
	return out
}

// place puts a box (lines of equal width bw) in the centre of a w x h area
// of blank cells and returns the area's lines.
func place(box []string, bw, w, h int) string {
	bh := len(box)
	x := max((w-bw)/2, 0)
	y := max((h-bh)/2, 0)
	left, right := spaces(x), spaces(max(w-x-bw, 0))
	var b strings.Builder
	blank := spaces(max(w, 0))
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		j := i - y
		switch {
		case j < 0 || j >= bh:
			b.WriteString(blank)
		case x+bw > w: // the box is wider than the area: cut it
			b.WriteString(fit(box[j], w))
		default:
			b.WriteString(left)
			b.WriteString(box[j])
			b.WriteString(right)
		}
	}
	return b.String()
}

// frame draws a rounded border around inner lines that are already exactly
// innerW wide. The title, if any, is set into the top border.
func frame(inner []string, innerW int, border lipgloss.Style, title string) []string {
	b := lipgloss.RoundedBorder()
	out := make([]string, 0, len(inner)+2)
	top := b.Top
	topLine := ""
	if title != "" && innerW >= 4 {
		t := truncate(title, innerW-2)
		topLine = border.Render(b.TopLeft+top) + t +
			border.Render(strings.Repeat(top, max(innerW-1-width(t), 0))+b.TopRight)
	} else {
		topLine = border.Render(b.TopLeft + strings.Repeat(top, innerW) + b.TopRight)
	}
	out = append(out, topLine)
	l, r := border.Render(b.Left), border.Render(b.Right)
	for _, line := range inner {
		out = append(out, l+line+r)
	}
	out = append(out, border.Render(b.BottomLeft+strings.Repeat(b.Bottom, innerW)+b.BottomRight))
	return out
}
