package config

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"time"

	"parley/internal/procgroup"
)

// Defaults of the tool loop.
const (
	DefaultMaxToolRounds       = 8
	DefaultToolTimeout         = 60 * time.Second
	DefaultToolResultMaxBytes  = 64 << 10
	DefaultToolTurnMaxBytes    = 256 << 10
	maxMCPServers              = 32
	mcpKeys                    = "name, command, args, env, url, headers, bearer_token_env, bearer_token_cmd"
	mcpTokenCmdTimeout         = 10 * time.Second
	toolSettingsMaxRoundsLimit = 100
)

// MCPServer is one [[mcp_servers]] entry: a local server parley starts
// (Command, Args, Env: no shell; its environment is parley's plus Env) or
// a remote one it reaches over streamable HTTP (URL, Headers, a bearer
// token from a variable or a command).
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
	// BearerTokenEnv names the variable holding the bearer token;
	// BearerTokenCmd is a command printing it (sh -c, 10 s limit), as
	// api_key_cmd.
	BearerTokenEnv, BearerTokenCmd string
	Line                           int

	getenv func(string) string
}

// ToolSettings are the tool loop's limits and the tools pre-approved.
type ToolSettings struct {
	// max_tool_rounds: how many times one turn may go back to the model
	// with tool results. Default DefaultMaxToolRounds.
	MaxRounds int
	// tool_timeout: the longest one call may take. Default
	// DefaultToolTimeout.
	Timeout time.Duration
	// tool_result_max_bytes and tool_turn_max_bytes: what one call's result
	// and all the results of one turn may carry to the model.
	ResultMaxBytes, TurnMaxBytes int64
	// allow: "server/tool" or "server/*" run without asking.
	Allow []string
}

func (l *loader) toolSettings(doc map[string]any) error {
	c := l.c
	t := &c.Tools
	t.MaxRounds, t.Timeout = DefaultMaxToolRounds, DefaultToolTimeout
	t.ResultMaxBytes, t.TurnMaxBytes = DefaultToolResultMaxBytes, DefaultToolTurnMaxBytes
	if v, err := l.intIn(doc, "", "max_tool_rounds", 1, toolSettingsMaxRoundsLimit); err != nil {
		return err
	} else if v != nil {
		t.MaxRounds = *v
	}
	if d, err := l.duration(doc, "tool_timeout"); err != nil {
		return err
	} else if d > 0 {
		t.Timeout = d
	}
	for _, b := range []struct {
		key string
		dst *int64
	}{{"tool_result_max_bytes", &t.ResultMaxBytes}, {"tool_turn_max_bytes", &t.TurnMaxBytes}} {
		n, err := l.byteSize(doc, b.key)
		if err != nil {
			return err
		}
		if n > 0 {
			*b.dst = n
		}
	}
	allow, _, err := l.strList(doc, "", "allow")
	if err != nil {
		return err
	}
	for _, a := range allow {
		server, tool, ok := strings.Cut(a, "/")
		if !ok || server == "" || tool == "" {
			return l.errAt("allow", `allow entry %q is not "server/tool" or "server/*"; write it like "filesystem/read_file"`, a)
		}
	}
	t.Allow = allow
	return nil
}

func (l *loader) mcpServers(doc map[string]any) error {
	entries, err := l.tables(doc, "mcp_servers")
	if err != nil {
		return err
	}
	if len(entries) > maxMCPServers {
		return l.errAt("mcp_servers", "%d [[mcp_servers]] are configured; parley runs at most %d", len(entries), maxMCPServers)
	}
	c := l.c
	for i, e := range entries {
		base := fmt.Sprintf("mcp_servers[%d]", i)
		l.unknownKeys(e, base, "in [[mcp_servers]]", strings.Split(mcpKeys, ", "))
		s := MCPServer{Line: l.pos.at(base).line, getenv: c.env.Getenv}
		for _, f := range []struct {
			key string
			dst *string
		}{{"name", &s.Name}, {"command", &s.Command}, {"url", &s.URL}, {"bearer_token_env", &s.BearerTokenEnv}, {"bearer_token_cmd", &s.BearerTokenCmd}} {
			if *f.dst, err = l.str(e, base, f.key); err != nil {
				return err
			}
		}
		if err := l.checkMCPServer(base, &s); err != nil {
			return err
		}
		if s.Args, _, err = l.strList(e, base, "args"); err != nil {
			return err
		}
		if s.Env, err = l.strTable(e, base, "env", s.Name); err != nil {
			return err
		}
		if s.Headers, err = l.strTable(e, base, "headers", s.Name); err != nil {
			return err
		}
		c.MCPServers = append(c.MCPServers, s)
	}
	return nil
}

