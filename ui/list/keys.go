package list

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// Update moves the cursor on the list keys: the key map's list_up and
// list_down (and the arrows, whatever the config says), pgup/pgdown,
// home/end, and the mouse wheel. handled is false for any other message,
// which the caller may give to a filter or act on itself.
func (m *Model[T]) Update(msg tea.Msg) (handled bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		km := &m.ctx.Keys
		switch {
		case m.matches(msg, km.ListUp, "up"):
			m.Move(-1)
		case m.matches(msg, km.ListDown, "down"):
			m.Move(1)
		case m.matches(msg, key.Binding{}, "pgup"):
			m.Move(-m.PageSize())
		case m.matches(msg, key.Binding{}, "pgdown"):
			m.Move(m.PageSize())
		case m.matches(msg, key.Binding{}, "home"):
			m.SetCursor(0)
		case m.matches(msg, key.Binding{}, "end"):
			m.SetCursor(len(m.rows) - 1)
		default:
			return false
		}
		return true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.Move(-1)
		case tea.MouseWheelDown:
			m.Move(1)
		default:
			return false
		}
		return true
	}
	return false
}

// matches reports whether the press is one of always or triggers b. With
// Options.Typing, b's printable keys are skipped: they type into the
// filter.
func (m Model[T]) matches(msg tea.KeyPressMsg, b key.Binding, always ...string) bool {
	ks := msg.Keystroke()
	for _, k := range always {
		if ks == k {
			return true
		}
	}
	if !b.Enabled() {
		return false
	}
	s := msg.String()
	for _, k := range b.Keys() {
		if m.opts.Typing && keys.Printable(k) {
			continue
		}
		if k == ks || k == s {
			return true
		}
	}
	return false
}
