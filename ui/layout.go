package ui

// rect is an area of the screen in cells.
type rect struct{ X, Y, W, H int }

// overlayKind says how an open layer takes the screen.
type overlayKind int

const (
	overlayNone overlayKind = iota
	// overlayPanel covers the transcript area; status, composer and hint
	// stay visible (pickers, help).
	overlayPanel
	// overlayFull covers the whole screen (first-run setup, or a panel on
	// a screen too small for one).
	overlayFull
)

// layoutInput is everything the layout depends on.
type layoutInput struct {
	Width, Height int
	// ComposerLines is the composer's wanted height in text lines (≥ 1).
	ComposerLines int
	// ComposerFrame is the rows the composer's box adds (border top and
	// bottom) when there is room for it.
	ComposerFrame int
	// AttachLines is the height of the attachment row above the composer.
	AttachLines int
	// AboveLines is the wanted height of a pane above the composer (the
	// command list).
	AboveLines int
	// BannerLines is the wanted height of the start-up problem banner.
	BannerLines int
	// NoticeLines is the wanted height of the notice that replaces the key
	// hint (0: the one-line hint shows).
	NoticeLines int
	// Side asks for a pane beside the transcript.
	Side    bool
	Overlay overlayKind
	// LayerGen changes whenever a layer opens or closes: the new top
	// layer needs its size.
	LayerGen int
}

// layout is where everything goes; zero-height rects are not drawn.
type layout struct {
	Width, Height int
	Banner        rect
	Transcript    rect
	// Side is the pane beside the transcript. When the screen is too
	// narrow for both, SideFull is set and the pane takes the transcript's
	// place (Transcript is then empty).
	Side     rect
	SideFull bool
	// Overlay is the top layer's area; OverlayKind says how it takes the
	// screen.
	Overlay     rect
	OverlayKind overlayKind
	Above       rect
	Status      rect
	Attach      rect
	Composer    rect
	// Hint is the key hint, or the notice that replaces it.
	Hint rect
	// ComposerText is the composer's text rows; ComposerBoxed says whether
	// its box frame is drawn (it is dropped on very small screens).
	ComposerText  int
	ComposerBoxed bool
}

// Limits of the layout.
const (
	maxComposerLines = 8
	minTranscript    = 3
	// minPanelRows: a panel overlay (help, pickers) with fewer rows above
	// the status bar takes the whole screen instead (40x12 leaves 7).
	minPanelRows = 12
	// A side pane goes beside the transcript only when both keep a useful
	// width: the transcript minTranscriptCols, the pane minSideCols.
	minTranscriptCols = 60
	minSideCols       = 32
	maxSideCols       = 64
	// minAboveRows: a command list with fewer rows than this beside the
	// transcript takes the transcript's place instead (its box, its title
	// and a few commands).
	minAboveRows = 6
)

// computeLayout is the one function that places every part of the screen.
// From top to bottom: banner, transcript (with the side pane beside it),
// the pane above the composer, status bar, attachments, composer, and the
// key hint or notice. On small screens the hint goes first, then the
// banner and the status bar, and the composer never takes more than half of
// what is left, so the transcript stays readable down to 40x12 and below.
func computeLayout(in layoutInput) layout {
	l := placeOnce(in)
	// The command list is what is being used: on a short screen a notice
	// gives up its extra lines to it (its last line says where to read it
	// whole), rather than leave a list of two commands.
	for in.AboveLines > 0 && l.Above.H < in.AboveLines && l.Hint.H > 1 {
		in.NoticeLines = l.Hint.H - 1
		l = placeOnce(in)
	}
	// So does a panel (a picker, help, the image pane) that would be too
	// short to be of use and take the whole screen, hiding the notice.
	for l.OverlayKind == overlayPanel && l.Overlay.H < minPanelRows && l.Hint.H > 1 {
		in.NoticeLines = l.Hint.H - 1
		l = placeOnce(in)
	}
	return l
}

