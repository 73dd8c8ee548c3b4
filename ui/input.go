package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// key routes a key press: the keys that work everywhere first (quit, and
// ctrl+c as stop/quit), then the open overlay, then the chat's actions, and
// what is left to the composer.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	km := m.keyMap()
	switch {
	case keys.Matches(msg, km.Quit) && m.openKind != openSetup:
		return m.quit()
	case keys.Matches(msg, km.Interrupt) && m.openKind != openSetup:
		return m.interrupt()
	}
	if m.openKind != openNone {
		return m.routeOverlay(msg)
	}

	if m.codePrefix {
		m.codePrefix = false
		m.renderHint()
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
	case keys.Matches(msg, km.Send):
		return m.send()
	case keys.Matches(msg, km.EditLast) && empty && m.stream == nil && m.conv.Len() > 0:
		return m.editLast()
	case m.helpKey(msg, textEmpty):
		return m.openHelp()
	case keys.Matches(msg, km.ScrollUp):
		m.tr.PageUp()
		m.renderStatus()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.ScrollDown):
		m.tr.PageDown()
		m.renderStatus()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.ScrollTop) && textEmpty:
		m.tr.Top()
		m.renderStatus()
		return m.tickIfNeeded()
	case keys.Matches(msg, km.ScrollBottom) && textEmpty:
		m.tr.Bottom()
		m.renderStatus()
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
		m.renderHint()
		return nil
	case keys.Matches(msg, km.Editor):
		return openEditor(m.opts.Getenv, m.comp.value())
	case keys.Matches(msg, km.ModelPicker):
		return m.openModelPicker()
	case keys.Matches(msg, km.ThemePicker):
		return m.openThemePicker()
	case keys.Matches(msg, km.NewConversation):
		return m.newConversationKey()
	case keys.Matches(msg, km.ToggleMouse):
		return m.toggleMouse()
	case msg.Keystroke() == "backspace" && textEmpty && len(m.comp.attachments) > 0:
		a := m.comp.attachments[len(m.comp.attachments)-1]
		m.comp.attachments = m.comp.attachments[:len(m.comp.attachments)-1]
		m.composerChanged()
		return m.showToast(fmt.Sprintf("removed %s", a.Name), toastInfo)
	}
	cmd := m.comp.update(msg)
	m.composerChanged()
	return cmd
}

// helpKey: the help binding's printable keys ("?") only work while the
// composer is empty, its other keys (F1) always.
func (m *Model) helpKey(msg tea.KeyPressMsg, textEmpty bool) bool {
	k := keys.Matched(msg, m.keyMap().Help)
	return k != "" && (textEmpty || !keys.Printable(k))
}

// cancelKey is esc in the chat: stop the reply, else leave edit mode, else
// dismiss the banner and the toast.
func (m *Model) cancelKey() tea.Cmd {
	switch {
	case m.stream != nil:
		return m.stopStream()
	case m.comp.editing:
		return m.leaveEdit()
	case len(m.banner) > 0:
		m.dismissBanner()
		return nil
	}
	m.clearToast()
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
	now := m.now()
	if !m.quitArmed.IsZero() && now.Sub(m.quitArmed) <= quitWindow {
		return m.quit()
	}
	m.quitArmed = now
	return m.showToast(fmt.Sprintf("press %s again to quit", firstKey(m.keyMap().Interrupt, "ctrl+c")), toastInfo)
}

// quit stops a reply in flight (kept as interrupted) and ends the program.
func (m *Model) quit() tea.Cmd {
	if m.stream != nil {
		_ = m.interruptStream() // kept as interrupted; the recorder has it
	}
	m.quitting = true
	return tea.Quit
}

func (m *Model) toggleMouse() tea.Cmd {
	m.mouse = !m.mouse
	if m.mouse {
		return m.showToast("mouse wheel scrolls the transcript; hold shift to select text", toastInfo)
	}
	return m.showToast("mouse released: the terminal selects text again", toastInfo)
}
