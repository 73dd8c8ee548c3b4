package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// helpLayer is the key help over the transcript.
type helpLayer struct {
	h  overlay.Help
	km *keys.Map
}

func newHelpLayer(ctx *uictx.Context) *helpLayer {
	return &helpLayer{h: overlay.NewHelp(ctx, ctx.Keys.Groups()), km: &ctx.Keys}
}

func (l *helpLayer) name() string             { return "help" }
func (l *helpLayer) full() bool               { return false }
func (l *helpLayer) setSize(w, h int)         { l.h.SetSize(w, h) }
func (l *helpLayer) draw() (string, int, int) { return l.h.Box() }

func (l *helpLayer) update(msg tea.Msg) (tea.Cmd, result) {
	var closed bool
	l.h, closed = l.h.Update(msg)
	if closed {
		return nil, closeLayer{}
	}
	return nil, nil
}

func (l *helpLayer) hints() []uictx.Hint {
	return []uictx.Hint{{Key: keyOf(l.km.Close), Desc: "close"}, {Key: "pgup/pgdn", Desc: "scroll"}}
}

// keysChanged shows the key map the terminal's keyboard support made.
func (l *helpLayer) keysChanged(km keys.Map) { l.h.SetGroups(km.Groups()) }
