package transcript

// wheelLines is how far one notch of the mouse wheel scrolls.
const wheelLines = 3

// maxTop is the top line of the window when it shows the bottom.
func (l *List) maxTop() int { return max(l.hs.total()-l.h, 0) }

// top is the first line of the transcript the window shows.
func (l *List) top() int {
	if l.follow {
		return l.maxTop()
	}
	i, ok := l.pos(l.anchorID)
	if !ok {
		return l.maxTop()
	}
	return min(max(l.hs.prefix(i)+l.anchorOff, 0), l.maxTop())
}

// setTop moves the window so that line y is its top line. Reaching the
// bottom turns following back on and the badge off.
func (l *List) setTop(y int) {
	if y >= l.maxTop() || len(l.items) == 0 {
		l.Bottom()
		return
	}
	i, off := l.hs.find(max(y, 0))
	l.follow = false
	l.anchorID, l.anchorOff = l.items[i].id(), off
	l.ensureWindow()
	if l.top() >= l.maxTop() {
		l.Bottom()
		return
	}
	l.startLazy()
}

// clampAnchor keeps the anchor offset inside its message.
func (l *List) clampAnchor() {
	if i, ok := l.pos(l.anchorID); ok {
		l.anchorOff = max(min(l.anchorOff, l.hs.get(i)-1), 0)
	}
}

// LineUp scrolls n lines towards the beginning. Messages the move reaches
// into are rendered first, so n counts real lines, not estimates.
func (l *List) LineUp(n int) {
	if n <= 0 || len(l.items) == 0 {
		return
	}
	target := l.top() - n
	// Within a few screens, render what the move reaches into so that n
	// counts real lines; a longer jump lands on estimates (the window is
	// rendered when it gets there) rather than render everything between.
	for exact := n <= 4*l.h; exact && target >= 0; {
		i, _ := l.hs.find(target)
		if i >= len(l.items) || l.p.fresh(l.items[i]) {
			break
		}
		// Rendering a message above the window changes where the window
		// starts in lines, not what it shows: measure again from there.
		l.render(i)
		target = l.top() - n
	}
	l.setTop(target)
}

// LineDown scrolls n lines towards the end.
func (l *List) LineDown(n int) {
	if n <= 0 || len(l.items) == 0 {
		return
	}
	l.setTop(l.top() + n)
}

// page is how far a page scrolls: the window less one line, which stays on
// screen to keep the reader's place.
func (l *List) page() int { return max(l.h-1, 1) }

// PageUp scrolls one page up.
func (l *List) PageUp() { l.LineUp(l.page()) }

// PageDown scrolls one page down.
func (l *List) PageDown() { l.LineDown(l.page()) }

// HalfPageUp scrolls half a window up.
func (l *List) HalfPageUp() { l.LineUp(max(l.h/2, 1)) }

// HalfPageDown scrolls half a window down.
func (l *List) HalfPageDown() { l.LineDown(max(l.h/2, 1)) }

// WheelUp scrolls for one notch of the mouse wheel up.
func (l *List) WheelUp() { l.LineUp(wheelLines) }

// WheelDown scrolls for one notch of the mouse wheel down.
func (l *List) WheelDown() { l.LineDown(wheelLines) }

// Top shows the beginning of the conversation.
func (l *List) Top() {
	if len(l.items) == 0 {
		return
	}
	l.setTop(0)
}

// Bottom shows the end and follows new text again.
func (l *List) Bottom() {
	l.follow, l.newBelow = true, false
	l.ensureWindow()
	l.startLazy()
}

// AtBottom reports whether the window shows the last line (new text is
// followed).
func (l *List) AtBottom() bool { return l.follow || l.top() >= l.maxTop() }

// Following reports whether the window follows new text at the bottom.
func (l *List) Following() bool { return l.follow }

// NewBelow reports whether text arrived below the window since the user
// scrolled up: the "new text below" badge is showing.
func (l *List) NewBelow() bool { return l.newBelow && !l.AtBottom() }

// ScrollPercent returns how far down the window is, 0 to 100, for a status
// bar; 100 when everything fits.
func (l *List) ScrollPercent() int {
	mt := l.maxTop()
	if mt == 0 {
		return 100
	}
	return l.top() * 100 / mt
}
