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
func (l *List) View() string {
	top := l.top()
	first, firstOff := l.hs.find(top)
	badge := l.NewBelow()
	// Two passes over the window: the first sizes the buffer, so View makes
	// one allocation of exactly the output.
	size := 0
	l.window(first, firstOff, func(line string) { size += len(line) + 1 })
	var b strings.Builder
	b.Grow(size + 256) // the badge, when drawn, may add a little
	n := 0
	l.window(first, firstOff, func(line string) {
		if n > 0 {
			b.WriteByte('\n')
		}
		if badge && n == l.h-1 {
			line = l.withBadge(line)
		}
		b.WriteString(line)
		n++
	})
	return b.String()
}

// window calls emit for each of the window's lines, starting at line off
// of item i, padding with blank lines after the end.
func (l *List) window(i, off int, emit func(string)) {
	n := 0
	for ; i < len(l.items) && n < l.h; i++ {
		it := l.items[i]
		hgt := l.hs.get(i)
		fresh := l.p.fresh(it)
		for k := off; k < hgt && n < l.h; k++ {
			if fresh {
				emit(it.line(k))
			} else {
				emit(l.blank)
			}
			n++
		}
		off = 0
	}
	for ; n < l.h; n++ {
		emit(l.blank)
	}
}

// withBadge draws the "new text below" badge over the right end of line.
func (l *List) withBadge(line string) string {
	text := newTextBadge
	if l.bottomKey != "" {
		text += " (" + l.bottomKey + ")"
	}
	badge := l.badge.Render(text)
	bw := ansi.StringWidth(badge)
	if bw > l.w {
		badge = ansi.Truncate(badge, l.w, "")
		bw = ansi.StringWidth(badge)
	}
	left := ansi.Truncate(line, l.w-bw, "")
	var b strings.Builder
	b.WriteString(left)
	if strings.IndexByte(left, '\x1b') >= 0 {
		b.WriteString(sgrReset)
	}
	writeSpaces(&b, l.w-bw-ansi.StringWidth(left))
	b.WriteString(badge)
	return b.String()
}
