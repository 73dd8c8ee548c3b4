package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
	"parley/mcp"
)

// box is a Toolbox of tools answered in the test.
type box struct {
	mu    sync.Mutex
	calls []string
	reply func(name, args string) (mcp.Result, error)
}

func (b *box) Specs() []api.Tool {
	return []api.Tool{
		{Type: "function", Function: api.ToolFunction{Name: "get_weather", Description: "the weather", Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		{Type: "function", Function: api.ToolFunction{Name: "read_file", Parameters: []byte(`{"type":"object"}`)}},
	}
}

func (b *box) Lookup(name string) (mcp.Tool, bool) {
	switch name {
	case "get_weather":
		return mcp.Tool{Server: "wx", Name: "get_weather", Exposed: name}, true
	case "read_file":
		return mcp.Tool{Server: "fs", Name: "read_file", Exposed: name}, true
	}
	return mcp.Tool{}, false
}

func (b *box) Call(ctx context.Context, name, args string) (mcp.Result, error) {
	b.mu.Lock()
	b.calls = append(b.calls, name+" "+args)
	b.mu.Unlock()
	if b.reply != nil {
		return b.reply(name, args)
	}
	return mcp.Result{Text: "result of " + name + " " + args}, nil
}

func (b *box) made() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.calls...)
}

func toolEngine(t *testing.T, o ToolOptions) (*Engine, *apitest.Server, *box) {
	t.Helper()
	b := &box{}
	if o.Box == nil {
		o.Box = b
	}
	if o.MaxRounds == 0 {
		o.MaxRounds = 8
	}
	if o.TurnMaxBytes == 0 {
		o.TurnMaxBytes = 1 << 20
	}
	e, gw := newEngine(t, newClock(), Options{Tools: o})
	return e, gw, b
}

