package lineedit

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/uictx"
)

// View draws the input in exactly its width (SetWidth): the prompt, then
// the text scrolled so the cursor shows, or the placeholder. A View that
// follows no change returns the string it returned before.
func (m Model) View() string {
	if m.width <= 0 {
		return ""
	}
	k := viewKey{rev: m.rev, gen: m.ctx.StyleGen, ok: true}
	if m.sh.key == k {
		return m.sh.view
	}
	ti := m.ti
	if m.gen != m.ctx.StyleGen {
		ti.SetStyles(styles(m.ctx)) // a copy: View changes nothing
	}
	out := cells.Fit(ti.View(), m.width)
	m.sh.key, m.sh.view = k, out
	return out
}

// styles are textinput's styles made from the theme: the filter style for
// the prompt, the text style for the text, muted for the placeholder, and
// a steady block cursor (a blinking one would redraw the screen twice a
// second) in the accent colour, or reversed when there is no colour.
func styles(ctx *uictx.Context) textinput.Styles {
	st := &ctx.Styles
	var s textinput.Styles
	s.Focused = textinput.StyleState{
		Prompt:      st.PickerFilter.Bold(true),
		Text:        st.Text,
		Placeholder: st.Muted,
		Suggestion:  st.Muted,
	}
	s.Blurred = textinput.StyleState{
		Prompt:      st.Muted,
		Text:        st.Text,
		Placeholder: st.Muted,
		Suggestion:  st.Muted,
	}
	s.Cursor = textinput.CursorStyle{Color: lipgloss.NoColor{}, Shape: tea.CursorBlock}
	if !ctx.NoColor && !st.NoColor && ctx.Theme.Accent != "" {
		s.Cursor.Color = lipgloss.Color(string(ctx.Theme.Accent))
	}
	return s
}
