package ui

import (
	"charm.land/bubbles/v2/key"

	"parley/ui/overlay"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// newHelp shows the keys of the key map and every slash command of the
// action table (cmds, in its order), so the help cannot miss one.
func newHelp(ctx *uictx.Context, cmds []slash.Command[commandEnv]) *overlay.Help {
	h := overlay.NewHelp(ctx, ctx.Keys.Groups())
	bs := make([]key.Binding, 0, len(cmds))
	for _, c := range cmds {
		bs = append(bs, overlay.CommandBinding(c.Name, c.Args, c.Summary))
	}
	h.SetCommands(bs)
	return &h
}
