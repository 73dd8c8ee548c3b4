package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/ui/keys"
	"parley/ui/slash"
	"parley/ui/transcript"
)

// Update is the one place the model changes. After the message is handled,
// the screen follows from the model: the layout is recomputed when its
// inputs changed, the derived parts (status, hint, banner, title) are
// redrawn when theirs did, and the frame is composed.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.relayout()
	m.comp.sync(m.ctx, m.composerLook())
	m.refreshChrome()
	m.composeFrame()
	// A new layout or theme may leave off-screen messages to render
	// lazily; an edited composer is kept as the session's draft. Pictures
	// the transcript and the image pane now wait for (a message with
	// images arrived, the width or the selection changed) are asked for.
	return m, tea.Batch(cmd, m.tickIfNeeded(), m.draftChanged(), m.askPictures(), m.askPanePicture())
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m.tickIfNeeded()

	case tea.ColorProfileMsg:
		if m.term.profileKnown(msg.Profile, m.opts.Profile) {
			return m.restyle()
		}
		return nil

	case tea.BackgroundColorMsg:
		if m.term.backgroundKnown(msg.IsDark()) {
			return m.restyle()
		}
		return nil

	case tea.ModeReportMsg:
		if msg.Mode == ansi.ModeUnicodeCore && (msg.Value == ansi.ModeSet || msg.Value == ansi.ModeReset || msg.Value == ansi.ModePermanentlySet) {
			// The terminal measures by grapheme cluster, as the layout
			// does (Bubble Tea switches its renderer to match).
			m.term.graphemes = true
		}
		return nil

	case tea.KeyboardEnhancementsMsg:
		m.term.enhanced = msg.SupportsKeyDisambiguation()
		m.ctx.Keys = m.ctx.Keys.ForTerminal(m.term.enhanced)
		m.keysChanged()
		return nil

	case frameMsg:
		return m.frame(msg)

	case imagesMadeMsg:
		return m.imagesMade(msg)

	case panePictureMsg:
		return m.panePictureArrived(msg)

	case paneActionMsg:
		return m.notify(msg.text, msg.kind)

	case editMaskMsg:
		return m.maskRead(msg)

	case imageTickMsg:
		return m.imageTicked(msg)

	case tmuxProbedMsg:
		m.tmuxProbed(msg)
		return nil

	case transcriptPictureMsg:
		return m.pictureArrived(msg)

	case previewMsg:
		// A preview for an overlay: a kitty picture goes to the terminal
		// first; the overlay takes the message below.
		var cmd tea.Cmd
		if m.layers.top() != nil {
			cmd = m.routeLayer(msg)
		}
		return tea.Batch(m.transmit(msg.r), cmd)

	case transcript.RenderedMsg:
		m.tr.HandleMsg(msg)
		return m.tickIfNeeded()

	case noticeExpiredMsg:
		m.notes.expired(msg)
		return nil

	case copiedMsg:
		text, kind := copiedToast(msg)
		return m.notify(text, kind)

	case editorDoneMsg:
		return m.editorDone(msg)

	case attachedMsg:
		return m.attached(msg)

	case clientReadyMsg:
		return m.clientReady(msg)

	case configSavedMsg:
		return m.configSaved(msg)

	case recorderFailedMsg:
		return m.recorderFailed(msg)

	case sessionLoadedMsg:
		return m.sessionLoaded(msg)

	case draftTickMsg:
		if msg.gen == m.hist.draft.gen {
			return m.saveDraftNow()
		}
		return nil

	case draftSavedMsg:
		return m.draftSavedResult(msg)

	case clipboardReadMsg:
		return m.clipboardRead(msg)

	case exportedMsg:
		return m.exported(msg)

	case autoTitleMsg:
		return m.autoTitled(msg)

	case lastModelSavedMsg:
		if msg.err != nil {
			return m.notify("could not remember the model for the next start: "+msg.err.Error(), toastInfo)
		}
		return nil

	case tea.KeyPressMsg:
		return m.key(msg)

	case slash.CompletionsMsg:
		cmd, _ := m.menuKey(msg)
		return cmd

	case tea.PasteMsg:
		if m.layers.top() != nil {
			return m.routeLayer(msg)
		}
		if p, ok := m.pane.(focusablePane); ok && m.focus == focusPane {
			if p.binds(msg) {
				cmd, res := p.update(msg)
				return tea.Batch(cmd, m.handleResult(res))
			}
			m.focus = focusComposer
		}
		return m.paste(msg)

	case tea.MouseWheelMsg:
		if m.layers.top() != nil {
			return m.routeLayer(msg)
		}
		if !m.term.mouse {
			return nil
		}
		switch msg.Button {
		case tea.MouseWheelUp:
			m.tr.WheelUp()
		case tea.MouseWheelDown:
			m.tr.WheelDown()
		}
		return m.tickIfNeeded()
	}
	// Everything else (layer results such as a probe or a model list,
	// cursor blink, …) goes to the top layer or the composer.
	if m.layers.top() != nil {
		return m.routeLayer(msg)
	}
	if p, ok := m.pane.(focusablePane); ok {
		// What the pane started (its save prompt's path completions).
		if cmd, res := p.update(msg); cmd != nil || res != nil {
			return tea.Batch(cmd, m.handleResult(res))
		}
	}
	cmd := m.comp.update(msg)
	return cmd
}

// keysChanged re-renders what shows keys after the key map changed (the
// terminal reported its keyboard support).
func (m *Model) keysChanged() {
	m.comp.applyKeys(m.ctx.Keys)
	for _, l := range m.layers.list {
		if h, ok := l.(interface{ keysChanged(keys.Map) }); ok {
			h.keysChanged(m.ctx.Keys)
		}
	}
}

// tickIfNeeded starts the frame tick when the transcript has pending work
// (a resize or theme change renders off-screen messages lazily) and no
// stream already drives the tick.
func (m *Model) tickIfNeeded() tea.Cmd {
	if m.stream.active != nil || m.screen.ticking || !m.tr.NeedsTick() {
		return nil
	}
	m.screen.ticking = true
	return frameTick(0)
}

// frame is one frame tick: take what the stream sent since the previous
// one, re-render what changed, advance the spinner and the clock every
// spinnerStep, and keep ticking while a stream runs or work is pending.
func (m *Model) frame(msg frameMsg) tea.Cmd {
	var ended tea.Cmd
	if msg.id == 0 {
		m.screen.ticking = false
	} else if m.stream.active == nil || msg.id != m.stream.active.id {
		return nil // a late tick of a stopped stream
	} else if m.drainStream() {
		ended = m.maybeAutoTitle()
	}
	render := m.tr.Tick()
	// Text that arrived right before a silence is stored within a second
	// all the same (a crash then loses at most that second).
	m.conv.FlushProgress()
	if s := m.stream.active; s != nil && msg.id == s.id {
		// The status line changes at the spinner's pace, not the frame's:
		// a frame that only adds text redraws only the text.
		if now := m.now(); now.Sub(s.shown) >= spinnerStep {
			s.frame++
			s.shown = now
		}
		return tea.Batch(frameTick(msg.id), render)
	}
	return tea.Batch(m.tickIfNeeded(), render, ended)
}