// placeOnce is computeLayout with the notice as tall as it asks.
func placeOnce(in layoutInput) layout {
	w, h := max(in.Width, 1), max(in.Height, 1)
	b := bandHeights(in, h)
	l := layout{Width: w, Height: h, ComposerText: b.composerText, ComposerBoxed: b.composerBoxed}
	y := 0
	l.Banner = rect{0, y, w, b.banner}
	y += b.banner
	l.Transcript = rect{0, y, w, b.body}
	if in.Side {
		side := clamp(w*2/5, minSideCols, maxSideCols)
		if w-side >= minTranscriptCols {
			l.Transcript.W = w - side
			l.Side = rect{w - side, y, side, b.body}
		} else {
			l.Side = rect{0, y, w, b.body}
			l.Transcript = rect{0, y, w, 0}
			l.SideFull = true
		}
	}
	y += b.body
	l.Above = rect{0, y, w, b.above}
	y += b.above
	l.Status = rect{0, y, w, b.status}
	y += b.status
	l.Attach = rect{0, y, w, b.attach}
	y += b.attach
	l.Composer = rect{0, y, w, b.composer}
	y += b.composer
	l.Hint = rect{0, y, w, b.hint}

	l.OverlayKind = in.Overlay
	switch in.Overlay {
	case overlayPanel:
		l.Overlay = rect{0, 0, w, b.banner + b.body}
	case overlayFull:
		l.Overlay = rect{0, 0, w, h}
	}
	return l
}

// bands are the heights of the screen's horizontal bands, top to bottom:
// banner, body (transcript and side pane), the list above the composer,
// status, chips, composer (its text rows and whether it is boxed), hint.
type bands struct {
	banner, body, above, status, attach, composer, hint int
	composerText                                        int
	composerBoxed                                       bool
}

// bandHeights shares the h rows of the screen between the bands: the
// fixed rows first, then the composer, the chips, the list and the banner
// from what is left, the transcript keeping what remains.
func bandHeights(in layoutInput, h int) bands {
	var b bands
	b.hint, b.status = 1, 1
	if h < 8 {
		b.hint = 0
	}
	if h < 5 {
		b.status = 0
	}
	if b.hint > 0 && in.NoticeLines > 1 {
		// A long notice wraps over up to a third of the screen; what does
		// not fit is read whole in the notices pane (its last line says
		// so).
		b.hint = min(in.NoticeLines, max(1, h/3))
	}
	rest := h - b.hint - b.status

	// Composer: as tall as its text up to 8 lines, but at most half of the
	// rows left for transcript and composer together (never less than 1).
	// Its box frame needs room: it goes below 10 rows.
	frame := 0
	if h >= 10 {
		frame = in.ComposerFrame
	}
	text := clamp(in.ComposerLines, 1, maxComposerLines)
	text = min(text, max(1, (rest-frame)/2))
	b.composer = text + frame
	rest -= b.composer
	b.composerText, b.composerBoxed = text, frame > 0

	if in.AttachLines > 0 && rest-in.AttachLines >= minTranscript {
		b.attach = in.AttachLines
		rest -= b.attach
	}

	if in.AboveLines > 0 {
		b.above = min(in.AboveLines, max(rest-minTranscript, 0))
		if b.above < min(in.AboveLines, minAboveRows) {
			// Too little room for a list of use beside the transcript
			// (a short terminal): the list takes the transcript's place.
			b.above = min(in.AboveLines, rest)
		}
		rest -= b.above
	}

	if in.BannerLines > 0 {
		b.banner = min(in.BannerLines, max(0, rest-minTranscript), max(1, rest/3))
		if rest-b.banner < 1 {
			b.banner = 0
		}
		rest -= b.banner
	}
	b.body = max(rest, 0)
	return b
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// screen is the drawn state: the layout and what it was computed from, the
// derived parts (chrome), and the frame composed at the end of each Update.
type screen struct {
	lay    layout
	layIn  layoutInput
	chrome chrome
	frame  string
	// ticking: a frame tick without a stream is pending (lazy re-render
	// after a resize or theme change).
	ticking bool
}
