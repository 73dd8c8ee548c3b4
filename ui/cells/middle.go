package cells

import "github.com/charmbracelet/x/ansi"

// FitMiddle makes one plain line s exactly w cells, cutting it in the
// middle when it is longer: names that differ at their end (shot-1.png,
// shot-2.png) stay told apart. The end keeps up to half of the width.
func FitMiddle(s string, w int) string {
	sw := Width(s)
	if sw <= w || w < 5 {
		return Fit(s, w)
	}
	tail := min(w/2, 16)
	head := w - tail - Width(Ellipsis)
	return Fit(ansi.Truncate(s, head, "")+Ellipsis+ansi.TruncateLeft(s, sw-tail, ""), w)
}
