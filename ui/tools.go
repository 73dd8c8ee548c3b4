package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/chat"
	"parley/config"
	"parley/mcp"
	"parley/ui/toolsui"
	"parley/ui/uictx"
)

// The chat's glue to the tool loop: the engine runs the rounds and waits
// on Engine.Asking for an answer; the frame tick opens the approval prompt
// for it (toolFrame), /tools lists the MCP servers (Options.MCP, started
// by the command line before the chat, in the background), and each
// change of a server's state is a notice.

// toolOptions are the engine's tool options from the config and the
// servers (none without servers).
func toolOptions(o Options) chat.ToolOptions {
	if o.MCP == nil || !o.MCP.Configured() {
		return chat.ToolOptions{}
	}
	var t config.ToolSettings
	if o.Config != nil {
		t = o.Config.Tools
	}
	t = t.WithDefaults()
	return chat.ToolOptions{Box: o.MCP, MaxRounds: t.MaxRounds, Allow: t.Allow,
		ResultMaxBytes: int(t.ResultMaxBytes), TurnMaxBytes: int(t.TurnMaxBytes)}
}

// followToolAsk follows the tool loop on a frame: the prompt opens for a
// call waiting for an answer (and closes when the call no longer waits,
// the reply stopped). It returns the notice to give, once, when the
// gateway refused tools ("" for none).
func followToolAsk(eng *chat.Engine, layers *layerStack, ctx *uictx.Context) string {
	ask := eng.Asking()
	top, open := topIs[*approvalLayer](layers)
	switch {
	case ask != nil && (!open || top.p.Ask().Call.ID != ask.Call.ID):
		l := &approvalLayer{p: toolsui.NewApproval(ctx, *ask), answer: eng.Answer}
		l.SetSize(ctx.Width, ctx.Height)
		layers.push(layer{Component: l, kind: "tool approval"})
	case ask == nil && open:
		layers.pop()
	}
	if eng.ToolsRefusedNow() {
		return "this model does not take tools, so the message was sent again without them"
	}
	return ""
}

// serverChanged is a change of an MCP server's state.
type serverChanged struct{ mcp.Change }

// waitServers waits for the next change of a server's state.
func waitServers(mg *mcp.Manager) tea.Cmd {
	if mg == nil || !mg.Configured() {
		return nil
	}
	return func() tea.Msg {
		select {
		case ch := <-mg.Changes():
			return serverChanged{ch}
		case <-mg.Done():
			return nil // the chat ended: nothing more to tell
		}
	}
}

// serverNotice words a change of a server's state: a failure as a
// warning in one sentence (the chat goes on without the server's tools), a
// connection as information. An open /tools list shows the change.
func serverNotice(ch serverChanged, mg *mcp.Manager, layers *layerStack) (string, toastKind) {
	if l, open := topIs[*toolsLayer](layers); open && mg != nil {
		l.l.SetStatus(mg.Status())
	}
	switch ch.State {
	case mcp.Failed:
		return "MCP server " + ch.Err + "; the chat goes on without its tools (/tools restart " + ch.Server + " tries again)", toastWarn
	case mcp.Connected:
		return "MCP server " + ch.Server + " is connected", toastInfo
	}
	return "", toastInfo
}

// toolsCommand opens the list, or restarts the server named, and
// returns the notice to give ("" for none).
func toolsCommand(argv []string, mg *mcp.Manager, layers *layerStack, ctx *uictx.Context) (string, toastKind) {
	switch {
	case len(argv) == 0:
		var st []mcp.Status
		if mg != nil {
			st = mg.Status()
		}
		l := &toolsLayer{l: toolsui.NewList(ctx, st), mg: mg}
		l.SetSize(ctx.Width, ctx.Height)
		layers.push(layer{Component: l, kind: "tools"})
		return "", toastInfo
	case argv[0] == "restart" && len(argv) == 2 && mg != nil:
		if err := mg.Restart(argv[1]); err != nil {
			return err.Error(), toastWarn
		}
		return "restarting MCP server " + argv[1], toastInfo
	case argv[0] == "restart" && len(argv) == 2:
		return "no MCP servers are configured: add [[mcp_servers]] to the config", toastWarn
	}
	return "/tools takes nothing, or restart and a server's name: /tools restart " + strings.Join(serverNames(mg), "|"), toastWarn
}

func serverNames(mg *mcp.Manager) []string {
	var out []string
	if mg != nil {
		for _, s := range mg.Status() {
			out = append(out, s.Name)
		}
	}
	if len(out) == 0 {
		out = []string{"NAME"}
	}
	return out
}

// approvalLayer is the prompt a tool call waits on; its answer goes to
// the engine (Engine.Answer, safe from any goroutine).
type approvalLayer struct {
	p      *toolsui.Approval
	answer func(chat.Approval) bool
}

func (l *approvalLayer) SetSize(w, h int)             { l.p.SetSize(w, h) }
func (l *approvalLayer) Draw() (string, int, int)     { return l.p.Box() }
func (l *approvalLayer) Hints() []uictx.Hint          { return l.p.Hints() }
func (l *approvalLayer) binds(k tea.KeyPressMsg) bool { return l.p.Binds(k) }

func (l *approvalLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	a, ok := l.p.Update(msg)
	if !ok {
		return nil, nil
	}
	l.answer(a)
	return nil, closeLayer{}
}

// toolsLayer is /tools.
type toolsLayer struct {
	l  *toolsui.List
	mg *mcp.Manager
}

func (l *toolsLayer) SetSize(w, h int)         { l.l.SetSize(w, h) }
func (l *toolsLayer) Draw() (string, int, int) { return l.l.Box() }
func (l *toolsLayer) Hints() []uictx.Hint      { return l.l.Hints() }

func (l *toolsLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	switch l.l.Update(msg) {
	case toolsui.ListClose:
		return nil, closeLayer{}
	case toolsui.ListRestart:
		if l.mg != nil {
			_ = l.mg.Restart(l.l.Selected())
		}
	}
	if l.mg != nil {
		l.l.SetStatus(l.mg.Status())
	}
	return nil, nil
}
