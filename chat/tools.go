package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"parley/api"
	"parley/conversation"
	"parley/mcp"
)

// Toolbox is what the engine runs tools through; *mcp.Manager is one.
type Toolbox interface {
	Specs() []api.Tool
	Lookup(name string) (mcp.Tool, bool)
	Call(ctx context.Context, name, args string) (mcp.Result, error)
}

// Approval is the answer to a call waiting to run.
type Approval int

// The answers a call may get.
const (
	Deny         Approval = iota // the model is told the user denied it
	RunOnce                      // this call runs
	AlwaysTool                   // this and every later call of the tool this session
	AlwaysServer                 // every call of the server's tools this session
)

// ToolAsk is a call waiting for the user's answer.
type ToolAsk struct {
	Call       conversation.ToolCallMade
	Index, Of  int // the call's place among the reply's calls (from 0)
	Round, Max int // the round of tool calls (from 1) and max_tool_rounds
}

// ToolOptions configure the tool loop. Without a Box, or with a Box that
// offers no tools, a turn sends no tools.
type ToolOptions struct {
	Box Toolbox
	// MaxRounds is how many times one turn may run tool calls and go back
	// to the model (max_tool_rounds).
	MaxRounds int
	// ResultMaxBytes and TurnMaxBytes bound what one result and all the
	// results of a turn carry to the model; over them a result is cut
	// with a note the model reads.
	ResultMaxBytes, TurnMaxBytes int
	// Allow pre-approves "server/tool" and "server/*".
	Allow []string
	// Approve answers a call not pre-approved (ask's rule: deny). nil
	// leaves it to the caller of Engine.Answer (the chat's approval
	// prompt).
	Approve func(ToolAsk) Approval
}

// ErrToolRounds ends a turn whose model went on calling tools past
// max_tool_rounds and one more reply without tools.
var ErrToolRounds = errors.New("the model went on calling tools after this turn's limit of tool rounds (max_tool_rounds), so the turn was stopped")

// toolGate is the engine's side of approvals: the allowed patterns, the
// session's "always" answers and the models that refused tools. It is
// shared with the reply's goroutine, so it locks.
type toolGate struct {
	mu      sync.Mutex
	allow   []string
	noTools map[string]bool
}

func (g *toolGate) allowed(server, tool string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, a := range g.allow {
		s, t, _ := strings.Cut(a, "/")
		if s == server && (t == "*" || t == tool) {
			return true
		}
	}
	return false
}

func (g *toolGate) remember(a Approval, server, tool string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch a {
	case AlwaysTool:
		g.allow = append(g.allow, server+"/"+tool)
	case AlwaysServer:
		g.allow = append(g.allow, server+"/*")
	}
}

func (g *toolGate) refused(model string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.noTools[model]
}

func (g *toolGate) refuse(model string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.noTools == nil {
		g.noTools = map[string]bool{}
	}
	g.noTools[model] = true
}

// toolSink is where a turn's rounds report: the stream's events, the
// calls, their results, and the approvals they need.
type toolSink interface {
	Sink
	Calls(calls []conversation.ToolCallMade) int
	Result(step, i int, call conversation.ToolCallMade)
	Refused()
	Approve(ctx context.Context, ask ToolAsk) (Approval, error)
}

// toolsFor are the tools a turn to model offers: none without a box, for
// a model marked without tools, or one that refused them.
func (e *Engine) toolsFor(model string, caps api.Capabilities) []api.Tool {
	t := e.opts.Tools
	if t.Box == nil || caps.NoTools || e.gate.refused(model) {
		return nil
	}
	return t.Box.Specs()
}

