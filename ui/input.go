package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/chat"
	"parley/ui/keys"
	"parley/ui/sidepane"
	"parley/ui/uictx"
)

// key gives a key press to the one part whose mode it is (keyMode). An
// open layer has the keys, but an app key it does not use (help, notices,
// sessions, …) closes the layers and acts. The message cursor and a focused pane take their own keys; an
// app key acts with the focus left where it is; any other key gives the
// focus back to the composer and is delivered there.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	app, isApp := m.actions.appKey(&m.ctx.Keys, msg, keysNow(&m.comp, m.eng))
	switch keyMode(m.layers.top(), m.focus) {
	case modeOverlay:
		l := m.layers.top()
		m.armed.codePrefix = false
		if !isApp || layerBinds(l.Component, msg) {
			return m.routeLayer(msg)
		}
		if app.opens != "" && app.opens == l.kind {
			m.layers.pop()
			return nil
		}
		m.layers.closeAll()
		return m.perform(app.op, call{key: msg})
	case modeMessages:
		if isApp {
			return m.perform(app.op, call{key: msg})
		}
		return m.cursorKey(msg)
	case modePane:
		if cmd, ok := m.paneTakes(msg); ok {
			return cmd
		}
		if isApp {
			return m.perform(app.op, call{key: msg})
		}
		m.focus.toComposer()
	}
	if !m.menu.IsOpen() {
		if out, ok := m.cmp.key(msg, m.eng, !m.comp.empty(), m.ctx, m.screen.lay.Transcript, m.now()); ok {
			if out.bottom {
				m.tr.List().Bottom()
			}
			return tea.Batch(m.tickIfNeeded(), m.notes.say(out.say))
		}
	}
	return m.chatKey(msg)
}

// paneTakes gives a key or a paste to the side pane when the pane has the
// focus and binds it; ok says it did.
func (m *Model) paneTakes(msg tea.Msg) (tea.Cmd, bool) {
	p, ok := m.pane.(sidepane.Focusable)
	if !ok || keyMode(m.layers.top(), m.focus) != modePane || !p.Binds(msg) {
		return nil, false
	}
	cmd, res := p.Update(msg)
	return tea.Batch(cmd, m.handleResult(res)), true
}

// layerBinds reports whether a layer uses a key: a layer that does not say
// uses every key that types text.
func layerBinds(l uictx.Component, msg tea.KeyPressMsg) bool {
	if b, ok := l.(keyBinder); ok {
		return b.Binds(msg)
	}
	return msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock) == 0
}

// chatKey handles a key while the composer has the focus: the command
// list first, a copy_code prefix waiting for its digit, the action table,
// and what is left edits the message.
func (m *Model) chatKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.menu.IsOpen() {
		if cmd, done := m.menuKey(msg); done {
			return cmd
		}
		cmd, n := m.comp.typeKey(msg, &m.ctx.Keys)
		return tea.Batch(cmd, m.notes.say(n), m.menu.sync(m.comp.value()))
	}
	if m.armed.codePrefix {
		m.armed.codePrefix = false
		if s := msg.String(); len(s) == 1 && s[0] >= '1' && s[0] <= '9' {
			return m.notes.copied(copyFromReply(m.eng.Conv(), m.tr, m.opts.clipboardWrite(m.desktop, m.base), int(s[0]-'0')))
		}
		if keys.Matches(msg, m.ctx.Keys.Cancel) {
			return nil
		}
	}
	textEmpty := m.comp.textEmpty()
	switch {
	case typedAhead(msg, m.term, m.now()):
		return m.send()
	case textEmpty && !m.tr.List().AtBottom() && (msg.Keystroke() == "up" || msg.Keystroke() == "down"):
		// While the view is scrolled up, the arrows of an empty composer
		// scroll it line by line: terminals turn the mouse wheel into
		// arrow keys, and a wheel must not open the last message for
		// editing.
		if msg.Keystroke() == "up" {
			m.tr.List().LineUp(1)
		} else {
			m.tr.List().LineDown(1)
		}
		return m.tickIfNeeded()
	case msg.Keystroke() == "backspace" && textEmpty && len(m.comp.attachments) > 0:
		return m.notes.say(m.comp.remove(-1))
	case msg.Text == "/" && textEmpty && !m.comp.editing:
		m.comp.setValue("/")
		return m.menu.open(completionEnv(m.eng, &m.images, m.opts, m.term.themes), m.comp.value())
	}
	if a, ok := m.actions.forKey(&m.ctx.Keys, msg, keysNow(&m.comp, m.eng)); ok {
		return m.perform(a.op, call{key: msg})
	}
	cmd, n := m.comp.typeKey(msg, &m.ctx.Keys)
	return tea.Batch(cmd, m.notes.say(n))
}