// runTurn runs a turn the way the chat does (a goroutine reads, the owner
// drains), answering each approval with answer.
func runTurn(t *testing.T, e *Engine, text string, answer func(ToolAsk) Approval) Ended {
	t.Helper()
	r, err := e.Begin(ask(text), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { r.Run(0); close(done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if a := e.Asking(); a != nil {
			if !e.Answer(answer(*a)) {
				t.Fatal("an answer found no call waiting")
			}
		}
		if end, over := e.Drain(); over {
			<-done
			return end
		}
		if time.Now().After(deadline) {
			t.Fatal("the turn did not end")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAToolCallRunsAndItsResultGoesBack(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{})
	gw.Enqueue(apitest.Reply{Text: "Let me look.", ToolCalls: []apitest.ToolCall{{ID: "call_w1", Name: "get_weather", Arguments: `{"city": "Oslo"}`}}, DeltaRunes: 3})
	gw.Enqueue(apitest.Reply{Text: "It is cold in Oslo."})
	var asked []ToolAsk
	end := runTurn(t, e, "weather?", func(a ToolAsk) Approval { asked = append(asked, a); return RunOnce })
	if end.Err != nil {
		t.Fatal(end.Err)
	}
	if len(asked) != 1 || asked[0].Call.Server != "wx" || asked[0].Call.Arguments != `{"city": "Oslo"}` {
		t.Fatalf("asked %+v", asked)
	}
	if got := b.made(); len(got) != 1 || got[0] != `get_weather {"city": "Oslo"}` {
		t.Fatalf("calls %v", got)
	}
	reqs := gw.Requests()
	if len(reqs) != 2 || len(reqs[0].Chat.Tools) != 2 || reqs[0].Chat.Tools[0].Function.Name != "get_weather" {
		t.Fatalf("%d requests; the first offered %+v", len(reqs), reqs[0].Chat.Tools)
	}
	msgs := reqs[1].Chat.Messages
	a, tool := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if a.Role != "assistant" || a.Content.Text != "Let me look." || len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "call_w1" || a.ToolCalls[0].Function.Arguments != `{"city": "Oslo"}` {
		t.Fatalf("the assistant's calls sent back: %+v", a)
	}
	if tool.Role != "tool" || tool.ToolCallID != "call_w1" || tool.Content.Text != `result of get_weather {"city": "Oslo"}` {
		t.Fatalf("the tool message: %+v", tool)
	}
	m := e.Conv().At(1)
	if m.State != conversation.StateDone || m.Text != "Let me look.It is cold in Oslo." || len(m.Tools) != 1 || m.Tools[0].At != len("Let me look.") {
		t.Fatalf("the reply kept: %v %q %+v", m.State, m.Text, m.Tools)
	}
	if c := m.Tools[0].Calls[0]; !c.Done || c.Result != `result of get_weather {"city": "Oslo"}` || c.Tool != "get_weather" {
		t.Fatalf("the call kept: %+v", c)
	}

	// The next turn sends the calls again, as they were.
	gw.Enqueue(apitest.Reply{Text: "Still cold."})
	if end := runTurn(t, e, "and now?", func(ToolAsk) Approval { return Deny }); end.Err != nil {
		t.Fatal(end.Err)
	}
	next := gw.Requests()[2].Chat.Messages
	var roles []string
	for _, m := range next {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, " ") != "user assistant tool assistant user" || next[1].ToolCalls[0].ID != "call_w1" || next[2].ToolCallID != "call_w1" || next[3].Content.Text != "It is cold in Oslo." {
		t.Fatalf("the next turn's history: %v %+v", roles, next)
	}
}

func TestADeniedCallSendsADenial(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{})
	gw.Enqueue(apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"/etc/shadow"}`}}})
	gw.Enqueue(apitest.Reply{Text: "I may not read it."})
	if end := runTurn(t, e, "read it", func(ToolAsk) Approval { return Deny }); end.Err != nil {
		t.Fatal(end.Err)
	}
	if got := b.made(); len(got) != 0 {
		t.Fatalf("a denied call ran: %v", got)
	}
	msgs := gw.Requests()[1].Chat.Messages
	tool := msgs[len(msgs)-1]
	if tool.ToolCallID != "c1" || tool.Content.Text != deniedText {
		t.Fatalf("the denial sent: %+v", tool)
	}
	if a := msgs[len(msgs)-2]; a.Content.Text != "" || a.ToolCalls == nil {
		t.Fatalf("an assistant turn of calls alone: %+v", a)
	}
	if c := e.Conv().At(1).Tools[0].Calls[0]; !c.Denied {
		t.Fatalf("the denied call kept %+v", c)
	}
}

func TestAlwaysAnswersAndTheAllowListSkipTheQuestion(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{Allow: []string{"fs/*"}})
	call := func(id, name string) apitest.Reply {
		return apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: id, Name: name, Arguments: `{}`}}}
	}
	gw.Enqueue(call("1", "read_file"), call("2", "get_weather"), call("3", "get_weather"), apitest.Reply{Text: "done"})
	var asked int
	if end := runTurn(t, e, "go", func(ToolAsk) Approval { asked++; return AlwaysTool }); end.Err != nil {
		t.Fatal(end.Err)
	}
	if asked != 1 || len(b.made()) != 3 {
		t.Fatalf("asked %d times for 3 calls (fs allowed, wx always after the first): %v", asked, b.made())
	}
}

func TestParallelCallsSplitAtEveryByteAreAssembled(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{Allow: []string{"wx/*", "fs/*"}})
	// Two calls whose pieces interleave, the arguments cut mid-character
	// (é) and the whole stream written one byte at a time.
	chunk := func(delta string) string {
		return `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	sse := chunk(`{"role":"assistant","content":""}`) +
		chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]}`) +
		chunk(`{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"read_file","arguments":"{\"pa"}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \"Montr"}}]}`) +
		chunk(`{"tool_calls":[{"index":1,"function":{"arguments":"th\": \"/tmp/x\"}"}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"éal\"}"}}]}`) +
		`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	gw.Enqueue(apitest.Reply{RawSSE: sse, WriteSize: 1}, apitest.Reply{Text: "both done"})
	if end := runTurn(t, e, "go", func(ToolAsk) Approval { return Deny }); end.Err != nil {
		t.Fatal(end.Err)
	}
	got := b.made()
	if len(got) != 2 || got[0] != `get_weather {"city": "Montréal"}` || got[1] != `read_file {"path": "/tmp/x"}` {
		t.Fatalf("calls %q", got)
	}
	msgs := gw.Requests()[1].Chat.Messages
	if n := len(msgs); msgs[n-2].ToolCallID != "call_a" || msgs[n-1].ToolCallID != "call_b" {
		t.Fatalf("results answer %q and %q", msgs[n-2].ToolCallID, msgs[n-1].ToolCallID)
	}
}

