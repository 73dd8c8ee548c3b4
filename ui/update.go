package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/imagegen"
	"parley/ui/filepicker"
	"parley/ui/slash"
	"parley/ui/transcript"
)

// Update is the one place the model changes. After the message is handled,
// the screen follows from the model: the layout is recomputed when its
// inputs changed, the derived parts (status, hint, banner, title) are
// redrawn when theirs did, and the frame is composed.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if _, ok := m.eng.Conv().ByID(m.focus.msg); m.focus.on == focusMessages && !ok {
		// The selected message left the path (a switch, a new
		// conversation): the composer has the keys again.
		m.focus.toComposer()
	}
	m.tr.List().SetSelected(shownCursor(m.focus, m.eng.Conv(), m.layers.top() != nil))
	m.relayout()
	// Pictures the transcript now waits for (a message with images
	// arrived, the width changed) are asked for before the frame is
	// composed: one already made is put in place at once, and this frame
	// shows it. The image pane says what it waits for when it is drawn.
	opts := m.pics.options(m.ctx, m.term.profile)
	pics := m.pics.ask(m.work.ctx, m.tr, opts)
	m.comp.sync(m.ctx, m.composerLook())
	m.refreshChrome()
	m.composeFrame()
	staged := m.pics.stageFrame(&m.screen.frame, m.ctx.Width, m.ctx.Height, m.tr, m.opts.Output)
	// A new layout or theme may leave off-screen messages to render
	// lazily; an edited composer is kept as the session's draft.
	return m, tea.Batch(cmd, pics, m.pics.askPane(m.work.ctx, m.pane, opts), m.tickIfNeeded(), m.hist.draftChanged(&m.comp), staged)
}

// update hands a message to the part that owns it: the terminal's
// reports, the results of background work, the history's messages, and the
// user's input.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	if ch, ok := msg.(serverChanged); ok {
		if text, kind := serverNotice(ch, m.opts.MCP, &m.layers); text != "" {
			return tea.Batch(waitServers(m.opts.MCP), m.notes.show(text, kind))
		}
		return waitServers(m.opts.MCP)
	}
	if cmd, ok := m.pics.update(msg, m.base, m.opts.Getenv, m.tr, m.opts.Profile == 0 && !m.ctx.NoColor && m.term.profile < colorprofile.TrueColor); ok {
		return cmd
	}
	if cmd, say, ok := m.hist.update(msg, m.eng.Conv(), &m.comp, m.ctx.Keys); ok {
		return tea.Batch(cmd, m.notes.say(say))
	}
	for _, handle := range []func(tea.Msg) (tea.Cmd, bool){m.terminalMsg, m.workDone, m.imageWork, m.inputMsg} {
		if cmd, ok := handle(msg); ok {
			return cmd
		}
	}
	// Everything else (layer results such as a probe or a model list,
	// cursor blink, …) goes to the top layer or the composer.
	if m.layers.top() != nil {
		return m.routeLayer(msg)
	}
	if m.pane != nil {
		// What the pane started (its save prompt's path completions).
		if cmd, res := m.pane.Update(msg); cmd != nil || res != nil {
			return tea.Batch(cmd, m.handleResult(res))
		}
	}
	cmd := m.comp.update(msg)
	return cmd
}

// tickIfNeeded starts the frame tick when the transcript has pending work
// (a resize or theme change renders off-screen messages lazily) and no
// stream already drives the tick.
func (m *Model) tickIfNeeded() tea.Cmd {
	if m.eng.Reply() != nil || m.screen.ticking || !m.tr.NeedsTick() {
		return nil
	}
	m.screen.ticking = true
	return frameTick(0, lazyInterval)
}

