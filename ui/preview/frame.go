package preview

import (
	"strings"
	"unicode/utf8"
)

// frameLines is what Off draws: the picture's box outlined, with a label
// (parley's own words: the format, then the size if there is room) in the
// middle, centred in w×h cells. When the box is too small for an outline,
// the label stands alone on the middle line of the area.
func frameLines(format, size string, cols, rows, w, h int) []string {
	top, left := (h-rows)/2, (w-cols)/2
	blank := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = blank
	}
	pad := func(s string) string { return blank[:left] + s + blank[:w-cols-left] }
	if rows < 3 || cols < 3 {
		lines[h/2] = centre(label(format, size, w), w)
		return lines
	}
	lines[top] = pad("┌" + strings.Repeat("─", cols-2) + "┐")
	for r := 1; r < rows-1; r++ {
		inner := strings.Repeat(" ", cols-2)
		if r == rows/2 {
			inner = centre(label(format, size, cols-2), cols-2)
		}
		lines[top+r] = pad("│" + inner + "│")
	}
	lines[top+rows-1] = pad("└" + strings.Repeat("─", cols-2) + "┘")
	return lines
}

// label is "format size" when it fits in n cells, else the format alone.
func label(format, size string, n int) string {
	if l := format + " " + size; utf8.RuneCountInString(l) <= n {
		return l
	}
	return format
}

// centre cuts s (single-width characters only) to n cells and centres it
// in n cells.
func centre(s string, n int) string {
	runes := []rune(s)
	if len(runes) > n {
		runes = runes[:n]
	}
	k := utf8.RuneCountInString(string(runes))
	l := (n - k) / 2
	return strings.Repeat(" ", l) + string(runes) + strings.Repeat(" ", n-k-l)
}
