package transcript

import (
	"strings"
	"time"

	"parley/conversation"
)

// invalidate marks every rendering stale and replaces heights by estimates
// for the new width or style.
func (t *Transcript) invalidate() {
	hs := make([]int, len(t.items))
	for i, it := range t.items {
		hs[i] = t.estimate(it)
		if !t.follow && it.id() == t.anchorID && it.rendered {
			// Keep the reader at the same fraction of the message; render
			// scales it again from the estimate to the real height.
			if h := it.height(); h > 0 {
				t.anchorOff = min(t.anchorOff*hs[i]/h, hs[i]-1)
			}
		}
	}
	t.hs.reset(hs)
	t.lazy = true
}

func (t *Transcript) fresh(it *item) bool {
	return it.rendered && it.w == t.w && it.gen == t.gen && (it.thinkGen == t.thinkGen || !it.hasThink())
}

// estimate returns the height of it at the current width without rendering.
func (t *Transcript) estimate(it *item) int {
	if t.fresh(it) {
		return it.height()
	}
	if it.rendered && it.w > 0 {
		// The same text reflows: lines scale with the width ratio.
		body := (len(it.body)*it.w + t.w - 1) / t.w
		return len(it.head) + t.thinkEstimate(it) + max(body, 1) + len(it.foot)
	}
	// From the text as it came (the safe text is made only when needed):
	// an estimate of a message depends on nothing else, so it is the same
	// whatever was done before.
	room := max(t.w-2, 1)
	text := it.msg.Text
	n := 2 + 1 + len(text)/room + strings.Count(text, "\n") + t.thinkEstimate(it)
	if it.isUser() || it.msg.IsImages() {
		n += len(it.msg.Attachments)
		for _, a := range it.msg.Attachments {
			if k, ok := t.pictureBox(a); ok {
				n += k.Rows
			}
		}
	} else if it.msg.State != conversation.StateDone {
		n += 2
	}
	return n
}

// render renders item i and records its new height. When it is the
// anchor, the offset into it scales with the height (a reflow keeps the
// reader at the same place in the text).
func (t *Transcript) render(i int) {
	if t.thinkStale(t.items[i]) {
		// Only the reasoning was folded or unfolded: the rest stays.
		t.rethink(i)
		return
	}
	it := t.items[i]
	old := t.hs.get(i)
	t.renderItem(it)
	t.setHeight(i, old, true)
}

func (t *Transcript) setHeight(i, old int, reflow bool) {
	it := t.items[i]
	h := it.height()
	if h == old {
		return
	}
	t.hs.set(i, h)
	if reflow && !t.follow && it.id() == t.anchorID && old > 0 {
		t.anchorOff = min(t.anchorOff*h/old, h-1)
	}
}

// ensureWindow renders every stale message the window shows, until the
// window is made only of fresh renderings (heights change as estimates are
// replaced, which can bring more messages into a window at the bottom).
func (t *Transcript) ensureWindow() {
	for {
		top := t.top()
		i, _ := t.hs.find(top)
		y := t.hs.prefix(i)
		did := false
		for ; i < len(t.items) && y < top+t.h; i++ {
			if !t.fresh(t.items[i]) {
				t.render(i)
				did = true
				break
			}
			y += t.hs.get(i)
		}
		if !did {
			return
		}
	}
}

// nearScreens is how far from the window, in screens, messages are
// rendered before they are needed (lazily, a few per Tick): a page or two of
// scrolling finds them ready. The rest of a long conversation keeps
// estimated heights, corrected when they are drawn: rendering all of it to
// learn its height cost a 10,000-message session 3 s of CPU and 50 MB
// (issue 14).
const nearScreens = 2

// nearRange is the range of items the lazy renderer keeps fresh: those
// within nearScreens screens of the window.
func (t *Transcript) nearRange() (lo, hi int) {
	top := t.top()
	near := nearScreens * t.h
	lo, _ = t.hs.find(max(top-near, 0))
	hi, _ = t.hs.find(top + t.h + near)
	return lo, min(hi+1, len(t.items))
}

// startLazy points the lazy renderer at the window: it works outward from
// there, upward first (people scroll back far more often than forward),
// as far as nearRange.
func (t *Transcript) startLazy() {
	i, _ := t.hs.find(t.top())
	t.lazyFrom, t.lazyTo = i, i
	lo, hi := t.nearRange()
	t.lazy = false
	for j := lo; j < hi; j++ {
		if !t.fresh(t.items[j]) {
			t.lazy = true
			return
		}
	}
}

// lazyStep renders stale messages near the window until the deadline (at
// least one per call, so the work always progresses); with none left, the
// lazy renderer stops until the window moves or the layout changes.
func (t *Transcript) lazyStep(deadline time.Time) {
	t.lazyFrom = min(t.lazyFrom, len(t.items))
	t.lazyTo = min(t.lazyTo, len(t.items))
	for first := true; ; first = false {
		if !first && !t.now().Before(deadline) {
			return
		}
		// Rendering replaces estimates: the range moves with it.
		lo, hi := t.nearRange()
		i := -1
		for t.lazyFrom > lo {
			t.lazyFrom--
			if !t.fresh(t.items[t.lazyFrom]) {
				i = t.lazyFrom
				break
			}
		}
		for i < 0 && t.lazyTo < hi {
			if !t.fresh(t.items[t.lazyTo]) {
				i = t.lazyTo
			}
			t.lazyTo++
		}
		if i < 0 {
			t.lazy = false
			t.evictFar()
			return
		}
		t.render(i)
	}
}

// keepScreens is how far from the window, in screens, renderings are kept
// once made: farther ones are dropped (their height stays, so nothing
// moves; they are rendered again when they come near), so scrolling
// through a long history does not keep all of it rendered (about 4.5 KB a
// message: 45 MB for 10,000).
const keepScreens = 10

// evictFar drops the renderings of the messages more than keepScreens
// screens from the window (not a reply in flight, nor one a job renders).
func (t *Transcript) evictFar() {
	top := t.top()
	far := keepScreens * t.h
	lo, _ := t.hs.find(max(top-far, 0))
	hi, _ := t.hs.find(top + t.h + far)
	evict := func(from, to int) {
		for _, it := range t.items[from:to] {
			if it.rendered && it.live == nil && !it.pending {
				it.head, it.think, it.body, it.foot = nil, nil, nil, nil
				it.rendered = false
			}
		}
	}
	evict(0, min(lo, len(t.items)))
	evict(min(hi+1, len(t.items)), len(t.items))
}
