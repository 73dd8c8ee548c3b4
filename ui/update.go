package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/overlay"
	"parley/ui/transcript"
)

// Update is the one place the model changes.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if b, ok := msg.(streamBatchMsg); ok && !b.ended {
		// A batch only appends text: the transcript shows it from the next
		// frame tick on, and nothing else on screen changed. Skipping the
		// frame here keeps a delta at a few microseconds.
		return m, cmd
	}
	if m.openKind != openNone {
		// The overlay, or what shows around it, may have changed. This is
		// the one place overlays are drawn: once per message, after every
		// change the message made.
		m.renderOverlay()
	}
	m.composeFrame()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m.tickIfNeeded()

	case tea.BackgroundColorMsg:
		return m.backgroundKnown(msg.IsDark())

	case tea.KeyboardEnhancementsMsg:
		m.enhanced = msg.SupportsKeyDisambiguation()
		m.ctx.Keys = m.ctx.Keys.ForTerminal(m.enhanced)
		m.refreshKeysDependents()
		return nil

	case streamBatchMsg:
		return m.streamBatch(msg)

	case frameMsg:
		return m.frame(msg)

	case transcript.RenderedMsg:
		m.tr.HandleMsg(msg)
		return m.tickIfNeeded()

	case toastExpiredMsg:
		if msg.gen == m.toast.gen {
			m.clearToast()
		}
		return nil

	case copiedMsg:
		text, kind := copiedToast(msg)
		return m.showToast(text, kind)

	case editorDoneMsg:
		return m.editorDone(msg)

	case attachedMsg:
		return m.attached(msg)

	case clientReadyMsg:
		return m.clientReady(msg)

	case modelsListedMsg:
		return m.modelsListed(msg)

	case configSavedMsg:
		return m.configSaved(msg)

	case overlay.ProbedMsg:
		if m.openKind == openSetup {
			return m.updateSetup(msg)
		}
		return nil

	case tea.KeyPressMsg:
		return m.key(msg)

	case tea.PasteMsg:
		if m.openKind != openNone {
			return m.routeOverlay(msg)
		}
		return m.paste(msg)

	case tea.MouseWheelMsg:
		if m.openKind != openNone {
			return m.routeOverlay(msg)
		}
		if !m.mouse {
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
	// Everything else (cursor blink, paste results, …) goes to the composer
	// or the open overlay.
	if m.openKind != openNone {
		return m.routeOverlay(msg)
	}
	cmd := m.comp.update(msg)
	m.composerChanged()
	return cmd
}

// tickIfNeeded starts the frame tick when the transcript has pending work
// (a resize or theme change renders off-screen messages lazily) and no
// stream already drives the tick.
func (m *Model) tickIfNeeded() tea.Cmd {
	if m.stream != nil || m.ticking || !m.tr.NeedsTick() {
		return nil
	}
	m.ticking = true
	return frameTick(0)
}

// frame is one frame tick: re-render what changed, advance the spinner and
// the clock, and keep ticking while a stream runs or work is pending.
func (m *Model) frame(msg frameMsg) tea.Cmd {
	if msg.id == 0 {
		m.ticking = false
	} else if m.stream == nil || msg.id != m.stream.id {
		return nil
	}
	render := m.tr.Tick()
	if m.stream != nil && msg.id == m.stream.id {
		m.stream.frame++
		m.renderStatus()
		return tea.Batch(frameTick(msg.id), render)
	}
	return tea.Batch(m.tickIfNeeded(), render)
}
