package ui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"parley/ui/cells"
)

// frame collects the parts of one screen, each drawn into its rectangle,
// and joins them into the string View returns. Parts are cached strings of
// exactly their rectangle's size (lines of exactly W cells, H lines); the
// frame only joins them, so composing costs a copy of the screen.
//
// Parts that sit side by side (the transcript and the side pane) form a
// band and are joined row by row; a part alone in its rows is copied as
// is, without splitting it into lines.
type frame struct {
	w, h  int
	bands []band
}

// band is a strip of rows holding one or more parts left to right.
type band struct {
	y, h  int
	parts []placed
}

// placed is one part's text in its rectangle.
type placed struct {
	r    rect
	text string
}

// place adds a part. Parts are added top to bottom, and left to right
// within a band; empty rectangles are skipped.
func (f *frame) place(r rect, text string) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	if n := len(f.bands); n > 0 && f.bands[n-1].y == r.Y && f.bands[n-1].h == r.H {
		f.bands[n-1].parts = append(f.bands[n-1].parts, placed{r, text})
		return
	}
	f.bands = append(f.bands, band{y: r.Y, h: r.H, parts: []placed{{r, text}}})
}

// String joins the bands into the screen's text.
func (f *frame) String() string {
	size := 0
	for _, b := range f.bands {
		for _, p := range b.parts {
			size += len(p.text) + p.r.H
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	for i, b := range f.bands {
		if i > 0 {
			sb.WriteByte('\n')
		}
		b.write(&sb, f.w)
	}
	return sb.String()
}

func (b band) write(sb *strings.Builder, w int) {
	if len(b.parts) == 1 && b.parts[0].r.X == 0 {
		sb.WriteString(b.parts[0].text)
		return
	}
	cols := make([][]string, len(b.parts))
	for i, p := range b.parts {
		cols[i] = strings.SplitN(p.text, "\n", p.r.H)
	}
	for row := 0; row < b.h; row++ {
		if row > 0 {
			sb.WriteByte('\n')
		}
		x := 0
		for i, p := range b.parts {
			if p.r.X > x {
				sb.WriteString(strings.Repeat(" ", p.r.X-x))
			}
			if row < len(cols[i]) {
				sb.WriteString(cols[i][row])
			} else {
				sb.WriteString(strings.Repeat(" ", p.r.W))
			}
			x = p.r.X + p.r.W
		}
		if x < w {
			sb.WriteString(strings.Repeat(" ", w-x))
		}
	}
}

// layOver lays box over the frame bg (w×h cells) at (x, y), drawn on a
// cell buffer: a wide character or a style the box's edges cut is cleared
// whole, never left half drawn, and the box is clipped to the screen.
// Every line of the result is exactly w cells wide.
func layOver(bg string, w, h int, box string, x, y int) string {
	layers := []*lipgloss.Layer{lipgloss.NewLayer(bg)}
	if box != "" {
		layers = append(layers, lipgloss.NewLayer(box).X(x).Y(y).Z(1))
	}
	c := lipgloss.NewCanvas(w, h)
	c.Compose(lipgloss.NewCompositor(layers...))
	lines := strings.Split(c.Render(), "\n")
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = cells.Fit(lines[i], w)
		} else {
			out[i] = cells.Spaces(w)
		}
	}
	return strings.Join(out, "\n")
}
