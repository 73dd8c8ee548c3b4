package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

const newTextBadge = "↓ new text below"

// View returns the window: exactly the height's number of lines, each
// exactly the width wide, joined from cached lines. It renders nothing: a
// message that is not rendered at the current width (which only happens to
// messages outside the window) shows as blank lines.
func (t *Transcript) View() string {
	top := t.top()
	first, firstOff := t.hs.find(top)
	badge := t.NewBelow()
	// Two passes over the window: the first sizes the buffer, so View makes
	// one allocation of exactly the output.
	size := 0
	t.window(first, firstOff, func(line string) { size += len(line) + 1 })
	var b strings.Builder
	b.Grow(size + 256) // the badge, when drawn, may add a little
	n := 0
	t.window(first, firstOff, func(line string) {
		if n > 0 {
			b.WriteByte('\n')
		}
		if badge && n == t.h-1 {
			line = t.withBadge(line)
		}
		b.WriteString(line)
		n++
	})
	return b.String()
}

// window calls emit for each of the window's lines, starting at line off
// of item i, padding with blank lines after the end.
func (t *Transcript) window(i, off int, emit func(string)) {
	n := 0
	for ; i < len(t.items) && n < t.h; i++ {
		it := t.items[i]
		hgt := t.hs.get(i)
		fresh := t.fresh(it)
		for k := off; k < hgt && n < t.h; k++ {
			if fresh {
				emit(it.line(k))
			} else {
				emit(t.blank)
			}
			n++
		}
		off = 0
	}
	for ; n < t.h; n++ {
		emit(t.blank)
	}
}

// withBadge draws the "new text below" badge over the right end of line.
func (t *Transcript) withBadge(line string) string {
	text := newTextBadge
	if t.bottomKey != "" {
		text += " (" + t.bottomKey + ")"
	}
	badge := t.look.indicator.Render(text)
	bw := ansi.StringWidth(badge)
	if bw > t.w {
		badge = ansi.Truncate(badge, t.w, "")
		bw = ansi.StringWidth(badge)
	}
	left := ansi.Truncate(line, t.w-bw, "")
	var b strings.Builder
	b.WriteString(left)
	if strings.IndexByte(left, '\x1b') >= 0 {
		b.WriteString(sgrReset)
	}
	writeSpaces(&b, t.w-bw-ansi.StringWidth(left))
	b.WriteString(badge)
	return b.String()
}
