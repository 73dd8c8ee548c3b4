package ui

import (
	"os"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/internal/mcptest"
	"parley/mcp"
	"parley/ui/toolsui"
)

func TestMain(m *testing.M) {
	mcptest.Serve()
	os.Exit(m.Run())
}

// fakeServers are this test binary run as a fake MCP server ("fake").
func fakeServers(t *testing.T) *mcp.Manager {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mg := mcp.New(t.Context(), mcp.Options{Environ: os.Environ(), Servers: []config.MCPServer{
		{Name: "fake", Command: exe, Env: map[string]string{mcptest.ServeEnv: "serve"}},
	}})
	mg.Start()
	t.Cleanup(mg.Close)
	if st := mg.Settle(t.Context()); st[0].State != mcp.Connected {
		t.Fatalf("the fake server: %+v", st[0])
	}
	return mg
}

func withServers(mg *mcp.Manager) harnessOpt { return func(o *Options) { o.MCP = mg } }

// A call waits on the approval prompt, which shows the tool, its server
// and its arguments made safe; y runs it, the answer shows, and the call
// is one folded line that ctrl+t unfolds to its arguments and result.
func TestAToolCallIsApprovedShownAndUnfolded(t *testing.T) {
	h := newHarness(t, 100, 40, withServers(fakeServers(t)))
	h.srv.Enqueue(
		apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: "c1", Name: "echo", Arguments: `{"text": "hi \u001b[31mred"}`}}},
		apitest.Reply{Text: "The echo said hi."},
	)
	h.typeText("echo something")
	h.key("enter")
	h.wait("the approval prompt", func() bool { return h.m.layerName() == "tool approval" })
	scr := h.screen()
	for _, want := range []string{"Run a tool?", "tool    echo", "server  fake", `"text": "hi`, "y run once", "n deny"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the prompt lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(h.m.View().Content, "\x1b[31m") {
		t.Fatal("the model's escape sequence reached the screen")
	}
	h.key("y")
	h.wait("the answer", func() bool { return !h.streaming() })
	h.quiet()
	scr = h.screen()
	if !strings.Contains(scr, "▸ echo · fake · ") || !strings.Contains(scr, "The echo said hi.") || strings.Contains(scr, "result:") {
		t.Fatalf("the folded call and the answer:\n%s", scr)
	}
	reqs := h.srv.RequestsTo("/chat/completions")
	last := reqs[len(reqs)-1].Chat.Messages
	if tool := last[len(last)-1]; tool.ToolCallID != "c1" || !strings.HasPrefix(tool.Content.Text, "echo: hi ") {
		t.Fatalf("the result sent back: %+v", tool)
	}
	h.key("ctrl+t")
	h.quiet()
	if scr = h.screen(); !strings.Contains(scr, "▾ echo · fake") || !strings.Contains(scr, "result:") || !strings.Contains(scr, "echo: hi") {
		t.Fatalf("ctrl+t did not unfold the call:\n%s", scr)
	}
}

// askedToRunEcho starts a chat whose model calls the fake server's echo
// tool (call c1) and answers "Fine, I will not." after it, and returns
// once the approval prompt shows.
func askedToRunEcho(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, 100, 40, withServers(fakeServers(t)))
	h.srv.Enqueue(
		apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: "c1", Name: "echo", Arguments: `{}`}}},
		apitest.Reply{Text: "Fine, I will not."},
	)
	h.typeText("go")
	h.key("enter")
	h.wait("the approval prompt", func() bool { return h.m.layerName() == "tool approval" })
	return h
}

// n denies: the model is told, the prompt closes, and the chat goes on.
func TestADeniedCallTellsTheModel(t *testing.T) {
	h := askedToRunEcho(t)
	h.key("n")
	h.wait("the answer", func() bool { return !h.streaming() })
	h.quiet()
	if scr := h.screen(); !strings.Contains(scr, "▸ echo · fake · denied") || !strings.Contains(scr, "Fine, I will not.") {
		t.Fatalf("after a denial:\n%s", scr)
	}
	reqs := h.srv.RequestsTo("/chat/completions")
	last := reqs[len(reqs)-1].Chat.Messages
	if !strings.Contains(last[len(last)-1].Content.Text, "denied") {
		t.Fatalf("the denial sent: %+v", last[len(last)-1])
	}
}

