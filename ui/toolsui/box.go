package toolsui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/uictx"
)

// frame puts lines in the overlay's box, no wider than w-4 and no taller
// than h, and says where the box goes in the w×h area (centred).
func frame(ctx *uictx.Context, lines []string, w, h int) (box string, x, y int) {
	st := &ctx.Styles
	b := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
		BorderForeground(st.Overlay.GetBorderTopForeground()).Padding(0, 1).
		Render(strings.Join(lines, "\n"))
	out := strings.Split(b, "\n")
	if len(out) > h {
		out = out[:max(h, 1)]
	}
	bw := 0
	for i, l := range out {
		if cells.Width(l) > w {
			out[i] = cells.Truncate(l, w)
		}
		bw = max(bw, cells.Width(out[i]))
	}
	return strings.Join(out, "\n"), max((w-bw)/2, 0), max((h-len(out))/2, 0)
}

// wrap is untrusted text made safe and wrapped to width w, at most max
// lines (the last says how many more there are).
func wrap(s string, w, limit int) []string {
	s = termsafe.Sanitize(strings.TrimRight(s, "\n"))
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		lines = append(lines, strings.Split(ansi.Wrap(strings.ReplaceAll(line, "\t", "    "), max(w, 1), ""), "\n")...)
		if len(lines) > limit {
			break // the rest is not shown: not wrapped either
		}
	}
	if len(lines) > limit {
		more := len(lines) - limit + 1
		lines = append(lines[:limit-1], "… "+strconv.Itoa(more)+" more lines")
	}
	return lines
}
