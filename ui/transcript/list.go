package transcript

import (
	"cmp"
	"slices"
	"time"

	"charm.land/lipgloss/v2"
)

// List is the transcript as a virtual list: the messages' items in path
// order with their heights (a Fenwick tree, heights.go), the window of
// exactly the screen's height onto them and its scrolling, the message
// cursor, and the cache of rendered items: which items near the window are
// rendered (lazily, a few per Tick, cache.go), which far from it lose their
// lines. What an item looks like is not its business: it asks its painter
// (the item renderers) to render an item, to estimate one's height, and
// whether one's rendering is fresh.
//
// The root scrolls, moves the cursor and draws through the List
// (Transcript.List); the Transcript changes what is in it.
type List struct {
	p     painter
	w, h  int
	blank string // one empty line of the width

	badge     lipgloss.Style // the "new text below" badge
	bottomKey string         // "end": shown in the badge

	items []*item
	// index maps a message id to its position in items when their ids do
	// not grow along the list; nil when they do (a path of the
	// conversation: a message's id is larger than its parent's), and
	// a position is found by a binary search (pos) without a map beside
	// the items (a 10,000-message session's would take 0.3 MB).
	index map[int]int
	hs    heights

	// selected is the message the message cursor is on (0: none).
	selected int

	// Scrolling. While follow is set the window shows the bottom. Otherwise
	// its top line is line anchorOff of the message anchorID, so text
	// arriving below (or estimates above being replaced) does not move what
	// the user reads.
	follow    bool
	anchorID  int
	anchorOff int
	newBelow  bool // text arrived below the window since the user scrolled up

	now              func() time.Time
	lazyFrom, lazyTo int  // the lazy renderer goes up from lazyFrom and down from lazyTo
	lazy             bool // some item may be stale
}

// painter is what the list asks of the item renderers.
type painter interface {
	// fresh reports whether the item's lines are those of the current
	// width, style and fold.
	fresh(it *item) bool
	// estimate is the item's height at the current width without
	// rendering it (its height when it is fresh).
	estimate(it *item) int
	// paint renders a stale item. When only part of it changed it says
	// which lines (whole false), so the reader's line can stay put.
	paint(it *item) (sp splice, whole bool)
	// paintHead draws the item's head again (the cursor's mark moved).
	paintHead(it *item)
}

// splice says that a rendering replaced its lines [at, at+was) by now lines
// and kept the rest.
type splice struct{ at, was, now int }

func newList(p painter, now func() time.Time) List {
	return List{p: p, now: now, follow: true, w: 1, h: 1, blank: blankLine(1)}
}

// Len returns the number of messages in the transcript.
func (l *List) Len() int { return len(l.items) }

// Size returns the width and height of the window.
func (l *List) Size() (w, h int) { return l.w, l.h }

// setSize sets the window's size; the caller makes the renderings stale
// when the width changed.
func (l *List) setSize(w, h int) {
	if w != l.w {
		l.blank = blankLine(w)
	}
	l.w, l.h = w, h
}

// last is the last item (nil when there is none).
func (l *List) last() *item {
	if len(l.items) == 0 {
		return nil
	}
	return l.items[len(l.items)-1]
}

// at is the item of message id, if the list shows it.
func (l *List) at(id int) (int, *item, bool) {
	i, ok := l.pos(id)
	if !ok {
		return 0, nil, false
	}
	return i, l.items[i], true
}

// pos is the position of message id in items (0, false when it is not
// there).
func (l *List) pos(id int) (int, bool) {
	if l.index != nil {
		i, ok := l.index[id]
		return i, ok
	}
	i, ok := slices.BinarySearchFunc(l.items, id, func(it *item, id int) int { return cmp.Compare(it.id(), id) })
	if !ok {
		return 0, false
	}
	return i, true
}

// reindex makes the index of items anew: none when their ids grow.
func (l *List) reindex() {
	l.index = nil
	if strictlyGrowing(l.items) {
		return
	}
	l.index = make(map[int]int, len(l.items))
	for i, it := range l.items {
		l.index[it.id()] = i
	}
}

