package transcript

import (
	"fmt"
	"strings"
)

// SetSelected marks the message id as the one the message cursor is on (0:
// none). Only the two label lines change: nothing moves.
func (l *List) SetSelected(id int) {
	if id == l.selected {
		return
	}
	prev := l.selected
	l.selected = id
	for _, other := range []int{prev, id} {
		if i, ok := l.pos(other); ok && l.p.fresh(l.items[i]) {
			l.p.paintHead(l.items[i])
		}
	}
}

// Reveal scrolls as little as it takes to show the message id whole (its
// top, when it is taller than the window).
func (l *List) Reveal(id int) {
	i, ok := l.pos(id)
	if !ok {
		return
	}
	if !l.p.fresh(l.items[i]) {
		l.render(i)
	}
	top := l.hs.prefix(i)
	bottom := top + l.hs.get(i)
	switch {
	case top < l.top():
		l.setTop(top)
	case bottom > l.top()+l.h:
		l.setTop(min(top, bottom-l.h))
	}
}

// MessageAt is the message shown on row y of the window (a mouse click),
// false for a blank row below the last message.
func (l *List) MessageAt(y int) (int, bool) {
	if y < 0 || y >= l.h {
		return 0, false
	}
	i, _ := l.hs.find(l.top() + y)
	if i < 0 || i >= len(l.items) {
		return 0, false
	}
	return l.items[i].id(), true
}

// Words of the tree's marks on a message's label line.
const (
	selectedMark = "◀ selected"
	excludedMark = "left out of what the model sees"
)

// treeMarks are what follows a message's label: which of its alternatives
// it is ("‹ 2/3 ›"), that its turn is left out, and the message cursor's
// mark, in words as well as style, so 16 colours and NO_COLOR show them.
func (c *canvas) treeMarks(it *item, sel bool) string {
	lk := &c.look
	var b strings.Builder
	if m := it.msg; m.AltCount > 1 {
		b.WriteString(lk.meta.Render(fmt.Sprintf("  ‹ %d/%d ›", m.AltIndex+1, m.AltCount)))
	}
	if it.msg.Excluded {
		b.WriteString(lk.note.Render("  · " + excludedMark))
	}
	if sel {
		b.WriteString("  " + lk.selected.Render(selectedMark))
	}
	return b.String()
}