// keysNow is the state the keys' conditions read.
func keysNow(c *composer, eng *chat.Engine) keyState {
	return keyState{textEmpty: c.textEmpty(), nothingDrafted: c.empty() && eng.Reply() == nil && eng.Conv().Len() > 0}
}

// typeAheadLimit is how long after start a ctrl+j may still count as typed
// ahead while the terminal has answered none of parley's queries.
const typeAheadLimit = 2 * time.Second

// typedAhead reports an Enter typed before parley took the terminal: the
// terminal, still in line mode, turned it into a line feed, which arrives
// as ctrl+j (a newline key). Enter always sends. Such keys were in the
// terminal's input before the queries parley writes as it starts, so they
// arrive before any answer: after the first answer a ctrl+j is the user's
// newline. A terminal that answers nothing gets typeAheadLimit. (A fixed
// half second from start, the rule before, was too short for a slow start:
// on a loaded machine the typed-ahead Enter became a newline.)
func typedAhead(msg tea.KeyPressMsg, t terminal, now time.Time) bool {
	return msg.Keystroke() == "ctrl+j" && !t.enhanced && !t.answered && now.Sub(t.started) < typeAheadLimit
}

// cancelKey is esc in the chat: stop the reply, else leave edit mode, else
// close a pane that took the transcript's place, else dismiss the banner
// or the notice shown (and nothing else: the letters typed next go to the
// composer), else select the last message when the composer is empty.
func (m *Model) cancelKey() tea.Cmd {
	switch {
	case m.eng.Reply() != nil:
		m.interruptStream()
		return m.tickIfNeeded()
	case m.eng.Images() != nil:
		return m.notes.say(stopImages(m.eng))
	case m.work.attaching > 0:
		m.work.stopAttaching()
		if m.eng.Waiting() == chat.WaitAttachments {
			m.eng.Hold(chat.WaitNone)
			return m.notes.show("stopped attaching; the images being prepared were not attached, and your message was not sent", toastInfo)
		}
		return m.notes.show("stopped attaching; the images being prepared were not attached", toastInfo)
	case m.comp.editing:
		if m.comp.abandonEdit() {
			return m.notes.show("left edit mode; your text stays in the composer as a new message", toastInfo)
		}
		return nil
	case m.pane != nil && m.screen.lay.SideFull:
		m.pane = nil
		m.focus.toComposer()
		return nil
	case m.eng.Waiting() != chat.WaitNone:
		m.eng.Hold(chat.WaitNone)
		return m.notes.show("not sent; your message stays in the composer", toastInfo)
	case m.notes.dismissBanner(), m.notes.dismiss():
		// The notice goes, and this esc does only that: a key that
		// dismisses something never acts besides.
		return nil
	case m.comp.empty() && m.eng.Conv().Len() > 0:
		// The message cursor, on the last message.
		m.selectMessage(m.eng.Conv().At(m.eng.Conv().Len() - 1).ID)
		return m.tickIfNeeded()
	}
	return nil
}

// interrupt is ctrl+c: stop the reply when one streams (only that: a
// second ctrl+c to stop a reply must not end the program and lose the
// conversation); otherwise the first press arms quitting and a second
// within quitWindow quits.
func (m *Model) interrupt() tea.Cmd {
	if m.eng.Reply() != nil {
		m.interruptStream()
		return m.tickIfNeeded()
	}
	if m.eng.Images() != nil {
		return m.notes.say(stopImages(m.eng))
	}
	if m.armed.again(&m.armed.quit, m.now()) {
		return m.quit()
	}
	return m.notes.show(fmt.Sprintf("press %s again to quit", firstKey(m.ctx.Keys.Interrupt, "ctrl+c")), toastInfo)
}

// quit stops a reply in flight (kept as interrupted) and ends the program.
func (m *Model) quit() tea.Cmd {
	m.interruptStream()
	m.quitting = true
	return tea.Quit
}

// toggleMouse turns mouse capture on or off and says what it means.
func (t *terminal) toggleMouse() string {
	t.mouse = !t.mouse
	if t.mouse {
		return "mouse wheel scrolls the transcript; hold shift to select text"
	}
	return "mouse released: the terminal selects text again"
}
