package preview

import (
	"strings"
	"unicode/utf8"
)

// frameLines is what Off draws: the picture's box outlined, with a label
// (parley's own words: format and size) in the middle, centred in w×h
// cells. A box too small for an outline holds the label alone, cut to fit.
func frameLines(label string, cols, rows, w, h int) []string {
	top, left := (h-rows)/2, (w-cols)/2
	blank := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = blank
	}
	pad := func(s string) string { return blank[:left] + s + blank[:w-cols-left] }
	if rows < 3 || cols < 3 {
		lines[top+rows/2] = pad(centre(label, cols))
		return lines
	}
	lines[top] = pad("┌" + strings.Repeat("─", cols-2) + "┐")
	for r := 1; r < rows-1; r++ {
		inner := strings.Repeat(" ", cols-2)
		if r == rows/2 {
			inner = centre(label, cols-2)
		}
		lines[top+r] = pad("│" + inner + "│")
	}
	lines[top+rows-1] = pad("└" + strings.Repeat("─", cols-2) + "┘")
	return lines
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
