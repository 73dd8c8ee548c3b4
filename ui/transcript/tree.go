package transcript

import (
	"fmt"
	"strings"
)

// SetExcluded marks the messages ids (a turn) as left out of what the model
// sees, or brings them back: they are drawn again with the mark.
func (t *Transcript) SetExcluded(ids []int, on bool) {
	for _, id := range ids {
		i, ok := t.index[id]
		if !ok {
			continue
		}
		msg := t.items[i].msg
		if msg.Excluded == on {
			continue
		}
		msg.Excluded = on
		msg.Version++
		t.Update(msg)
	}
}

// SetSelected marks the message id as the one the message cursor is on (0:
// none). Only the two label lines change: nothing moves.
func (t *Transcript) SetSelected(id int) {
	if id == t.selected {
		return
	}
	prev := t.selected
	t.selected = id
	for _, other := range []int{prev, id} {
		if i, ok := t.index[other]; ok && t.fresh(t.items[i]) {
			it := t.items[i]
			it.head = t.renderHead(it, it.head[:0])
		}
	}
}

// Reveal scrolls as little as it takes to show the message id whole (its
// top, when it is taller than the window).
func (t *Transcript) Reveal(id int) {
	i, ok := t.index[id]
	if !ok {
		return
	}
	if !t.fresh(t.items[i]) {
		t.render(i)
	}
	top := t.hs.prefix(i)
	bottom := top + t.hs.get(i)
	switch {
	case top < t.top():
		t.setTop(top)
	case bottom > t.top()+t.h:
		t.setTop(min(top, bottom-t.h))
	}
}

// MessageAt is the message shown on row y of the window (a mouse click),
// false for a blank row below the last message.
func (t *Transcript) MessageAt(y int) (int, bool) {
	if y < 0 || y >= t.h {
		return 0, false
	}
	i, _ := t.hs.find(t.top() + y)
	if i < 0 || i >= len(t.items) {
		return 0, false
	}
	return t.items[i].id(), true
}

// Words of the tree's marks on a message's label line.
const (
	selectedMark = "◀ selected"
	excludedMark = "left out of what the model sees"
)

// treeMarks are what follows a message's label: which of its alternatives
// it is ("‹ 2/3 ›"), that its turn is left out, and the message cursor's
// mark, in words as well as style, so 16 colours and NO_COLOR show them.
func (t *Transcript) treeMarks(it *item) string {
	lk := &t.look
	var b strings.Builder
	if m := it.msg; m.AltCount > 1 {
		b.WriteString(lk.meta.Render(fmt.Sprintf("  ‹ %d/%d ›", m.AltIndex+1, m.AltCount)))
	}
	if it.msg.Excluded {
		b.WriteString(lk.note.Render("  · " + excludedMark))
	}
	if t.selected != 0 && it.id() == t.selected {
		b.WriteString("  " + lk.selected.Render(selectedMark))
	}
	return b.String()
}
