package ui

// resize takes a new terminal size; the layout follows at the end of the
// Update.
func (m *Model) resize(w, h int) {
	m.ctx.Width, m.ctx.Height = max(w, 1), max(h, 1)
}

// layoutInput gathers everything the layout depends on from the model.
func (m *Model) layoutInput() layoutInput {
	in := layoutInput{
		Width:         m.ctx.Width,
		Height:        m.ctx.Height,
		ComposerLines: m.comp.lines(),
		ComposerFrame: 2,
		NoticeLines:   noticeLines(m.notes.cur, m.ctx.Width),
		Side:          m.pane != nil,
	}
	if len(m.notes.banner) > 0 {
		in.BannerLines = 1 + len(bannerBody(m.notes.banner, m.ctx.Width))
	}
	in.AttachLines = attachLines(len(m.comp.attachments))
	if m.menuOpen() {
		in.AboveLines = m.menuLines()
	}
	if l := m.layers.top(); l != nil {
		in.Overlay = overlayPanel
		if l.full() {
			in.Overlay = overlayFull
		}
	}
	return in
}

// relayout computes the layout when its inputs changed and hands every
// component its area. It runs at the end of every Update, so a handler
// never has to remember it.
func (m *Model) relayout() {
	in := m.layoutInput()
	if in == m.layIn && m.lay.Width > 0 {
		return
	}
	m.layIn = in
	// First the composer's cap on this screen, then its actual height.
	capIn := in
	capIn.ComposerLines = maxComposerLines
	capLay := computeLayout(capIn)
	m.comp.setSize(capLay.Composer.W, capLay.ComposerBoxed)
	m.comp.setMaxLines(capLay.ComposerText)
	in.ComposerLines = m.comp.lines()
	m.lay = computeLayout(in)
	if m.lay.OverlayKind == overlayPanel && m.lay.Overlay.H < minPanelRows {
		// Too little room above the composer for help or a list to be of
		// use: the layer takes the whole screen.
		in.Overlay = overlayFull
		m.lay = computeLayout(in)
	}
	m.tr.SetSize(max(m.lay.Transcript.W, 1), max(m.lay.Transcript.H, 1))
	m.comp.render(m.ctx, m.lay.ComposerText)
	if l := m.layers.top(); l != nil {
		l.setSize(m.lay.Overlay.W, m.lay.Overlay.H)
	}
}

// composerChanged re-renders the composer after its text or attachments
// changed; a new height re-lays the screen at the end of the Update.
func (m *Model) composerChanged() {
	m.comp.render(m.ctx, m.lay.ComposerText)
}
