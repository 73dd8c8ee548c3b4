package ui

// rect is an area of the screen in cells.
type rect struct{ X, Y, W, H int }

// overlayKind says how an open overlay takes the screen.
type overlayKind int

const (
	overlayNone overlayKind = iota
	// overlayPanel covers the transcript area; status, composer and hint
	// stay visible (pickers, help).
	overlayPanel
	// overlayFull covers the whole screen; it draws its own key hints
	// (first-run setup).
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
	// BannerLines is the wanted height of the start-up problem banner.
	BannerLines int
	Overlay     overlayKind
}

// layout is where everything goes; zero-height rects are not drawn.
type layout struct {
	Width, Height int
	Banner        rect
	Transcript    rect
	Overlay       rect
	Status        rect
	Attach        rect
	Composer      rect
	Hint          rect
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
)

// computeLayout is the one function that places every part of the screen.
// From top to bottom: banner, transcript, status bar, attachments, composer,
// key hint. On small screens the hint goes first, then the banner and the
// status bar, and the composer never takes more than half of what is left,
// so the transcript stays readable down to 40x12 and below.
func computeLayout(in layoutInput) layout {
	w, h := max(in.Width, 1), max(in.Height, 1)
	l := layout{Width: w, Height: h}

	hint, status := 1, 1
	if h < 8 {
		hint = 0
	}
	if h < 5 {
		status = 0
	}
	rest := h - hint - status

	// Composer: as tall as its text up to 8 lines, but at most half of the
	// rows left for transcript and composer together (never less than 1).
	// Its box frame needs room: it goes below 10 rows.
	frame := 0
	if h >= 10 {
		frame = in.ComposerFrame
	}
	text := clamp(in.ComposerLines, 1, maxComposerLines)
	text = min(text, max(1, (rest-frame)/2))
	composer := text + frame
	rest -= composer
	l.ComposerText, l.ComposerBoxed = text, frame > 0

	attach := 0
	if in.AttachLines > 0 && rest-in.AttachLines >= minTranscript {
		attach = in.AttachLines
		rest -= attach
	}

	banner := 0
	if in.BannerLines > 0 {
		banner = min(in.BannerLines, max(0, rest-minTranscript), max(1, rest/3))
		if rest-banner < 1 {
			banner = 0
		}
		rest -= banner
	}
	transcript := max(rest, 0)

	y := 0
	l.Banner = rect{0, y, w, banner}
	y += banner
	l.Transcript = rect{0, y, w, transcript}
	y += transcript
	l.Status = rect{0, y, w, status}
	y += status
	l.Attach = rect{0, y, w, attach}
	y += attach
	l.Composer = rect{0, y, w, composer}
	y += composer
	l.Hint = rect{0, y, w, hint}

	switch in.Overlay {
	case overlayPanel:
		l.Overlay = rect{0, 0, w, banner + transcript}
	case overlayFull:
		l.Overlay = rect{0, 0, w, h}
	}
	return l
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