func (l *loader) checkMCPServer(base string, s *MCPServer) error {
	name := strings.TrimSpace(s.Name)
	switch {
	case name == "":
		return l.errAt(base, `this [[mcp_servers]] entry has no name; add name = "..." (tools are shown and allowed as name/tool)`)
	case strings.ContainsAny(name, "/* \t") || strings.IndexFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0:
		return l.errAt(base+".name", "the MCP server name %q may not hold a slash, a star, spaces or control characters; use letters, digits, - and _", s.Name)
	case (s.Command == "") == (s.URL == ""):
		return l.errAt(base, "MCP server %q needs either command (a program parley starts) or url (a streamable HTTP server), not both or neither", name)
	}
	for _, prev := range l.c.MCPServers {
		if prev.Name == name {
			return l.errAt(base+".name", "an MCP server named %q is already defined on line %d; give each server its own name", name, prev.Line)
		}
	}
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return l.errAt(base+".url", "url %q of MCP server %q is not an http(s) URL; write it like https://mcp.example.com/mcp", s.URL, name)
		}
	}
	if s.BearerTokenEnv != "" && s.BearerTokenCmd != "" {
		l.warnAt(base+".bearer_token_env", "MCP server %q sets both bearer_token_cmd and bearer_token_env; bearer_token_cmd is used", name)
	}
	return nil
}

// strTable reads a table of strings such as env or headers.
func (l *loader) strTable(e map[string]any, base, key, server string) (map[string]string, error) {
	v, ok := e[key]
	if !ok {
		return nil, nil
	}
	tbl, ok := v.(map[string]any)
	if !ok {
		return nil, l.errAt(base+"."+key, `%s of MCP server %q must be a table like %s = { NAME = "value" }, not %s`, key, server, key, typeName(v))
	}
	out := make(map[string]string, len(tbl))
	for _, k := range slices.Sorted(maps.Keys(tbl)) {
		s, ok := tbl[k].(string)
		if !ok {
			return nil, l.errAt(base+"."+key, "%s %q of MCP server %q must be a string in quotes, not %s", key, k, server, typeName(tbl[k]))
		}
		out[k] = s
	}
	return out, nil
}

// MCPServer returns the server named name, or nil.
func (c *Config) MCPServer(name string) *MCPServer {
	for i := range c.MCPServers {
		if c.MCPServers[i].Name == name {
			return &c.MCPServers[i]
		}
	}
	return nil
}

// BearerToken resolves the token of a remote server: the first line
// bearer_token_cmd prints, else the variable bearer_token_env, else ""
// (no Authorization header). The error never holds the token.
func (s *MCPServer) BearerToken(ctx context.Context) (string, error) {
	switch {
	case s.BearerTokenCmd != "":
		return s.runTokenCmd(ctx)
	case s.BearerTokenEnv != "":
		getenv := s.getenv
		if getenv == nil {
			return "", fmt.Errorf("MCP server %q: the environment is not known to the config; set bearer_token_env again", s.Name)
		}
		tok := strings.TrimSpace(getenv(s.BearerTokenEnv))
		if tok == "" {
			return "", fmt.Errorf("MCP server %q: the environment variable %s (its bearer_token_env) is not set; export it or change bearer_token_env", s.Name, s.BearerTokenEnv)
		}
		return checkToken(s.Name, tok)
	}
	return "", nil
}

func (s *MCPServer) runTokenCmd(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, mcpTokenCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", s.BearerTokenCmd)
	out := &capWriter{max: maxKeyCmdOutput}
	cmd.Stdout = out
	cmd.WaitDelay = time.Second
	procgroup.Set(cmd)
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("MCP server %q: bearer_token_cmd did not finish within %v; run it yourself to check that it prints the token and exits", s.Name, mcpTokenCmdTimeout)
	case errors.Is(err, exec.ErrWaitDelay):
		procgroup.Kill(cmd)
		return "", fmt.Errorf("MCP server %q: bearer_token_cmd left a background process holding its output open, so parley stopped it; make the command exit without leaving processes behind", s.Name)
	case errors.As(err, &exitErr):
		return "", fmt.Errorf("MCP server %q: bearer_token_cmd failed (%v); run it yourself to see why", s.Name, exitErr.ProcessState)
	case err != nil:
		return "", fmt.Errorf("MCP server %q: bearer_token_cmd could not be run (%w); check that sh is installed", s.Name, err)
	}
	tok := firstLine(out.Bytes())
	if tok == "" {
		return "", fmt.Errorf("MCP server %q: bearer_token_cmd printed nothing; run it yourself to check that it prints the token", s.Name)
	}
	return checkToken(s.Name, tok)
}

func checkToken(server, tok string) (string, error) {
	if strings.IndexFunc(tok, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return "", fmt.Errorf("MCP server %q: the bearer token holds a control character, which no header can carry; check what it holds", server)
	}
	return tok, nil
}

// WithDefaults fills what is not set (a config made without a file).
func (t ToolSettings) WithDefaults() ToolSettings {
	if t.MaxRounds <= 0 {
		t.MaxRounds = DefaultMaxToolRounds
	}
	if t.Timeout <= 0 {
		t.Timeout = DefaultToolTimeout
	}
	if t.ResultMaxBytes <= 0 {
		t.ResultMaxBytes = DefaultToolResultMaxBytes
	}
	if t.TurnMaxBytes <= 0 {
		t.TurnMaxBytes = DefaultToolTurnMaxBytes
	}
	return t
}