// appended takes the last item into the index.
func (l *List) appended() {
	n := len(l.items)
	switch {
	case l.index != nil:
		l.index[l.items[n-1].id()] = n - 1
	case n > 1 && l.items[n-2].id() >= l.items[n-1].id():
		l.reindex()
	}
}

// strictlyGrowing reports whether the ids of items grow along them.
func strictlyGrowing(items []*item) bool {
	for i := 1; i < len(items); i++ {
		if items[i-1].id() >= items[i].id() {
			return false
		}
	}
	return true
}

// render renders item i and records its new height. When it is the
// anchor, the offset into it moves with what changed: it scales with the
// height when all of it was rendered again (a reflow keeps the reader at
// the same place in the text); when only part was, it moves with the lines
// replaced above it.
func (l *List) render(i int) {
	it := l.items[i]
	old := l.hs.get(i)
	sp, whole := l.p.paint(it)
	if !whole && !l.follow && it.id() == l.anchorID {
		if l.anchorOff >= sp.at+sp.was {
			l.anchorOff += sp.now - sp.was
		} else {
			l.anchorOff = min(l.anchorOff, sp.at+max(sp.now-1, 0))
		}
		l.anchorOff = max(min(l.anchorOff, it.height()-1), 0)
	}
	l.setHeight(i, old, whole)
}

// setHeight records item i's height after its lines changed from old
// lines; reflow: its text was laid out again (see render).
func (l *List) setHeight(i, old int, reflow bool) {
	it := l.items[i]
	h := it.height()
	if h == old {
		return
	}
	l.hs.set(i, h)
	if reflow && !l.follow && it.id() == l.anchorID && old > 0 {
		l.anchorOff = min(l.anchorOff*h/old, h-1)
	}
}

// reestimate takes the estimate of every item that which picks as its
// height (their renderings went stale).
func (l *List) reestimate(which func(*item) bool) {
	for i, it := range l.items {
		if which(it) {
			l.hs.set(i, l.p.estimate(it))
		}
	}
}

// anchor is the position of the item the window is anchored on, false
// while it follows the bottom.
func (l *List) anchor() (int, bool) {
	if l.follow {
		return 0, false
	}
	i, ok := l.pos(l.anchorID)
	return i, ok
}

// grew notes that item i got taller or was added: text below the window
// while the user reads further up turns the badge on.
func (l *List) grew(i int) {
	if l.follow {
		return
	}
	top := l.top()
	if l.hs.prefix(i+1) > top+l.h {
		l.newBelow = true
	}
}

// visible reports whether any line of item i is in the window.
func (l *List) visible(i int) bool {
	top := l.top()
	start := l.hs.prefix(i)
	return start < top+l.h && start+l.hs.get(i) > top
}

// remove drops the items whose ids drop holds, keeping the heights of the
// others. It returns the position of the item the window is to be
// anchored on now: the anchor's, or the first kept after it (at its top);
// -1 when none is kept after it, or the window follows the bottom.
func (l *List) remove(drop map[int]bool) int {
	anchorPos := -1
	if !l.follow {
		anchorPos, _ = l.pos(l.anchorID)
	}
	kept := l.items[:0]
	hs := make([]int, 0, len(l.items))
	newAnchor := -1
	for i, it := range l.items {
		if drop[it.id()] {
			continue
		}
		if newAnchor < 0 && i >= anchorPos && anchorPos >= 0 {
			newAnchor = len(kept)
			if it.id() != l.anchorID {
				l.anchorOff = 0
			}
		}
		kept = append(kept, it)
		hs = append(hs, l.hs.get(i))
	}
	clear(l.items[len(kept):])
	l.items = kept
	l.reindex()
	l.hs.reset(hs)
	return newAnchor
}

// reanchor anchors the window on item i after a removal (see remove) and
// brings it up to date.
func (l *List) reanchor(i int) {
	switch {
	case l.follow:
	case i < 0:
		l.Bottom()
	default:
		l.anchorID = l.items[i].id()
		l.clampAnchor()
	}
	l.ensureWindow()
	l.startLazy()
}
