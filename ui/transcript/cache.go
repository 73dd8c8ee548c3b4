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
	return it.rendered && it.w == t.w && it.gen == t.gen
}

// estimate returns the height of it at the current width without rendering.
func (t *Transcript) estimate(it *item) int {
	if t.fresh(it) {
		return it.height()
	}
	if it.rendered && it.w > 0 {
		// The same text reflows: lines scale with the width ratio.
		body := (len(it.body)*it.w + t.w - 1) / t.w
		return len(it.head) + max(body, 1) + len(it.foot)
	}
	room := max(t.w-2, 1)
	n := 2 + 1 + len(it.text)/room + strings.Count(it.text, "\n")
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

// startLazy points the lazy renderer at the window: it works outward from
// there, upward first (people scroll back far more often than forward).
func (t *Transcript) startLazy() {
	if !t.lazy {
		return
	}
	i, _ := t.hs.find(t.top())
	t.lazyFrom, t.lazyTo = i, i
}

// lazyStep renders stale messages outside the window until the deadline
// (at least one per call, so the work always progresses).
func (t *Transcript) lazyStep(deadline time.Time) {
	t.lazyFrom = min(t.lazyFrom, len(t.items))
	t.lazyTo = min(t.lazyTo, len(t.items))
	for first := true; ; first = false {
		if !first && !t.now().Before(deadline) {
			return
		}
		i := -1
		for t.lazyFrom > 0 {
			t.lazyFrom--
			if !t.fresh(t.items[t.lazyFrom]) {
				i = t.lazyFrom
				break
			}
		}
		for i < 0 && t.lazyTo < len(t.items) {
			if !t.fresh(t.items[t.lazyTo]) {
				i = t.lazyTo
			}
			t.lazyTo++
		}
		if i < 0 {
			t.lazy = false
			return
		}
		t.render(i)
	}
}