// frame is one frame tick: take what the stream sent since the previous
// one, re-render what changed, advance the spinner and the clock every
// spinnerStep, and keep ticking while a stream runs or work is pending.
func (m *Model) frame(msg frameMsg) tea.Cmd {
	var ended tea.Cmd
	if msg.id == 0 {
		m.screen.ticking = false
	} else if m.eng.Reply() == nil || msg.id != m.eng.Reply().ID {
		return nil // a late tick of a stopped stream
	} else if end, over := m.eng.Drain(); over {
		client, _ := m.eng.Clients().Ready(m.eng.Model())
		ended = m.hist.autoTitle(m.base, m.eng.Conv(), client, m.eng.Model())
		if notes := replyImageNotes(end); notes != "" {
			ended = tea.Batch(ended, m.notes.show(notes, toastWarn))
		}
	}
	var render tea.Cmd
	if !m.cmp.covers(m.eng) {
		// While a compare's columns stream in its place, the transcript
		// under them is not drawn: it catches up once they end.
		render = m.tr.Tick()
	}
	if msg.id != 0 {
		m.cmp.frame(m.ctx, m.eng, m.eng.Catalog(), m.screen.lay.Transcript.W, m.now())
	}
	var tools tea.Cmd
	if text := followToolAsk(m.eng, &m.layers, m.ctx); text != "" {
		tools = m.notes.show(text, toastWarn)
	}
	// Text that arrived right before a silence is stored within a second
	// all the same (a crash then loses at most that second).
	m.eng.Conv().FlushProgress()
	if r := m.eng.Reply(); r != nil && msg.id == r.ID {
		// The status line changes at the spinner's pace, not the frame's:
		// a frame that only adds text redraws only the text.
		if now := m.now(); now.Sub(m.spin.shown) >= spinnerStep {
			m.spin.frame++
			m.spin.shown = now
		}
		return tea.Batch(frameTick(msg.id, m.cmp.frameEvery(m.eng, streamFrame(m.ctx.Width, m.ctx.Height))), render, tools)
	}
	return tea.Batch(m.tickIfNeeded(), render, ended, tools)
}

// terminalMsg takes what the terminal reported: its size, colours,
// grapheme width mode and keyboard.
func (m *Model) terminalMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg.(type) {
	case tea.ModeReportMsg, tea.BackgroundColorMsg, tea.KeyboardEnhancementsMsg:
		m.term.answered = true
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.ctx.Width, m.ctx.Height = max(msg.Width, 1), max(msg.Height, 1)
		return m.tickIfNeeded(), true

	case tea.ColorProfileMsg:
		if m.term.profileKnown(msg.Profile, m.opts.Profile) {
			return m.restyle(), true
		}
		return nil, true

	case tea.BackgroundColorMsg:
		if m.term.backgroundKnown(msg.IsDark()) {
			return m.restyle(), true
		}
		return nil, true

	case tea.ModeReportMsg:
		if msg.Mode == ansi.ModeUnicodeCore && (msg.Value == ansi.ModeSet || msg.Value == ansi.ModeReset || msg.Value == ansi.ModePermanentlySet) {
			// The terminal measures by grapheme cluster, as the layout
			// does (Bubble Tea switches its renderer to match).
			m.term.graphemes = true
			m.tr.SetGraphemes(true)
		}
		return nil, true

	case uv.UnknownOscEvent, tea.ClipboardMsg, termClipExpired:
		return m.term.clip.msg(msg)

	case tea.KeyboardEnhancementsMsg:
		m.term.enhanced = msg.SupportsKeyDisambiguation()
		m.ctx.Keys = m.ctx.Keys.ForTerminal(m.term.enhanced)
		m.comp.applyKeys(m.ctx.Keys)
		for _, l := range m.layers.list {
			if h, ok := l.Component.(keysWatcher); ok {
				h.KeysChanged(m.ctx.Keys)
			}
		}
		return nil, true
	default:
		return nil, false
	}
}

// imageWork takes what the work on images brings: images made, a mask
// read, the image turn's clock, pictures drawn.
func (m *Model) imageWork(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case imagesMadeMsg:
		if n, ok := m.eng.FinishImages(msg.ImagesMade, imageFailure); ok && n > 0 {
			return m.notes.show(madeNotice("saved "+imagegen.Plural(n, "image"), m.opts), toastOK), true
		}
		return nil, true
	case editMaskMsg:
		if msg.err != nil {
			return m.notes.show(userSentence(msg.err), toastErr), true
		}
		return m.startImages(msg.ask), true
	case imageTickMsg:
		if r := m.eng.Images(); r != nil && r.ID == msg.id {
			m.spin.shown = m.now()
			return tea.Tick(imageTick, func(time.Time) tea.Msg { return imageTickMsg{id: msg.id} }), true
		}
		return nil, true
	case transcriptPictureMsg:
		return m.pics.arrived(msg, m.tr), true
	case panePictureMsg:
		return m.pics.paneArrived(msg, m.pane), true
	}
	return nil, false
}

