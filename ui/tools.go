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
// for it (followToolAsk), whose answer handleResult gives the engine
// (answerTool); /tools lists the MCP servers (Options.MCP, started by the
// command line before the chat, in the background), and each change of a
// server's state is a notice.

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
	top, open := topIs[*toolsui.Approval](layers)
	switch {
	case ask != nil && (!open || top.Ask().Call.ID != ask.Call.ID):
		a := toolsui.NewApproval(ctx, *ask)
		a.SetSize(ctx.Width, ctx.Height)
		layers.push(layer{Component: a, kind: "tool approval"})
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
	if l, open := topIs[*toolsui.List](layers); open && mg != nil {
		l.SetStatus(mg.Status())
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
		l := toolsui.NewList(ctx, st)
		l.SetSize(ctx.Width, ctx.Height)
		layers.push(layer{Component: l, kind: "tools"})
		return "", toastInfo
	case argv[0] == "restart" && len(argv) == 2 && mg != nil:
		if err := mg.Restart(argv[1]); err != nil {
			return err.Error(), toastErr
		}
		return "restarting MCP server " + argv[1], toastInfo
	case argv[0] == "restart" && len(argv) == 2:
		return "no MCP servers are configured: add [[mcp_servers]] to the config", toastErr
	}
	return "/tools takes nothing, or restart and a server's name: /tools restart " + strings.Join(serverNames(mg), "|"), toastErr
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

// answerTool gives the engine the user's answer to the call the prompt
// showed, and closes the prompt. An answer to a call that no longer
// waits (the reply stopped, or a frame has not yet shown the next call)
// goes nowhere: the next frame shows the call that waits.
func answerTool(r toolsui.ApprovalAnswer, eng *chat.Engine, layers *layerStack) {
	if ask := eng.Asking(); ask != nil && ask.Call.ID == r.Call {
		eng.Answer(r.Answer)
	}
	layers.pop()
}

// toolsListed acts on what the /tools list asked: closes it, or restarts
// the server chosen and shows the servers as they are now. It returns
// why a restart failed ("" when it did not).
func toolsListed(r toolsui.ListResult, mg *mcp.Manager, layers *layerStack) string {
	if r.Action == toolsui.ListClose {
		layers.pop()
		return ""
	}
	if mg == nil {
		return ""
	}
	err := mg.Restart(r.Server)
	if l, open := topIs[*toolsui.List](layers); open {
		l.SetStatus(mg.Status())
	}
	if err != nil {
		return err.Error()
	}
	return ""
}
