package transcript

import (
	"parley/ui/cells"
	"parley/ui/mdstream"
)

// A terminal that does not measure text by grapheme cluster (no mode 2027:
// tmux and many others) draws a cluster such as 👨‍👩‍👧 as its code points
// side by side, six cells where the layout counts two. Until the root says
// the terminal measures by grapheme cluster (SetGraphemes), text is laid
// out as its parts (cells.Parts), so that what the terminal draws takes
// exactly the cells the layout gave it and the root's cells.ForWcWidth has
// nothing left to cut.

// lay is text as laid out for the terminal.
func (t *Transcript) lay(s string) string {
	if t.graphemes {
		return s
	}
	return cells.Parts(s)
}

// feed appends sanitised streamed text to a reply's document, laid out for
// the terminal.
func (t *Transcript) feed(l *live, s string) {
	if l.doc == nil {
		return
	}
	if !t.graphemes {
		s = l.parts.Write(s)
	}
	if s != "" {
		l.doc.Append(s)
	}
}

// SetGraphemes tells the transcript whether the terminal measures text by
// grapheme cluster (mode 2027), as the layout does; the default is false,
// text laid out by the parts a wcwidth terminal draws. A change renders
// everything again (the window at once, what is near it a few messages per
// Tick, the rest when it comes near).
func (t *Transcript) SetGraphemes(on bool) {
	if on == t.graphemes {
		return
	}
	t.graphemes = on
	t.gen++
	t.dropInflight()
	for _, it := range t.streams {
		l := it.live
		if l.think != nil {
			t.relay(l.think)
		}
		if l.doc == nil {
			continue
		}
		// The document holds text laid out the old way: start it again.
		l.doc, l.parts = &mdstream.Doc{}, cells.PartsStream{}
		t.feed(l, l.safe.String())
		l.dirty = true
	}
	t.invalidate()
	t.ensureWindow()
	t.startLazy()
}

// Graphemes reports what SetGraphemes set.
func (t *Transcript) Graphemes() bool { return t.graphemes }
