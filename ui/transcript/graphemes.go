package transcript

// A terminal that does not measure text by grapheme cluster (no mode 2027:
// tmux and many others) draws a cluster such as 👨‍👩‍👧 as its code points
// side by side, six cells where the layout counts two. Until the root says
// the terminal measures by grapheme cluster (SetGraphemes), text is laid
// out as its parts (cells.Parts), so that what the terminal draws takes
// exactly the cells the layout gave it and the root's cells.ForWcWidth has
// nothing left to cut.

// SetGraphemes tells the transcript whether the terminal measures text by
// grapheme cluster (mode 2027), as the layout does; the default is false,
// text laid out by the parts a wcwidth terminal draws. A change renders
// everything again (the window at once, what is near it a few messages per
// Tick, the rest when it comes near).
func (t *Transcript) SetGraphemes(on bool) {
	if on == t.c.graphemes {
		return
	}
	t.c.graphemes = on
	t.c.gen++
	t.jobs.drop()
	t.r.reply.relay()
	t.list.invalidate()
	t.list.ensureWindow()
	t.list.startLazy()
}

// Graphemes reports what SetGraphemes set.
func (t *Transcript) Graphemes() bool { return t.c.graphemes }
