package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/overlay"
)

// themeLayer is the theme picker: moving the selection previews a theme at
// once, esc restores the one in use before the picker opened.
type themeLayer struct {
	p      overlay.Picker
	before string
}

func (l *themeLayer) name() string             { return "themes" }
func (l *themeLayer) full() bool               { return false }
func (l *themeLayer) setSize(w, h int)         { l.p.SetSize(w, h) }
func (l *themeLayer) draw() (string, int, int) { return l.p.Box() }
func (l *themeLayer) hints(km *keys.Map) []hintItem {
	return pickerHints(km)
}

func (l *themeLayer) update(msg tea.Msg) (tea.Cmd, effect) {
	var res overlay.PickerResult
	l.p, res = l.p.Update(msg)
	name := res.Item.Value
	switch res.Action {
	case overlay.PickerPreview:
		return nil, func(m *Model) tea.Cmd { return m.setTheme(name) }
	case overlay.PickerCancel:
		before := l.before
		return nil, func(m *Model) tea.Cmd {
			m.popLayer()
			return m.setTheme(before)
		}
	case overlay.PickerChoose:
		return nil, func(m *Model) tea.Cmd {
			m.popLayer()
			cmd := m.setTheme(name)
			return tea.Batch(cmd, m.notify("theme "+m.themeName, toastOK))
		}
	}
	return nil, nil
}

// openThemePicker lists "auto" and every theme.
func (m *Model) openThemePicker() tea.Cmd {
	m.pushLayer(&themeLayer{p: overlay.NewThemePicker(m.ctx, m.themes.Themes(), m.themeName), before: m.themeName})
	return nil
}

// pickerHints are the keys of a filtered list.
func pickerHints(km *keys.Map) []hintItem {
	return []hintItem{{"type", "filter"}, {keyOf(km.ListUp) + "/" + keyOf(km.ListDown), "move"}, {keyOf(km.Select), "choose"}, {keyOf(km.Close), "cancel"}}
}