// /tools lists the servers with their state and tools; /tools restart
// NAME restarts one, and a server that dies is a one-sentence notice.
func TestSlashToolsListsAndRestarts(t *testing.T) {
	mg := fakeServers(t)
	h := newHarness(t, 100, 40, withServers(mg))
	h.typeText("/tools")
	h.key("enter")
	h.quiet()
	scr := h.screen()
	for _, want := range []string{"Tools", "fake  connected · 6 tools", "echo", "the fake's hang", "r restart it"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("/tools lacks %q:\n%s", want, scr)
		}
	}
	h.key("esc")
	// The server dies in a call; the chat says so in a sentence.
	h.srv.Enqueue(apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: "c1", Name: "die", Arguments: `{}`}}}, apitest.Reply{Text: "It broke."})
	h.typeText("die")
	h.key("enter")
	h.wait("the approval prompt", func() bool { return h.m.layerName() == "tool approval" })
	h.key("y")
	h.wait("the notice", func() bool {
		return strings.Contains(h.m.View().Content, "MCP server fake stopped: the server exited (exit status 3)")
	})
	h.wait("the answer", func() bool { return !h.streaming() })
	h.typeText("/tools restart fake")
	h.key("enter")
	// The chat hears the manager's change (waitServers) and says so.
	h.wait("the restarted server", func() bool {
		return mg.Status()[0].State == mcp.Connected && strings.Contains(h.screen(), "MCP server fake is connected")
	})
}

// The prompt's answer names the call it was shown for: an answer to a
// call that no longer waits goes nowhere, and the call that waits is
// asked about on the next frame.
func TestAnAnswerToAnotherCallDoesNotRunTheOneWaiting(t *testing.T) {
	h := askedToRunEcho(t)
	// A prompt for a call that went away is on top (its frame has not
	// yet been replaced): y there must not run c1.
	stale := toolsui.NewApproval(h.m.ctx, chat.ToolAsk{Call: conversation.ToolCallMade{ID: "gone", Name: "echo", Server: "fake", Tool: "echo"}})
	h.m.layers.push(layer{Component: stale, kind: "tool approval"})
	h.send(struct{}{})
	h.key("y")
	if ask := h.eng.Asking(); ask == nil || ask.Call.ID != "c1" {
		t.Fatalf("the answer to another call reached the one waiting: asking %+v", ask)
	}
	h.wait("the prompt for c1 again", func() bool {
		a, ok := topIs[*toolsui.Approval](&h.m.layers)
		return ok && a.Ask().Call.ID == "c1"
	})
	h.key("n")
	h.wait("the answer", func() bool { return !h.streaming() })
	h.quiet()
	if scr := h.screen(); !strings.Contains(scr, "▸ echo · fake · denied") || !strings.Contains(scr, "Fine, I will not.") {
		t.Fatalf("after the denial:\n%s", scr)
	}
}

// r in /tools restarts the selected server: the list shows it starting
// at once, then connected again.
func TestToolsListRestartsTheSelectedServer(t *testing.T) {
	mg := fakeServers(t)
	h := newHarness(t, 100, 40, withServers(mg))
	h.typeText("/tools")
	h.key("enter")
	h.quiet()
	if !strings.Contains(h.screen(), "fake  connected · 6 tools") {
		t.Fatalf("/tools:\n%s", h.screen())
	}
	h.key("r")
	if scr := h.screen(); h.m.layerName() != "tools" || strings.Contains(scr, "fake  connected") {
		t.Fatalf("after r the list still shows the server as it was (top %q):\n%s", h.m.layerName(), scr)
	}
	h.wait("the restarted server", func() bool {
		return mg.Status()[0].State == mcp.Connected && strings.Contains(h.screen(), "fake  connected · 6 tools")
	})
	h.key("esc")
	if h.m.layerName() != "" {
		t.Fatalf("esc left %q open", h.m.layerName())
	}
}

// The prompt takes every key while a call waits: an app key neither
// closes it nor acts in the chat behind it.
func TestThePromptKeepsTheAppKeys(t *testing.T) {
	h := askedToRunEcho(t)
	for _, k := range []string{"f4", "f1", "ctrl+o"} {
		h.key(k)
		if h.m.layerName() != "tool approval" || h.m.pane != nil {
			t.Fatalf("%s left the prompt: top %q, pane %v", k, h.m.layerName(), h.m.pane)
		}
	}
	h.key("n")
	h.wait("the answer", func() bool { return !h.streaming() })
}