// workDone takes the results of other background work: frames, copies,
// the editor, attachments, clients, exports, forks, model checks.
func (m *Model) workDone(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case frameMsg:
		return m.frame(msg), true

	case pickerFolderMsg:
		l, cmd := newPickerLayer(m.ctx, m.base, msg.dir, m.opts, &m.pics)
		m.layers.push(l)
		return cmd, true

	case pickerPreviewMsg:
		// For the picker, while it is open; a kitty picture reaches the
		// terminal before the frame that shows it.
		if _, open := topIs[*filepicker.Picker](&m.layers); !open {
			return nil, true
		}
		return tea.Batch(m.pics.transmit(msg.r), m.routeLayer(filepicker.PreviewMsg{PreviewRequest: msg.req, Lines: msg.r.Lines, Err: msg.err})), true

	case transcript.RenderedMsg:
		m.tr.HandleMsg(msg)
		return m.tickIfNeeded(), true

	case noticeExpiredMsg:
		m.notes.expired(msg)
		return nil, true

	case editorDoneMsg:
		if msg.err != nil {
			return m.notes.show(msg.err.Error(), toastErr), true
		}
		return m.notes.say(m.comp.takeEditorText(msg.text, roomOf(m.opts, &m.pics))), true

	case attachedMsg:
		return m.attached(msg), true

	case clientReadyMsg:
		return m.clientReady(msg), true

	case sessionLoadedMsg:
		return m.sessionLoaded(msg), true

	case grabbedMsg:
		return m.grabbed(msg), true

	case forkedMsg:
		if snap := msg.unsaved; snap != nil {
			m.interruptStream()
			m.openConversation(m.eng.Restore(conversation.NewID(), *snap), len(snap.Messages))
			return m.notes.show("forked: this new conversation holds the one before up to that message", toastOK), true
		}
		if msg.err != nil {
			return m.notes.show("could not fork: "+userSentence(msg.err), toastErr), true
		}
		return tea.Batch(m.openSession(msg.id, 0), m.notes.show("forked: a new session up to that message, opened", toastOK)), true

	case modelCheckedMsg:
		listed, warning := checkedModel(msg, m.eng.Model())
		if listed != nil {
			m.eng.SetListed(listed)
			m.eng.SetGateway(msg.said)
		}
		if msg.vision {
			warning = visionAnswered(m.eng.Catalog(), m.eng.Model(), m.comp.attachments, msg, warning)
		}
		m.eng.SetPrices(msg.prices)
		if warning == "" {
			return nil, true
		}
		return m.notes.show(warning, toastWarn), true

	case worded:
		m.comp.keepLine(refusedLine(msg))
		return m.notes.say(msg.notice()), true
	default:
		return nil, false
	}
}

// inputMsg routes the user's keys, pastes and mouse wheel.
func (m *Model) inputMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.key(msg), true

	case slash.CompletionsMsg:
		cmd, _ := m.menuKey(msg)
		return cmd, true

	case tea.PasteMsg:
		if m.layers.top() != nil {
			return m.routeLayer(msg), true
		}
		if cmd, ok := m.paneTakes(msg); ok {
			return cmd, true
		}
		if m.focus.on == focusPane {
			m.focus.toComposer()
		}
		if m.menu.IsOpen() && m.comp.fits(msg.Content) {
			// A paste into the command line being typed.
			m.comp.update(msg)
			return m.menu.sync(m.comp.value()), true
		}
		return m.pasteText(msg.Content), true

	case tea.MouseClickMsg:
		// With the mouse on, a click on a message selects it.
		if r := m.screen.lay.Transcript; m.term.mouse && m.layers.top() == nil && msg.Y >= r.Y && msg.Y < r.Y+r.H && msg.X < r.X+r.W {
			if id, ok := m.tr.List().MessageAt(msg.Y - r.Y); ok {
				m.selectMessage(id)
			}
		}
		return nil, true

	case tea.MouseWheelMsg:
		if m.layers.top() != nil {
			return m.routeLayer(msg), true
		}
		if !m.term.mouse {
			return nil, true
		}
		switch msg.Button {
		case tea.MouseWheelUp:
			m.tr.List().WheelUp()
		case tea.MouseWheelDown:
			m.tr.List().WheelDown()
		}
		return m.tickIfNeeded(), true
	default:
		return nil, false
	}
}
