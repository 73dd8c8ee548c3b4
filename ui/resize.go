package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
)

// resize takes a new terminal size and reflows everything.
func (m *Model) resize(w, h int) {
	m.ctx.Width, m.ctx.Height = max(w, 1), max(h, 1)
	m.relayout()
}

// relayout computes the layout from the current size, composer height,
// banner and overlay, and hands every component its area.
func (m *Model) relayout() {
	m.overlay = m.ovKind()
	in := layoutInput{
		Width:         m.ctx.Width,
		Height:        m.ctx.Height,
		ComposerLines: maxComposerLines,
		ComposerFrame: 2,
		BannerLines:   m.bannerLines(),
		Overlay:       m.overlay,
	}
	if len(m.comp.attachments) > 0 {
		in.AttachLines = 1
	}
	// First the composer's cap on this screen, then its actual height.
	capLay := computeLayout(in)
	m.comp.setSize(capLay.Composer.W, capLay.ComposerBoxed)
	m.comp.setMaxLines(capLay.ComposerText)
	in.ComposerLines = m.comp.lines()
	m.lay = computeLayout(in)
	if m.overlay == overlayPanel && m.lay.Overlay.H < minPanelRows {
		// Too little room above the composer for help or a list to be
		// of use: the overlay takes the whole screen.
		m.overlay = overlayFull
		in.Overlay = overlayFull
		m.lay = computeLayout(in)
	}

	m.tr.SetSize(m.lay.Transcript.W, max(m.lay.Transcript.H, 1))
	m.comp.render(m.ctx, m.lay.ComposerText)
	m.renderEmpty()
	m.renderBanner()
	m.renderStatus()
	m.renderHint()
	m.sizeOverlay()
}

// composerChanged re-renders the composer and re-lays the screen when its
// height (or the attachment row) changed.
func (m *Model) composerChanged() {
	want := m.comp.lines()
	attach := 0
	if len(m.comp.attachments) > 0 {
		attach = 1
	}
	if want != m.lay.ComposerText || attach != m.lay.Attach.H {
		m.relayout()
		return
	}
	m.comp.render(m.ctx, m.lay.ComposerText)
	if m.lay.Hint.H > 0 && m.toast.text == "" {
		m.renderHint() // the hint depends on an empty composer
	}
}

// sizeOverlay hands the open overlay its area.
func (m *Model) sizeOverlay() {
	switch m.openKind {
	case openHelp:
		m.help.SetSize(m.lay.Overlay.W, m.lay.Overlay.H)
	case openModels, openThemes:
		m.picker.SetSize(m.lay.Overlay.W, m.lay.Overlay.H)
	case openSetup:
		m.setup.SetSize(m.lay.Overlay.W, m.lay.Overlay.H)
	}
}

// bannerLines is the height the start-up banner wants: a title and the
// problems, each wrapped to the screen's width.
func (m *Model) bannerLines() int {
	if len(m.banner) == 0 {
		return 0
	}
	return 1 + len(m.bannerBody(m.ctx.Width))
}

// bannerBody is the problems as lines of at most w cells.
func (m *Model) bannerBody(w int) []string {
	var lines []string
	for _, p := range m.banner {
		wrapped := ansi.Wrap(termsafe.Sanitize(oneLine(p)), max(w-3, 10), "")
		for i, l := range strings.Split(wrapped, "\n") {
			prefix := "   "
			if i == 0 {
				prefix = " • "
			}
			lines = append(lines, prefix+l)
		}
	}
	return lines
}

// renderBanner draws the start-up problems (bad [keys] entries, bad theme
// files) at the top until esc or the first send.
func (m *Model) renderBanner() {
	h := m.lay.Banner.H
	if h == 0 || len(m.banner) == 0 {
		m.bannerView = ""
		return
	}
	lk := m.look()
	w := m.lay.Banner.W
	body := m.bannerBody(w)
	lines := []string{lk.bannerTitle.Render(fitLine(" parley found problems at start (esc dismisses):", w))}
	if len(body) > h-1 {
		more := len(body) - (h - 2)
		body = append(body[:max(h-2, 0)], " … "+itoa(more)+" more lines; widen the window to read them")
	}
	for _, l := range body {
		lines = append(lines, lk.banner.Render(fitLine(l, w)))
	}
	m.bannerView = strings.Join(lines[:min(len(lines), h)], "\n")
}

func (m *Model) dismissBanner() {
	if len(m.banner) == 0 {
		return
	}
	m.banner = nil
	m.bannerView = ""
	m.relayout()
}
