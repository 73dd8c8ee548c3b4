package ui

import "testing"

// The layout covers the screen exactly, top to bottom, at every size from
// tiny to very large, with the composer capped and the transcript readable.
func TestLayoutTilesTheScreen(t *testing.T) {
	for _, w := range []int{1, 20, 40, 80, 300} {
		for h := 1; h <= 80; h++ {
			for _, comp := range []int{1, 3, 8, 20} {
				for _, banner := range []int{0, 4} {
					for _, ov := range []overlayKind{overlayNone, overlayPanel, overlayFull} {
						l := computeLayout(layoutInput{Width: w, Height: h, ComposerLines: comp, ComposerFrame: 2, AttachLines: 1, BannerLines: banner, Overlay: ov})
						y := 0
						for _, r := range []rect{l.Banner, l.Transcript, l.Status, l.Attach, l.Composer, l.Hint} {
							if r.Y != y || r.H < 0 || r.W != w {
								t.Fatalf("%dx%d comp=%d banner=%d: rect %+v at y=%d", w, h, comp, banner, r, y)
							}
							y += r.H
						}
						if y != h {
							t.Fatalf("%dx%d comp=%d: rows add up to %d", w, h, comp, y)
						}
						if l.ComposerText < 1 || l.ComposerText > maxComposerLines || l.Composer.H != l.ComposerText+map[bool]int{true: 2}[l.ComposerBoxed] {
							t.Fatalf("%dx%d: composer %d lines", w, h, l.Composer.H)
						}
						if h >= 12 && l.Transcript.H < minTranscript {
							t.Fatalf("%dx%d comp=%d banner=%d: transcript only %d lines", w, h, comp, banner, l.Transcript.H)
						}
						switch ov {
						case overlayPanel:
							if l.Overlay.Y != 0 || l.Overlay.H != l.Banner.H+l.Transcript.H {
								t.Fatalf("panel overlay %+v", l.Overlay)
							}
						case overlayFull:
							if l.Overlay.H != h {
								t.Fatalf("full overlay %+v", l.Overlay)
							}
						}
					}
				}
			}
		}
	}
}

func TestLayoutGrowsComposerToEightLines(t *testing.T) {
	for lines := 1; lines <= 12; lines++ {
		l := computeLayout(layoutInput{Width: 80, Height: 40, ComposerLines: lines, ComposerFrame: 2})
		if want := min(lines, 8); l.ComposerText != want || l.Composer.H != want+2 {
			t.Errorf("%d lines: composer %d, want %d", lines, l.Composer.H, want)
		}
	}
	// At 40x12 everything is there: status, hint, and a readable transcript.
	l := computeLayout(layoutInput{Width: 40, Height: 12, ComposerLines: 8, ComposerFrame: 2})
	if l.Status.H != 1 || l.Hint.H != 1 || l.Transcript.H < 4 || !l.ComposerBoxed {
		t.Errorf("40x12: %+v", l)
	}
}

// A side pane goes beside the transcript on a wide screen and takes the
// transcript's place on a small one; either way the rows still tile the
// screen and the pane gets the transcript's rows.
func TestLayoutSidePane(t *testing.T) {
	wide := computeLayout(layoutInput{Width: 100, Height: 30, ComposerLines: 1, ComposerFrame: 2, Side: true})
	if wide.SideFull || wide.Side.X != wide.Transcript.W || wide.Side.X+wide.Side.W != 100 ||
		wide.Side.Y != wide.Transcript.Y || wide.Side.H != wide.Transcript.H || wide.Transcript.W < minTranscriptCols || wide.Side.W < minSideCols {
		t.Fatalf("100x30: transcript %+v side %+v", wide.Transcript, wide.Side)
	}
	small := computeLayout(layoutInput{Width: 40, Height: 12, ComposerLines: 1, ComposerFrame: 2, Side: true})
	if !small.SideFull || small.Side.W != 40 || small.Side.X != 0 || small.Transcript.H != 0 || small.Side.H < minTranscript {
		t.Fatalf("40x12: transcript %+v side %+v", small.Transcript, small.Side)
	}
	for _, l := range []layout{wide, small} {
		y := 0
		for _, r := range []rect{l.Banner, l.Side, l.Above, l.Status, l.Attach, l.Composer, l.Hint} {
			if r.Y != y {
				t.Fatalf("%dx%d: rect %+v at y=%d", l.Width, l.Height, r, y)
			}
			y += r.H
		}
		if y != l.Height {
			t.Fatalf("%dx%d: rows add up to %d", l.Width, l.Height, y)
		}
	}
}

