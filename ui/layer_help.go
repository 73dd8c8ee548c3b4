package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// helpLayer is the key help over the transcript.
type helpLayer struct {
	h  overlay.Help
	km *keys.Map
}

// newHelpLayer shows the keys of the key map and every slash command of
// the action table (cmds, in its order), so the help cannot miss one.
func newHelpLayer(ctx *uictx.Context, cmds []slash.Command[commandEnv]) *helpLayer {
	h := overlay.NewHelp(ctx, ctx.Keys.Groups())
	bs := make([]key.Binding, 0, len(cmds))
	for _, c := range cmds {
		bs = append(bs, overlay.CommandBinding(c.Name, c.Args, c.Summary))
	}
	h.SetCommands(bs)
	return &helpLayer{h: h, km: &ctx.Keys}
}

func (l *helpLayer) SetSize(w, h int)         { l.h.SetSize(w, h) }
func (l *helpLayer) Draw() (string, int, int) { return l.h.Box() }

func (l *helpLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	var closed bool
	l.h, closed = l.h.Update(msg)
	if closed {
		return nil, closeLayer{}
	}
	return nil, nil
}

func (l *helpLayer) Hints() []uictx.Hint {
	return []uictx.Hint{{Key: keyOf(l.km.Close), Desc: "close"}, {Key: "pgup/pgdn", Desc: "scroll"}}
}

// keysChanged shows the key map the terminal's keyboard support made.
func (l *helpLayer) keysChanged(km keys.Map) { l.h.SetGroups(km.Groups()) }
