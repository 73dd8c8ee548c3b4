package ui

// relayout computes the layout when its inputs changed and hands every
// component its area. It runs at the end of every Update, so a handler
// never has to remember it.
func (m *Model) relayout() {
	in := layoutInput{
		Width:         m.ctx.Width,
		Height:        m.ctx.Height,
		ComposerLines: m.comp.lines(),
		ComposerFrame: 2,
		NoticeLines:   noticeLines(m.ctx, m.notes.cur, m.ctx.Width),
		Side:          m.pane != nil,
		AttachLines:   attachLines(len(m.comp.attachments)),
		LayerGen:      m.layers.gen,
	}
	if len(m.notes.banner) > 0 {
		in.BannerLines = len(bannerTitle(m.ctx, m.ctx.Width)) + len(bannerBody(m.notes.banner, m.ctx.Width))
	}
	if m.menu.IsOpen() {
		in.AboveLines = m.menu.Height(maxMenuRows)
	}
	if l := m.layers.top(); l != nil {
		in.Overlay = overlayPanel
		if l.full {
			in.Overlay = overlayFull
		}
	}
	if in == m.screen.layIn && m.screen.lay.Width > 0 {
		return
	}
	m.screen.layIn = in
	// First the composer's cap on this screen, then its actual height.
	capIn := in
	capIn.ComposerLines = maxComposerLines
	capLay := computeLayout(capIn)
	m.comp.setSize(capLay.Composer.W, capLay.ComposerBoxed)
	m.comp.setMaxLines(capLay.ComposerText)
	in.ComposerLines = m.comp.lines()
	m.screen.lay = computeLayout(in)
	if m.screen.lay.OverlayKind == overlayPanel && m.screen.lay.Overlay.H < minPanelRows {
		// Too little room above the composer for help or a list to be of
		// use: the layer takes the whole screen.
		in.Overlay = overlayFull
		m.screen.lay = computeLayout(in)
	}
	m.tr.SetSize(max(m.screen.lay.Transcript.W, 1), max(m.screen.lay.Transcript.H, 1))
	if l := m.layers.top(); l != nil {
		l.SetSize(m.screen.lay.Overlay.W, m.screen.lay.Overlay.H)
	}
}

// composerLook is what the composer's drawing depends on besides its
// content: its rows, whether it has the keys, the model it names.
func (m *Model) composerLook() composerLook {
	return composerLook{
		textH:       m.screen.lay.ComposerText,
		focused:     m.layers.top() == nil && m.focus.on == focusComposer && !m.quitting,
		placeholder: placeholder(m.eng.Model(), firstKey(m.ctx.Keys.ModelPicker, "ctrl+o")),
	}
}