// A pane above the composer takes rows from the transcript, leaving it
// minTranscript rows; on a short terminal, where that would leave the list
// too few rows to be of use, the list takes the transcript's place. A long
// notice takes the rows it needs in the hint's place.
func TestLayoutAbovePaneAndNotice(t *testing.T) {
	l := computeLayout(layoutInput{Width: 80, Height: 24, ComposerLines: 1, ComposerFrame: 2, AboveLines: 8, NoticeLines: 5})
	if l.Above.H != 8 || l.Hint.H != 5 || l.Transcript.H < minTranscript {
		t.Fatalf("above %+v hint %+v transcript %+v", l.Above, l.Hint, l.Transcript)
	}
	if l.Above.Y+l.Above.H != l.Status.Y {
		t.Fatalf("the pane is not right above the status bar: %+v %+v", l.Above, l.Status)
	}
	tiny := computeLayout(layoutInput{Width: 40, Height: 12, ComposerLines: 1, ComposerFrame: 2, AboveLines: 20})
	if tiny.Transcript.H != 0 || tiny.Above.H < minAboveRows || tiny.Above.Y != 0 {
		t.Fatalf("40x12: above %+v transcript %+v", tiny.Above, tiny.Transcript)
	}
}

// At 40x12 a three-line notice gives its extra lines to the command list
// rather than leave it two commands (issue 26 §13).
func TestLayoutNoticeYieldsToTheCommandList(t *testing.T) {
	l := computeLayout(layoutInput{Width: 40, Height: 12, ComposerLines: 1, ComposerFrame: 2, AboveLines: 20, NoticeLines: 3})
	if l.Hint.H != 1 || l.Above.H != 7 || l.Transcript.H != 0 {
		t.Fatalf("40x12 with a notice: above %+v hint %+v transcript %+v", l.Above, l.Hint, l.Transcript)
	}
	// Where the list has room, the notice keeps its lines.
	tall := computeLayout(layoutInput{Width: 80, Height: 40, ComposerLines: 1, ComposerFrame: 2, AboveLines: 8, NoticeLines: 3})
	if tall.Hint.H != 3 || tall.Above.H != 8 {
		t.Fatalf("80x40: above %+v hint %+v", tall.Above, tall.Hint)
	}
}

// A notice takes the lines it needs up to a third of the screen, the
// transcript giving them up; the rows still tile the screen at every size,
// and a panel (a picker, the image pane) keeps the rows it needs rather
// than take the whole screen and hide the notice.
func TestLayoutNoticeTakesUpToAThird(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {40, 24}, {30, 24}, {40, 12}, {30, 9}, {80, 50}} {
		for _, want := range []int{1, 2, 5, 12, 40} {
			for _, ov := range []overlayKind{overlayNone, overlayPanel} {
				in := layoutInput{Width: sz[0], Height: sz[1], ComposerLines: 1, ComposerFrame: 2, NoticeLines: want, Overlay: ov}
				if ov == overlayPanel {
					in.AttachLines = 2 // a chip row: the panel is short of rows
				}
				l := computeLayout(in)
				if ov == overlayNone && l.Hint.H != min(want, max(1, sz[1]/3)) {
					t.Fatalf("%v, a notice of %d lines: hint %+v", sz, want, l.Hint)
				}
				if ov == overlayPanel && sz[1] >= 20 && l.Overlay.H < minPanelRows {
					t.Fatalf("%v, a notice of %d lines: the panel has %d rows", sz, want, l.Overlay.H)
				}
				y := 0
				for _, r := range []rect{l.Banner, l.Transcript, l.Above, l.Status, l.Attach, l.Composer, l.Hint} {
					if r.Y != y || r.H < 0 {
						t.Fatalf("%v, a notice of %d lines: rect %+v at y=%d", sz, want, r, y)
					}
					y += r.H
				}
				if y != sz[1] || l.Transcript.H < 1 {
					t.Fatalf("%v, a notice of %d lines: rows add up to %d, transcript %+v", sz, want, y, l.Transcript)
				}
			}
		}
	}
}
