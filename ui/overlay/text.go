package overlay

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
)

// block makes lines into exactly h lines of exactly w cells: extra lines are
// dropped, missing ones are blank.
func block(lines []string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = cells.Fit(lines[i], w)
		} else {
			out[i] = cells.Spaces(w)
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
		out[i] = cells.Spaces(w)
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
	left, right := cells.Spaces(x), cells.Spaces(max(w-x-bw, 0))
	var b strings.Builder
	blank := cells.Spaces(max(w, 0))
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		j := i - y
		switch {
		case j < 0 || j >= bh:
			b.WriteString(blank)
		case x+bw > w: // the box is wider than the area: cut it
			b.WriteString(cells.Fit(box[j], w))
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
		t := cells.Truncate(title, innerW-2)
		topLine = border.Render(b.TopLeft+top) + t +
			border.Render(strings.Repeat(top, max(innerW-1-cells.Width(t), 0))+b.TopRight)
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