func TestAToolLoopThatNeverEndsIsStopped(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{MaxRounds: 3, Allow: []string{"wx/*"}})
	for i := range 6 {
		gw.Enqueue(apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: fmt.Sprint("c", i), Name: "get_weather", Arguments: `{}`}}})
	}
	end := runTurn(t, e, "loop", func(ToolAsk) Approval { return RunOnce })
	if !errors.Is(end.Err, ErrToolRounds) {
		t.Fatalf("a loop that never ends ended with %v", end.Err)
	}
	reqs := gw.Requests()
	if len(reqs) != 5 || len(b.made()) != 3 {
		t.Fatalf("%d requests and %d calls run; want 3 rounds of calls run, a fourth told the limit, and one request without tools", len(reqs), len(b.made()))
	}
	if len(reqs[3].Chat.Tools) == 0 || len(reqs[4].Chat.Tools) != 0 {
		t.Fatal("the last request still offered tools")
	}
	last := reqs[4].Chat.Messages
	if note := last[len(last)-1].Content.Text; !strings.Contains(note, "limit of 3 rounds of tool calls") {
		t.Fatalf("the model was not told of the limit: %q", note)
	}
	if m := e.Conv().At(1); m.State != conversation.StateFailed || len(m.Tools) != 4 {
		t.Fatalf("the stopped turn: %v with %d steps", m.State, len(m.Tools))
	}
}

func TestAGatewayRefusingToolsIsToldOnceAndTheTurnSentAgain(t *testing.T) {
	e, gw, _ := toolEngine(t, ToolOptions{})
	gw.Enqueue(apitest.Reply{Status: 400, ErrorMessage: "tools is not supported for this model", ErrorType: "invalid_request_error"})
	gw.Enqueue(apitest.Reply{Text: "plain answer"}, apitest.Reply{Text: "second"})
	end := runTurn(t, e, "hi", func(ToolAsk) Approval { return Deny })
	if end.Err != nil || !end.Reply.ToolsRefused {
		t.Fatalf("end %v, refused %v", end.Err, end.Reply.ToolsRefused)
	}
	reqs := gw.Requests()
	if len(reqs) != 2 || reqs[0].Chat.Tools == nil || reqs[1].Chat.Tools != nil {
		t.Fatalf("%d requests, tools %v then %v", len(reqs), reqs[0].Chat.Tools != nil, len(reqs) > 1 && reqs[1].Chat.Tools != nil)
	}
	if end := runTurn(t, e, "again", func(ToolAsk) Approval { return Deny }); end.Err != nil || end.Reply.ToolsRefused {
		t.Fatalf("the next turn: %v, refused again %v", end.Err, end.Reply.ToolsRefused)
	}
	if gw.Requests()[2].Chat.Tools != nil {
		t.Fatal("the next turn offered tools to the model that refused them")
	}
}

func TestAModelMarkedWithoutToolsGetsNone(t *testing.T) {
	e, gw, _ := toolEngine(t, ToolOptions{})
	gw.Enqueue(apitest.Reply{Text: "ok"})
	o := gpt4o
	o.Catalog = api.NewCatalog([]api.Model{{Name: "gpt-4o", Caps: api.Capabilities{NoTools: true, StreamUsage: true}}})
	r, err := e.Begin(ask("hi"), o)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(0)
	e.Drain()
	if gw.Requests()[0].Chat.Tools != nil || gw.Requests()[0].JSON["tools"] != nil {
		t.Fatal("a model marked without tools was offered tools")
	}
}

