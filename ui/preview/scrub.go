package preview

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Scrubbing: how a sixel or inline image leaves the screen for good.
//
// Tried in a real xterm 379 (`-ti vt340`): text written over a sixel
// image erases it, but erasing the cells with ECH or EL (which Bubble
// Tea's renderer uses for runs of blank cells) only hides it: xterm keeps
// the image and paints it again whenever it repaints that part of its
// window (an overlay drawn nearby, the window uncovered). And the renderer
// scrolls lines that moved (DECSTBM and SU/SD), which moves an image with
// them, away from the cells the frame had it in. So a file picker's
// preview came back, six lines higher, beside the image pane, and the
// pane's picture beside the help overlay after the pane closed. While a
// picture that left is not surely gone, the blank cells of its columns,
// on every line (a scroll moves it up or down, never sideways), are
// concealed spaces in the frame (SGR 8): the renderer writes them as text
// (it erases only plain blanks), which erases the image wherever it went,
// and they look like any blank cell. Not no-break spaces: the cells a
// picture was drawn in are those already, and the renderer writes nothing
// where a cell stays the same. Once a frame holding them has reached the
// terminal (Draw of an unchanged generation), they are plain spaces again.

// scrubbed is what a blank cell to scrub becomes.
const scrubbed = "\x1b[8m \x1b[28m"

// colSpan is the columns X to X+W-1.
type colSpan struct {
	X, W int
}

// leave records that a picture shown at p left the screen (or will be
// painted over): its columns are scrubbed until a frame holding them has
// been drawn. The spans are kept merged, so there are never more than the
// screen is wide.
func (s *Stage) leave(p Placement) {
	spans := append(s.scrub, colSpan{X: p.X, W: p.Cols})
	slices.SortFunc(spans, func(a, b colSpan) int { return a.X - b.X })
	out := spans[:1]
	for _, c := range spans[1:] {
		last := &out[len(out)-1]
		if c.X <= last.X+last.W {
			last.W = max(last.W, c.X+c.W-last.X)
			continue
		}
		out = append(out, c)
	}
	s.scrub = out
}

// scrubLines makes the plain spaces of lines within the spans concealed
// spaces.
func scrubLines(lines []string, spans []colSpan) {
	for _, c := range spans {
		for y := range lines {
			lines[y] = scrubWithin(lines[y], c.X, c.X+c.W)
		}
	}
}

// scrubWithin returns line with each plain space in cells x0 to x1-1
// concealed; escape sequences and other text are kept as they are.
func scrubWithin(line string, x0, x1 int) string {
	if !strings.Contains(line, " ") {
		return line
	}
	var b strings.Builder
	b.Grow(len(line) + 8)
	var state byte
	x := 0
	rest := line
	for len(rest) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(rest, state, nil)
		state = newState
		if seq == " " && x >= x0 && x < x1 {
			b.WriteString(scrubbed)
		} else {
			b.WriteString(seq)
		}
		x += width
		rest = rest[n:]
	}
	return b.String()
}
