package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// setupLayer is the first-run screen: it explains the settings, probes for
// local servers and offers to use (and save) one. It takes the whole screen
// and draws its own key hints.
type setupLayer struct {
	s    overlay.Setup
	w, h int
}

func (l *setupLayer) ownsQuit() bool   { return true }
func (l *setupLayer) SetSize(w, h int) { l.w, l.h = w, h; l.s.SetSize(w, h) }
func (l *setupLayer) Draw() (string, int, int) {
	return cells.Block(strings.Split(l.s.View(), "\n"), l.w, l.h), 0, 0
}
func (l *setupLayer) Hints() []uictx.Hint { return nil }

func (l *setupLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	var res overlay.SetupResult
	var cmd tea.Cmd
	l.s, res, cmd = l.s.Update(msg)
	switch res.Action {
	case overlay.SetupQuit:
		return cmd, quitApp{}
	case overlay.SetupUse:
		return cmd, serverChosen{setup: res}
	}
	return cmd, nil
}

// start begins the loopback probes.
func (l *setupLayer) start() tea.Cmd {
	var cmd tea.Cmd
	l.s, cmd = l.s.Start()
	return cmd
}
