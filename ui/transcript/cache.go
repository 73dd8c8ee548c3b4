package transcript

import "time"

// invalidate marks every rendering stale and replaces heights by estimates
// for the new width or style.
func (l *List) invalidate() {
	hs := make([]int, len(l.items))
	for i, it := range l.items {
		hs[i] = l.p.estimate(it)
		if !l.follow && it.id() == l.anchorID && it.rendered() {
			// Keep the reader at the same fraction of the message; render
			// scales it again from the estimate to the real height.
			if h := it.height(); h > 0 {
				l.anchorOff = min(l.anchorOff*hs[i]/h, hs[i]-1)
			}
		}
	}
	l.hs.reset(hs)
	l.lazy = true
}

// ensureWindow renders every stale message the window shows, until the
// window is made only of fresh renderings (heights change as estimates are
// replaced, which can bring more messages into a window at the bottom).
func (l *List) ensureWindow() {
	for {
		top := l.top()
		i, _ := l.hs.find(top)
		y := l.hs.prefix(i)
		did := false
		for ; i < len(l.items) && y < top+l.h; i++ {
			if !l.p.fresh(l.items[i]) {
				l.render(i)
				did = true
				break
			}
			y += l.hs.get(i)
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
func (l *List) nearRange() (lo, hi int) {
	top := l.top()
	near := nearScreens * l.h
	lo, _ = l.hs.find(max(top-near, 0))
	hi, _ = l.hs.find(top + l.h + near)
	return lo, min(hi+1, len(l.items))
}

// startLazy points the lazy renderer at the window: it works outward from
// there, upward first (people scroll back far more often than forward),
// as far as nearRange.
func (l *List) startLazy() {
	i, _ := l.hs.find(l.top())
	l.lazyFrom, l.lazyTo = i, i
	lo, hi := l.nearRange()
	l.lazy = false
	for j := lo; j < hi; j++ {
		if !l.p.fresh(l.items[j]) {
			l.lazy = true
			return
		}
	}
}

// lazyStep renders stale messages near the window until the deadline (at
// least one per call, so the work always progresses); with none left, the
// lazy renderer stops until the window moves or the layout changes.
func (l *List) lazyStep(deadline time.Time) {
	l.lazyFrom = min(l.lazyFrom, len(l.items))
	l.lazyTo = min(l.lazyTo, len(l.items))
	for first := true; ; first = false {
		if !first && !l.now().Before(deadline) {
			return
		}
		// Rendering replaces estimates: the range moves with it.
		lo, hi := l.nearRange()
		i := -1
		for l.lazyFrom > lo {
			l.lazyFrom--
			if !l.p.fresh(l.items[l.lazyFrom]) {
				i = l.lazyFrom
				break
			}
		}
		for i < 0 && l.lazyTo < hi {
			if !l.p.fresh(l.items[l.lazyTo]) {
				i = l.lazyTo
			}
			l.lazyTo++
		}
		if i < 0 {
			l.lazy = false
			l.evictFar()
			return
		}
		l.render(i)
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
func (l *List) evictFar() {
	top := l.top()
	far := keepScreens * l.h
	lo, _ := l.hs.find(max(top-far, 0))
	hi, _ := l.hs.find(top + l.h + far)
	evict := func(from, to int) {
		for _, it := range l.items[from:to] {
			if it.rendered() && it.live == nil && !it.pending {
				it.undraw()
			}
		}
	}
	evict(0, min(lo, len(l.items)))
	evict(min(hi+1, len(l.items)), len(l.items))
}