func TestResultsAreBoundedPerCallAndPerTurn(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{ResultMaxBytes: 1000, TurnMaxBytes: 1500, Allow: []string{"wx/*"}})
	b.reply = func(string, string) (mcp.Result, error) { return mcp.Result{Text: strings.Repeat("é", 5000)}, nil }
	gw.Enqueue(apitest.Reply{ToolCalls: []apitest.ToolCall{{ID: "a", Name: "get_weather"}, {ID: "b", Name: "get_weather"}, {ID: "c", Name: "get_weather"}}})
	gw.Enqueue(apitest.Reply{Text: "done"})
	if end := runTurn(t, e, "go", func(ToolAsk) Approval { return RunOnce }); end.Err != nil {
		t.Fatal(end.Err)
	}
	msgs := gw.Requests()[1].Chat.Messages
	a, bb, c := msgs[len(msgs)-3].Content.Text, msgs[len(msgs)-2].Content.Text, msgs[len(msgs)-1].Content.Text
	if !strings.HasPrefix(a, strings.Repeat("é", 500)+"\n[truncated: the result was 10 KB; parley sends at most 1.0 KB of one result") {
		t.Fatalf("the first result: %d bytes, ending %q", len(a), a[len(a)-120:])
	}
	if !strings.HasPrefix(bb, strings.Repeat("é", 250)+"\n[truncated") || !strings.Contains(bb, "tool_turn_max_bytes") {
		t.Fatalf("the second result: %.80q", bb)
	}
	if !strings.HasPrefix(c, "\n[truncated") {
		t.Fatalf("the third result: %.80q", c)
	}
	if kept := e.Conv().At(1).Tools[0].Calls[0]; kept.Bytes != 10000 {
		t.Fatalf("the kept call's size %d", kept.Bytes)
	}
}

func TestEscWhileAToolWaitsCancelsTheTurn(t *testing.T) {
	e, gw, b := toolEngine(t, ToolOptions{})
	gw.Enqueue(apitest.Reply{Text: "calling", ToolCalls: []apitest.ToolCall{{ID: "a", Name: "get_weather"}}})
	r, err := e.Begin(ask("go"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { r.Run(0); close(done) }()
	waitFor(t, "the approval", func() bool { return e.Asking() != nil })
	e.Drain()
	if !e.Stop() {
		t.Fatal("nothing to stop")
	}
	<-done
	if len(b.made()) != 0 {
		t.Fatal("a call ran after the stop")
	}
	if m := e.Conv().At(1); m.State != conversation.StateInterrupted || len(m.Tools) != 1 {
		t.Fatalf("the stopped reply: %v %+v", m.State, m.Tools)
	}
	// Its unanswered call goes to the next request as not run.
	gw.Enqueue(apitest.Reply{Text: "ok"})
	if end := runTurn(t, e, "next", func(ToolAsk) Approval { return Deny }); end.Err != nil {
		t.Fatal(end.Err)
	}
	msgs := gw.Requests()[1].Chat.Messages
	if msgs[2].Role != "tool" || msgs[2].Content.Text != conversation.NotRun {
		t.Fatalf("the unanswered call sent as %+v", msgs[2])
	}
}

// Complete (ask) runs the loop in its own goroutine, streamed or not,
// answering with ToolOptions.Approve.
func TestCompleteRunsTheLoopStreamedOrNot(t *testing.T) {
	for _, stream := range []bool{true, false} {
		var asked []string
		e, gw, b := toolEngine(t, ToolOptions{Allow: []string{"wx/*"}, Approve: func(a ToolAsk) Approval { asked = append(asked, a.Call.Name); return Deny }})
		gw.Enqueue(apitest.Reply{Text: "Checking. ", ToolCalls: []apitest.ToolCall{{ID: "a", Name: "get_weather", Arguments: `{}`}, {ID: "b", Name: "read_file", Arguments: `{}`}}},
			apitest.Reply{Text: "Done."})
		r, err := e.Begin(ask("go"), gpt4o)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		var told []string
		if _, err := e.Complete(t.Context(), r, stream, Handlers{Text: func(s string) { text.WriteString(s) }, Reasoning: func(string) {},
			Tool: func(c conversation.ToolCallMade) { told = append(told, c.Name) }}); err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
		if text.String() != "Checking. Done." || len(b.made()) != 1 || len(asked) != 1 || asked[0] != "read_file" || len(told) != 2 {
			t.Fatalf("stream %v: text %q, ran %v, asked %v, told %v", stream, text.String(), b.made(), asked, told)
		}
		reqs := gw.Requests()
		if reqs[1].Chat.Stream != stream || len(reqs[1].Chat.Messages) != 4 {
			t.Fatalf("stream %v: the second request %s", stream, reqs[1].Body)
		}
		if m := e.Conv().At(1); m.State != conversation.StateDone || m.Tools[0].Calls[1].Denied != true {
			t.Fatalf("stream %v: kept %v %+v", stream, m.State, m.Tools)
		}
	}
}
