package transcript

// wheelLines is how far one notch of the mouse wheel scrolls.
const wheelLines = 3

// maxTop is the top line of the window when it shows the bottom.
func (t *Transcript) maxTop() int { return max(t.hs.total()-t.h, 0) }

// top is the first line of the transcript the window shows.
func (t *Transcript) top() int {
	if t.follow {
		return t.maxTop()
	}
	i, ok := t.index[t.anchorID]
	if !ok {
		return t.maxTop()
	}
	return min(max(t.hs.prefix(i)+t.anchorOff, 0), t.maxTop())
}

// setTop moves the window so that line y is its top line. Reaching the
// bottom turns following back on and the badge off.
func (t *Transcript) setTop(y int) {
	if y >= t.maxTop() || len(t.items) == 0 {
		t.Bottom()
		return
	}
	i, off := t.hs.find(max(y, 0))
	t.follow = false
	t.anchorID, t.anchorOff = t.items[i].id(), off
	t.ensureWindow()
	if t.top() >= t.maxTop() {
		t.Bottom()
		return
	}
	t.startLazy()
}

// clampAnchor keeps the anchor offset inside its message.
func (t *Transcript) clampAnchor() {
	if i, ok := t.index[t.anchorID]; ok {
		t.anchorOff = max(min(t.anchorOff, t.hs.get(i)-1), 0)
	}
}

// LineUp scrolls n lines towards the beginning. Messages the move reaches
// into are rendered first, so n counts real lines, not estimates.
func (t *Transcript) LineUp(n int) {
	if n <= 0 || len(t.items) == 0 {
		return
	}
	target := t.top() - n
	// Within a few screens, render what the move reaches into so that n
	// counts real lines; a longer jump lands on estimates (the window is
	// rendered when it gets there) rather than render everything between.
	for exact := n <= 4*t.h; exact && target >= 0; {
		i, _ := t.hs.find(target)
		if i >= len(t.items) || t.fresh(t.items[i]) {
			break
		}
		// Rendering a message above the window changes where the window
		// starts in lines, not what it shows: measure again from there.
		t.render(i)
		target = t.top() - n
	}
	t.setTop(target)
}

// LineDown scrolls n lines towards the end.
func (t *Transcript) LineDown(n int) {
	if n <= 0 || len(t.items) == 0 {
		return
	}
	t.setTop(t.top() + n)
}

// page is how far a page scrolls: the window less one line, which stays on
// screen to keep the reader's place.
func (t *Transcript) page() int { return max(t.h-1, 1) }

// PageUp scrolls one page up.
func (t *Transcript) PageUp() { t.LineUp(t.page()) }

// PageDown scrolls one page down.
func (t *Transcript) PageDown() { t.LineDown(t.page()) }

// HalfPageUp scrolls half a window up.
func (t *Transcript) HalfPageUp() { t.LineUp(max(t.h/2, 1)) }

// HalfPageDown scrolls half a window down.
func (t *Transcript) HalfPageDown() { t.LineDown(max(t.h/2, 1)) }

// WheelUp scrolls for one notch of the mouse wheel up.
func (t *Transcript) WheelUp() { t.LineUp(wheelLines) }

// WheelDown scrolls for one notch of the mouse wheel down.
func (t *Transcript) WheelDown() { t.LineDown(wheelLines) }

// Top shows the beginning of the conversation.
func (t *Transcript) Top() {
	if len(t.items) == 0 {
		return
	}
	t.setTop(0)
}

// Bottom shows the end and follows new text again.
func (t *Transcript) Bottom() {
	t.follow, t.newBelow = true, false
	t.ensureWindow()
	t.startLazy()
}

// AtBottom reports whether the window shows the last line (new text is
// followed).
func (t *Transcript) AtBottom() bool { return t.follow || t.top() >= t.maxTop() }

// Following reports whether the window follows new text at the bottom.
func (t *Transcript) Following() bool { return t.follow }

// NewBelow reports whether text arrived below the window since the user
// scrolled up: the "new text below" badge is showing.
func (t *Transcript) NewBelow() bool { return t.newBelow && !t.AtBottom() }

// ScrollPercent returns how far down the window is, 0 to 100, for a status
// bar; 100 when everything fits.
func (t *Transcript) ScrollPercent() int {
	mt := t.maxTop()
	if mt == 0 {
		return 100
	}
	return t.top() * 100 / mt
}
