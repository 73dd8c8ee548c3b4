package slash

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
)

// ellipsis marks text cut to fit; one cell wide in every terminal font.
const ellipsis = "…"

// width is the display width of one line of (possibly styled) text,
// measured by grapheme as lipgloss does; plain ASCII skips segmentation.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// truncate cuts s (which may be styled) to at most w cells, ending with an
// ellipsis when anything was cut.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, ellipsis)
}

// fit truncates one line to w cells and pads it with spaces to exactly w.
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
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// oneLine makes text safe to show on one line: control sequences become
// visible placeholders (termsafe), newlines a return symbol, tabs a space.
// Candidates may be model names from the gateway, so they pass here.
func oneLine(s string) string {
	s = termsafe.Sanitize(s)
	if strings.ContainsAny(s, "\n\t\r") {
		s = strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎", "\t", " ").Replace(s)
	}
	return s
}