// rounds runs a turn: a reply, and while it calls tools, the calls and
// another reply with their results, up to MaxRounds rounds of calls. A
// model that calls tools once more is told the limit (its calls are not
// run) and gets one last request without tools; calling them even then
// ends the turn with ErrToolRounds.
func (e *Engine) rounds(ctx context.Context, r *Reply, sink toolSink, gap time.Duration) error {
	req := r.Turn.Chat
	// Clipped, not copied: a round of tool calls appends to a new array,
	// never into the turn's, and a long session's request (10,000
	// messages, about 1 MB) is not held twice while it streams.
	req.Messages = slices.Clip(req.Messages)
	req.Tools = r.tools
	limit := max(e.opts.Tools.MaxRounds, 1)
	budget := e.opts.Tools.TurnMaxBytes
	for round := 1; ; round++ {
		rs := &roundSink{Sink: sink, keepText: req.Tools != nil}
		err := readRound(ctx, r.client, req, rs, gap)
		if err != nil && req.Tools != nil && refusesTools(err) && !rs.any {
			e.gate.refuse(r.Model)
			sink.Refused()
			req.Tools = nil
			round--
			continue
		}
		if err == nil && rs.err != nil {
			err = rs.err
		}
		if err != nil || rs.calls.Len() == 0 {
			return err
		}
		if req.Tools == nil && round <= limit {
			return nil // calls of tools never offered: the reply is what it said
		}
		if round > limit+1 {
			return ErrToolRounds
		}
		calls := made(rs.calls.Calls(), e.opts.Tools.Box)
		step := sink.Calls(slices.Clone(calls))
		for i := range calls {
			note := ""
			if round > limit {
				note = fmt.Sprintf("The call was not run: this turn reached its limit of %d rounds of tool calls (max_tool_rounds). Answer with what you have.", limit)
			}
			c, err := e.runCall(ctx, sink, ToolAsk{Call: calls[i], Index: i, Of: len(calls), Round: round, Max: limit}, note, &budget)
			if err != nil {
				return err
			}
			calls[i] = c
			sink.Result(step, i, c)
		}
		req.Messages = append(req.Messages, conversation.StepMessages(rs.text.String(), conversation.ToolStep{Calls: done(calls)})...)
		if round > limit {
			req.Tools = nil // one last reply, with what it has
		}
	}
}

// done marks every call as answered, as the request sends it.
func done(calls []conversation.ToolCallMade) []conversation.ToolCallMade {
	out := append([]conversation.ToolCallMade(nil), calls...)
	for i := range out {
		out[i].Done = true
	}
	return out
}

// made names each call's server and tool.
func made(calls []api.ToolCall, box Toolbox) []conversation.ToolCallMade {
	out := make([]conversation.ToolCallMade, len(calls))
	for i, c := range calls {
		out[i] = conversation.ToolCallMade{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
		if box != nil {
			if t, ok := box.Lookup(c.Function.Name); ok {
				out[i].Server, out[i].Tool = t.Server, t.Name
			}
		}
	}
	return out
}

// refusesTools tells a gateway's refusal of the tools parameter.
func refusesTools(err error) bool {
	var ae *api.APIError
	if !errors.As(err, &ae) || (ae.StatusCode != 400 && ae.StatusCode != 422) {
		return false
	}
	msg := strings.ToLower(ae.Param + " " + ae.Message)
	return strings.Contains(msg, "tool") || strings.Contains(msg, "function")
}

// roundSink passes a round's events on, without their tool-call pieces,
// and keeps the pieces, the round's text, and whether anything came.
type roundSink struct {
	Sink
	calls api.ToolCallAssembler
	text  strings.Builder
	any   bool
	err   error
	// keepText: the round offered tools, so its text may go back as the
	// assistant's part of a step (kept only then: a reply without tools
	// is not held twice).
	keepText bool
}

func (s *roundSink) Event(ev api.StreamEvent) {
	s.any = true
	if ev.ToolCalls != nil && s.err == nil {
		s.err = s.calls.Add(ev.ToolCalls)
	}
	ev.ToolCalls = nil
	if s.calls.Len() > 0 {
		ev.FinishReason = "" // the turn goes on with the calls' results
	}
	if s.keepText {
		s.text.WriteString(ev.Text)
	}
	s.Sink.Event(ev)
}

// readRound reads one reply: streamed, or with gap < 0 as one response
// (the usage and finish reason only when it succeeded).
func readRound(ctx context.Context, client *api.Client, req api.ChatRequest, sink Sink, gap time.Duration) error {
	if gap >= 0 {
		return read(ctx, client, req, sink, gap)
	}
	req.StreamOptions = nil
	resp, err := client.Chat(ctx, req)
	if resp == nil {
		return err
	}
	ev := api.StreamEvent{Text: resp.Text(), Reasoning: resp.Reasoning()}
	if len(resp.Choices) > 0 {
		ev.ToolCalls = api.ToolDeltasOf(resp.Choices[0].Message.ToolCalls)
	}
	if err == nil {
		if len(resp.Choices) > 0 {
			ev.FinishReason = resp.Choices[0].FinishReason
		}
		ev.Usage = resp.Usage
	}
	sink.Event(ev)
	for _, img := range resp.ReplyImages() {
		sink.Event(api.StreamEvent{Image: &img})
	}
	return err
}
