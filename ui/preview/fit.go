package preview

// A cell is about twice as tall as it is wide, so a half block (one cell
// split into a top and a bottom pixel) has square pixels: an area of w×h
// cells holds a picture of w×2h such pixels. Both ways of drawing lay a
// picture out by this rule, so switching between them never moves the text
// around it.

// FitCells is the box of cells a picture of pxW×pxH pixels (as it is seen,
// after EXIF orientation) takes in an area of w×h cells: the aspect ratio
// kept, never enlarged, at least one cell each way.
func FitCells(pxW, pxH, w, h int) (cols, rows int) {
	pw, ph := fitPixels(pxW, pxH, w, h)
	return pw, (ph + 1) / 2
}

// fitPixels is the size in half-block pixels of a pxW×pxH picture fitted
// into w×h cells: at most w×2h, never larger than the picture, at least 1×1.
func fitPixels(pxW, pxH, w, h int) (int, int) {
	return fitWithin(pxW, pxH, w, 2*h)
}

// fitWithin is pxW×pxH scaled down (never up) to fit bw×bh pixels, the
// aspect ratio kept, at least 1×1.
func fitWithin(pxW, pxH, bw, bh int) (int, int) {
	if pxW <= 0 || pxH <= 0 || bw <= 0 || bh <= 0 {
		return 1, 1
	}
	if pxW <= bw && pxH <= bh {
		return pxW, pxH
	}
	sw, sh, w, h := int64(pxW), int64(pxH), int64(bw), int64(bh)
	if sw*h >= sh*w { // the width limits
		return bw, int(max(1, (sh*w+sw/2)/sw))
	}
	return int(max(1, (sw*h+sh/2)/sh)), bh
}
