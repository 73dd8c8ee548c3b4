package imagepane

// wideMin is the width from which the list goes beside the preview;
// below it the pane stacks preview, details and list.
const wideMin = 70

// rect is an area of the pane, in cells from its top left corner.
type rect struct{ x, y, w, h int }

// layout is where each part of the pane goes in w×h cells. It depends on
// w and h only, so the preview's size does not change with the selection
// or with the save prompt.
type layout struct {
	w, h    int
	wide    bool
	title   int // row of the title, -1 when none
	hint    int // row of the key hint, -1 when none
	body    rect
	list    rect
	preview rect
	details rect
	head    int // narrow: row of the list's heading, -1 when none
}

func makeLayout(w, h int) layout {
	l := layout{w: w, h: h, title: -1, hint: -1, head: -1, wide: w >= wideMin}
	if w <= 0 || h <= 0 {
		return l
	}
	l.title = 0
	if h >= 2 {
		l.hint = h - 1
	}
	l.body = rect{0, 1, w, max(h-2, 0)}
	bh := l.body.h
	if bh == 0 {
		return l
	}
	if l.wide {
		lw := min(max(w*35/100, 24), 48)
		l.list = rect{0, 1, lw, bh}
		rx := lw + 2 // a separator column and a space
		dh := min(8, max(bh-6, bh/2))
		gap := 0
		if bh-dh >= 3 {
			gap = 1
		}
		ph := bh - dh - gap
		l.preview = rect{rx, 1, w - rx, ph}
		l.details = rect{rx, 1 + ph + gap, w - rx, dh}
		return l
	}
	// Stacked: preview, details, a heading, the list.
	lh := min(8, max(1, bh/4))
	dh := min(6, bh/4)
	head := 1
	ph := bh - lh - dh - head
	for ph < 1 && dh > 0 {
		dh--
		ph++
	}
	if ph < 1 {
		head, ph = 0, ph+1
	}
	if ph < 0 {
		lh, ph = lh+ph, 0
	}
	l.preview = rect{0, 1, w, ph}
	l.details = rect{1, 1 + ph, max(w-1, 0), dh}
	if head == 1 {
		l.head = 1 + ph + dh
	}
	l.list = rect{0, 1 + ph + dh + head, w, lh}
	return l
}

// previewArea is where render puts the selected image's preview when the
// pane is drawn in w×h cells: its column and row inside the pane and its
// size in cells. The preview the pane asks for (WantedPicture) is of
// exactly pw×ph. It is all zeros while there are no images.
func (p *Pane) previewArea(w, h int) (x, y, pw, ph int) {
	if len(p.items) == 0 {
		return 0, 0, 0, 0
	}
	r := makeLayout(w, h).preview
	return r.x, r.y, r.w, r.h
}
