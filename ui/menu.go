package ui

import tea "charm.land/bubbletea/v2"

// TEMPORARY until ui/slash lands (not to be committed as is).
func (m *Model) menuOpen() bool                          { return false }
func (m *Model) menuKey(tea.KeyPressMsg) (tea.Cmd, bool) { return nil, false }
func (m *Model) menuHints() []hintItem                   { return nil }
func (m *Model) menuView(w, h int) string                { return "" }
func (m *Model) menuLines() int                          { return 0 }
func (m *Model) openMenu()                               {}
func (m *Model) syncMenu()                               {}
