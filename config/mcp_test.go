package config

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestMCPServersAndToolSettings(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"SEARCH_TOKEN": "tok123"})
	writeConfig(t, env, `
allow = ["fs/read_file", "search/*"]
max_tool_rounds = 3
tool_timeout = "5s"
tool_result_max_bytes = "8KB"

[[mcp_servers]]
name = "fs"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
env = { LOG = "warn" }

[[mcp_servers]]
name = "search"
url = "https://mcp.example.com/mcp"
headers = { "X-Team" = "docs" }
bearer_token_env = "SEARCH_TOKEN"

[[models]]
name = "tiny"
tools = false
`, 0o600)
	c := mustLoad(t, env)
	if len(c.MCPServers) != 2 || c.MCPServers[0].Command != "npx" || len(c.MCPServers[0].Args) != 3 || c.MCPServers[0].Env["LOG"] != "warn" {
		t.Fatalf("servers %+v", c.MCPServers)
	}
	s := c.MCPServer("search")
	if s == nil || s.URL != "https://mcp.example.com/mcp" || s.Headers["X-Team"] != "docs" {
		t.Fatalf("search %+v", s)
	}
	if tok, err := s.BearerToken(context.Background()); err != nil || tok != "tok123" {
		t.Fatalf("token %q %v", tok, err)
	}
	tl := c.Tools
	if tl.MaxRounds != 3 || tl.Timeout != 5*time.Second || tl.ResultMaxBytes != 8000 || tl.TurnMaxBytes != DefaultToolTurnMaxBytes || len(tl.Allow) != 2 {
		t.Fatalf("tool settings %+v", tl)
	}
	if !c.Models[0].Capabilities().NoTools {
		t.Fatal("tools = false did not mark the model")
	}
	if d := (ToolSettings{}).WithDefaults(); d.MaxRounds != 8 || d.Timeout != time.Minute {
		t.Fatalf("defaults %+v", d)
	}
}

func TestMCPServerMistakesAreOneSentenceWithTheLine(t *testing.T) {
	for body, want := range map[string]string{
		"[[mcp_servers]]\ncommand = \"x\"\n":                                                               "this [[mcp_servers]] entry has no name",
		"[[mcp_servers]]\nname = \"a/b\"\ncommand = \"x\"\n":                                               "may not hold a slash",
		"[[mcp_servers]]\nname = \"a\"\n":                                                                  "needs either command",
		"[[mcp_servers]]\nname = \"a\"\ncommand = \"x\"\nurl = \"https://h/\"\n":                           "not both or neither",
		"[[mcp_servers]]\nname = \"a\"\nurl = \"ftp://h/\"\n":                                              "is not an http(s) URL",
		"[[mcp_servers]]\nname = \"a\"\ncommand = \"x\"\n[[mcp_servers]]\nname = \"a\"\ncommand = \"y\"\n": "already defined on line 1",
		"[[mcp_servers]]\nname = \"a\"\ncommand = \"x\"\nenv = { A = 1 }\n":                                `env "A" of MCP server "a" must be a string`,
		"allow = [\"justatool\"]\n":                                                                        `allow entry "justatool" is not "server/tool"`,
		"max_tool_rounds = 0\n":                                                                            "max_tool_rounds = 0 is out of range",
	} {
		env, _ := testEnv(t, nil)
		writeConfig(t, env, body, 0o600)
		_, err := Load(env)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "config.toml:") {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

func TestABearerTokenCommandIsBounded(t *testing.T) {
	s := MCPServer{Name: "x", BearerTokenCmd: "printf 'tok\\033'"}
	if _, err := s.BearerToken(context.Background()); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("a token with an escape: %v", err)
	}
	s = MCPServer{Name: "x", BearerTokenCmd: "exit 3"}
	if _, err := s.BearerToken(context.Background()); err == nil || !strings.Contains(err.Error(), "bearer_token_cmd failed") {
		t.Fatalf("a failing command: %v", err)
	}
	s = MCPServer{Name: "x", BearerTokenEnv: "NOPE", getenv: func(string) string { return "" }}
	if _, err := s.BearerToken(context.Background()); err == nil || !strings.Contains(err.Error(), "NOPE (its bearer_token_env) is not set") {
		t.Fatalf("an unset variable: %v", err)
	}
}
