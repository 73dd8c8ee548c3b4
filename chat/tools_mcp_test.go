package chat

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/config"
	"parley/internal/mcptest"
	"parley/mcp"
)

// TestTheReferenceServersThroughTheToolLoop runs the tool loop against the
// real reference servers from npm: get-sum's own answer goes back to the
// model under the call's id, a denied call sends a denial, and the
// filesystem server refuses a file outside its folder in its own words.
func TestTheReferenceServersThroughTheToolLoop(t *testing.T) {
	s := mcptest.Need(t)
	allowed := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("top secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := mcp.New(t.Context(), mcp.Options{Environ: os.Environ(), Servers: []config.MCPServer{
		{Name: "everything", Command: s.Node, Args: []string{s.Everything}},
		{Name: "filesystem", Command: s.Node, Args: []string{s.Filesystem, allowed}},
	}})
	m.Start()
	t.Cleanup(m.Close)
	deadline := time.Now().Add(60 * time.Second)
	for len(m.Tools()) == 0 || m.Status()[0].State != mcp.Connected || m.Status()[1].State != mcp.Connected {
		if time.Now().After(deadline) {
			t.Fatalf("the servers did not connect: %+v", m.Status())
		}
		time.Sleep(20 * time.Millisecond)
	}
	e, gw := newEngine(t, newClock(), Options{Tools: ToolOptions{Box: m, MaxRounds: 8, TurnMaxBytes: 1 << 20}})
	gw.Enqueue(
		apitest.Reply{ToolCalls: []apitest.ToolCall{
			{ID: "call_sum", Name: "get-sum", Arguments: `{"a": 2, "b": 3}`},
			{ID: "call_read", Name: "read_text_file", Arguments: `{"path": ` + strconv.Quote(outside) + `}`},
		}, DeltaRunes: 2},
		apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: "call_read2", Name: "read_text_file", Arguments: `{"path": ` + strconv.Quote(outside) + `}`}}},
		apitest.Reply{Text: "2 + 3 is 5, and that file is out of reach."},
	)
	answers := map[string]Approval{"call_sum": RunOnce, "call_read": Deny, "call_read2": RunOnce}
	end := runTurn(t, e, "add 2 and 3, then read the secret", func(a ToolAsk) Approval { return answers[a.Call.ID] })
	if end.Err != nil {
		t.Fatal(end.Err)
	}
	reqs := gw.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := reqs[1].Chat.Messages
	sum, denied := first[len(first)-2], first[len(first)-1]
	if sum.Role != "tool" || sum.ToolCallID != "call_sum" || sum.Content.Text != "The sum of 2 and 3 is 5." {
		t.Fatalf("get-sum's result sent back: %+v", sum)
	}
	if denied.ToolCallID != "call_read" || denied.Content.Text != deniedText {
		t.Fatalf("the denied call sent back: %+v", denied)
	}
	second := reqs[2].Chat.Messages
	read := second[len(second)-1]
	if read.ToolCallID != "call_read2" || !strings.Contains(read.Content.Text, "Access denied - path outside allowed directories") || strings.Contains(read.Content.Text, "top secret") {
		t.Fatalf("reading outside the allowed folder: %+v", read)
	}
	msg := e.Conv().At(1)
	if msg.Text != "2 + 3 is 5, and that file is out of reach." || !msg.Tools[1].Calls[0].IsError || msg.Tools[0].Calls[0].Server != "everything" {
		t.Fatalf("the reply kept: %q %+v", msg.Text, msg.Tools)
	}
}
