package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// key routes a key press: the keys that work everywhere first (quit, and
// ctrl+c as stop/quit), then the top layer, the command list, the chat's
// actions, and what is left to the composer.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	km := m.keyMap()
	if !m.layerOwnsQuit() {
		switch {
		case keys.Matches(msg, km.Quit):
			return m.quit()
		case keys.Matches(msg, km.Interrupt):
			return m.interrupt()
		}
	}
	if m.layers.top() != nil {
		return m.routeLayer(msg)
	}
	if p, ok := m.imagePaneFocused(); ok {
		if keys.Matches(msg, km.Images) && !p.p.PromptOpen() {
			return m.toggleImagePane()
		}
		return m.paneKey(p, msg)
	}
	if m.menuOpen() {
		if cmd, done := m.menuKey(msg); done {
			return cmd
		}
		cmd := m.comp.update(msg)
		m.composerChanged()
		return tea.Batch(cmd, m.syncMenu())
	}

	if m.codePrefix {
		m.codePrefix = false
		if s := msg.String(); len(s) == 1 && s[0] >= '1' && s[0] <= '9' {
			return m.copyCode(int(s[0] - '0'))
		}
		if keys.Matches(msg, km.Cancel) {
			return nil
		}
	}

	empty := m.comp.empty()
	textEmpty := m.comp.textEmpty()
	switch {
	case keys.Matches(msg, km.Cancel):
		return m.cancelKey()
	case keys.Matches(msg, km.Send) || m.typedAhead(msg):
		return m.send()
	case keys.Matches(msg, km.LineUp):
		m.tr.LineUp(1)
		return m.tickIfNeeded()
	case keys.Matches(msg, km.LineDown):
		m.tr.LineDown(1)
		return m.tickIfNeeded()
	case textEmpty && !m.tr.AtBottom() && (msg.Keystroke() == "up" || msg.Keystroke() == "down"):
		// While the view is scrolled up, the arrows of an empty composer
		// scroll it: terminals turn the mouse wheel into arrow keys, and a
		// wheel must not open the last message for editing.
		if msg.Keystroke() == "up" {
			m.tr.WheelUp()
		} else {
			m.tr.WheelDown()
		}
		return m.tickIfNeeded()
	case keys.Matches(msg, km.EditLast) && empty && m.stream == nil && m.conv.Len() > 0:
		return m.editLast()
	case m.helpKey(msg, textEmpty):
		return m.openHelp()
	case keys.Matches(msg, km.ScrollUp):
		m.tr.PageUp()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.ScrollDown):
		m.tr.PageDown()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.ScrollTop) && textEmpty:
		m.tr.Top()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.ScrollBottom) && textEmpty:
		m.tr.Bottom()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.Retry):
		return m.retry()
	case keys.Matches(msg, km.CopyReply):
		return m.copyReply()
	case keys.Matches(msg, km.CopyCode):
		if n := keys.CodeBlockDigit(keys.Matched(msg, km.CopyCode)); n > 0 {
			return m.copyCode(n)
		}
		m.codePrefix = true
		return nil
	case keys.Matches(msg, km.Editor):
		return openEditor(m.opts.Getenv, m.comp.value())
	case keys.Matches(msg, km.ModelPicker):
		return m.openModelPicker(false)
	case keys.Matches(msg, km.ThemePicker):
		return m.openThemePicker()
	case keys.Matches(msg, km.NewConversation):
		return m.newConversationKey()
	case keys.Matches(msg, km.ToggleMouse):
		return m.toggleMouse()
	case keys.Matches(msg, km.Attach):
		return m.openFilePicker()
	case keys.Matches(msg, km.ImageForm):
		return m.openImageForm()
	case keys.Matches(msg, km.Images):
		return m.toggleImagePane()
	case keys.Matches(msg, km.Paste):
		return m.readClipboard()
	case keys.Matches(msg, km.Sessions):
		return m.openSessions()
	case keys.Matches(msg, km.Notices):
		return m.togglePane(&noticesPane{})
	case keys.Matches(msg, km.RemoveAttachment) || msg.Keystroke() == "backspace" && textEmpty && len(m.comp.attachments) > 0:
		return m.removeAttachment(-1)
	case msg.Text == "/" && textEmpty && !m.comp.editing:
		m.comp.setValue("/")
		m.composerChanged()
		return m.openMenu()
	}
	cmd := m.comp.update(msg)
	m.composerChanged()
	return cmd
}

// typeAheadWindow is how soon after start a key counts as typed ahead.
const typeAheadWindow = 500 * time.Millisecond

// typedAhead reports an Enter typed before parley took the terminal: the
// terminal, still in line mode, turned it into a line feed, which arrives
// as ctrl+j (a newline key). Enter always sends.
func (m *Model) typedAhead(msg tea.KeyPressMsg) bool {
	return msg.Keystroke() == "ctrl+j" && !m.enhanced && m.now().Sub(m.started) < typeAheadWindow
}

// helpKey: the help binding's printable keys ("?") only work while the
// composer is empty, its other keys (F1) always.
func (m *Model) helpKey(msg tea.KeyPressMsg, textEmpty bool) bool {
	k := keys.Matched(msg, m.keyMap().Help)
	return k != "" && (textEmpty || !keys.Printable(k))
}

// cancelKey is esc in the chat: stop the reply, else leave edit mode, else
// close a pane that took the transcript's place, else dismiss the notice
// and the banner.
func (m *Model) cancelKey() tea.Cmd {
	switch {
	case m.stream != nil:
		return m.stopStream()
	case m.imageRun != nil:
		return m.stopImages()
	case m.comp.editing:
		return m.leaveEdit()
	case m.pane != nil && m.lay.SideFull:
		m.pane = nil
		return nil
	case m.dismissNotice():
		return nil
	case m.dismissBanner():
		return nil
	case m.pendingSend:
		m.pendingSend = false
		return m.notify("not sent; your message stays in the composer", toastInfo)
	}
	return nil
}

// interrupt is ctrl+c: stop the reply when one streams (only that: a
// second ctrl+c to stop a reply must not end the program and lose the
// conversation); otherwise the first press arms quitting and a second
// within quitWindow quits.
func (m *Model) interrupt() tea.Cmd {
	if m.stream != nil {
		return m.stopStream()
	}
	if m.imageRun != nil {
		return m.stopImages()
	}
	now := m.now()
	if !m.quitArmed.IsZero() && now.Sub(m.quitArmed) <= quitWindow {
		return m.quit()
	}
	m.quitArmed = now
	return m.notify(fmt.Sprintf("press %s again to quit", firstKey(m.keyMap().Interrupt, "ctrl+c")), toastInfo)
}

// quit stops a reply in flight (kept as interrupted) and ends the program.
func (m *Model) quit() tea.Cmd {
	m.interruptStream()
	m.quitting = true
	return tea.Quit
}

func (m *Model) toggleMouse() tea.Cmd {
	m.mouse = !m.mouse
	if m.mouse {
		return m.notify("mouse wheel scrolls the transcript; hold shift to select text", toastInfo)
	}
	return m.notify("mouse released: the terminal selects text again", toastInfo)
}
