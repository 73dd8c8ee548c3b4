package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/internal/bytesize"
	"parley/mcp"
	"parley/termsafe"
)

// checkToolFlags refuses --allow-tool without --tools and a pattern that is
// not SERVER/TOOL or SERVER/*.
func checkToolFlags(f askFlags) error {
	if len(f.allowTools) > 0 && !f.tools {
		return usage(fmt.Errorf("--allow-tool needs --tools: add --tools to let the model call tools"))
	}
	for _, p := range f.allowTools {
		s, t, ok := strings.Cut(p, "/")
		if !ok || s == "" || t == "" {
			return usage(fmt.Errorf("--allow-tool %q is not SERVER/TOOL or SERVER/*; write it like --allow-tool filesystem/read_file", p))
		}
	}
	return nil
}

// askTools starts the config's MCP servers for `ask --tools`, waits for
// them to start (each within its time limit), says on stderr which failed,
// and returns the engine's tool options: calls the config's allow or
// --allow-tool pre-approve run, every other is denied and said on stderr
// (nobody can be asked). The caller closes the manager.
func (a *app) askTools(ctx context.Context, cfg *config.Config, f askFlags) (chat.ToolOptions, *mcp.Manager, error) {
	if !f.tools {
		return chat.ToolOptions{}, nil, nil
	}
	if len(cfg.MCPServers) == 0 {
		return chat.ToolOptions{}, nil, usage(fmt.Errorf("--tools needs MCP servers: add a [[mcp_servers]] entry to %s (see \"parley help config\")", cfg.Path))
	}
	limits := cfg.Tools.WithDefaults()
	m := a.startServers(ctx, cfg)
	for _, st := range m.Settle(ctx) {
		if st.State == mcp.Failed {
			a.console.say(fmt.Sprintf("the MCP server %s failed, so its tools are not offered: %s", st.Name, st.Err))
		}
	}
	allow := append(append([]string(nil), limits.Allow...), f.allowTools...)
	return chat.ToolOptions{
		Box: m, MaxRounds: limits.MaxRounds, Allow: allow,
		ResultMaxBytes: int(limits.ResultMaxBytes), TurnMaxBytes: int(limits.TurnMaxBytes),
		Approve: func(ask chat.ToolAsk) chat.Approval {
			a.console.say(fmt.Sprintf("the model's call of %s/%s was denied: parley ask runs only the tools allowed by allow in the config or --allow-tool", termsafe.Line(ask.Call.Server), termsafe.Line(ask.Call.Tool)))
			return chat.Deny
		},
	}, m, nil
}

// toolLine is what ask says on stderr of each call that ran.
func toolLine(c conversation.ToolCallMade) string {
	if c.Denied {
		return ""
	}
	what := termsafe.Line(c.Name)
	if c.Server != "" {
		what = termsafe.Line(c.Server) + "/" + termsafe.Line(c.Tool)
	}
	status := "called"
	if c.IsError {
		status = "called (it failed)"
	}
	return fmt.Sprintf("%s %s (%s, %s)", status, what, conversation.ThoughtText(c.Took), bytesize.Format(int64(c.Bytes)))
}

// startServers starts the config's MCP servers in the background, with
// parley's environment and the call time limit of the config.
func (a *app) startServers(ctx context.Context, cfg *config.Config) *mcp.Manager {
	environ := a.env.Environ
	if environ == nil {
		environ = os.Environ
	}
	m := mcp.New(ctx, mcp.Options{Servers: cfg.MCPServers, Environ: environ(), CallTimeout: cfg.Tools.WithDefaults().Timeout})
	m.Start()
	return m
}
