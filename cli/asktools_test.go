package cli

import (
	"strconv"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/internal/mcptest"
)

// TestAskRunsTheToolLoopNonInteractively: ask --tools --allow-tool runs
// the allowed call against the real server-everything, denies the rest
// and says so on stderr, and prints the final answer alone on stdout.
func TestAskRunsTheToolLoopNonInteractively(t *testing.T) {
	s := mcptest.Need(t)
	h := newHarness(t)
	h.writeConfig(`default_model = "gpt-4o"

[[mcp_servers]]
name = "everything"
command = ` + strconv.Quote(s.Node) + `
args = [` + strconv.Quote(s.Everything) + `]
`)
	h.gw.Enqueue(
		apitest.Reply{ToolCalls: []apitest.ToolCall{
			{ID: "call_1", Name: "get-sum", Arguments: `{"a": 2, "b": 3}`},
			{ID: "call_2", Name: "echo", Arguments: `{"message": "hi"}`},
		}},
		apitest.Reply{Text: "2 + 3 = 5"},
	)
	r := h.run(nil, "ask", "--tools", "--allow-tool", "everything/get-sum", "--no-save", "what is 2 + 3?")
	r.mustCode(t, 0)
	if r.stdout != "2 + 3 = 5\n" {
		t.Fatalf("stdout %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "Called everything/get-sum") || !strings.Contains(r.stderr, "call of everything/echo was denied") {
		t.Fatalf("stderr %q", r.stderr)
	}
	reqs := h.gw.RequestsTo("/chat/completions")
	if len(reqs) != 2 || len(reqs[0].Chat.Tools) == 0 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Chat.Messages
	sum, echo := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if sum.ToolCallID != "call_1" || sum.Content.Text != "The sum of 2 and 3 is 5." {
		t.Fatalf("get-sum's result %+v", sum)
	}
	if echo.ToolCallID != "call_2" || !strings.Contains(echo.Content.Text, "denied") {
		t.Fatalf("the denied call's result %+v", echo)
	}
}

func TestAskToolFlagsAreChecked(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "ask", "-m", "gpt-4o", "--allow-tool", "a/b", "hi")
	r.mustCode(t, ExitUsage)
	if !strings.Contains(r.stderr, "--allow-tool needs --tools") {
		t.Fatalf("stderr %q", r.stderr)
	}
	r = h.run(nil, "ask", "-m", "gpt-4o", "--tools", "--allow-tool", "nope", "hi")
	r.mustCode(t, ExitUsage)
	if !strings.Contains(r.stderr, `"nope" is not SERVER/TOOL`) {
		t.Fatalf("stderr %q", r.stderr)
	}
	r = h.run(nil, "ask", "-m", "gpt-4o", "--tools", "hi")
	r.mustCode(t, ExitUsage)
	if !strings.Contains(r.stderr, "--tools needs MCP servers: add a [[mcp_servers]] entry") {
		t.Fatalf("stderr %q", r.stderr)
	}
	if len(h.gw.Requests()) != 0 {
		t.Fatal("a refused ask reached the gateway")
	}
}

func TestAskSaysWhichServerFailed(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(`default_model = "gpt-4o"

[[mcp_servers]]
name = "broken"
command = "/nonexistent/mcp-server"
`)
	h.gw.Enqueue(apitest.Reply{Text: "fine without"})
	r := h.run(nil, "ask", "--tools", "--no-save", "hi")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "The MCP server broken failed, so its tools are not offered: broken could not be started") || r.stdout != "fine without\n" {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	if reqs := h.gw.Requests(); reqs[0].Chat.Tools != nil {
		t.Fatal("tools were offered with none connected")
	}
}
