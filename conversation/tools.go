package conversation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"parley/api"
)

// ToolStep is one round of tool calls inside a reply: the model wrote the
// reply's text up to At (a byte offset into Message.Text), then called
// these tools, and went on with their results. A reply keeps its steps so
// that the next request sends the calls and results again, in order, and
// the transcript shows each call where it happened.
type ToolStep struct {
	At    int            `json:"at"`
	Calls []ToolCallMade `json:"calls"`
}

// ToolCallMade is one call and what came of it.
type ToolCallMade struct {
	ID        string `json:"id"`   // the model's id for the call; the result names it
	Name      string `json:"name"` // the name the model used
	Server    string `json:"server,omitempty"`
	Tool      string `json:"tool,omitempty"` // the server's name for it
	Arguments string `json:"arguments"`
	// Result is what the model was sent back (after the size bounds),
	// Done once there is one.
	Result  string `json:"result,omitempty"`
	Done    bool   `json:"done,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	Denied  bool   `json:"denied,omitempty"`
	// Bytes is the size of the whole result before any truncation.
	Bytes int           `json:"bytes,omitempty"`
	Took  time.Duration `json:"took,omitempty"`
	// Images are the pictures of the result, shown like attachments and
	// never sent to the model (a tool message carries text).
	Images []api.Attachment `json:"images,omitempty"`
}

// NotRun is the result a call that never ran is sent back with (a reply
// stopped before it).
const NotRun = "The call was not run: the reply was stopped before it."

func cloneSteps(steps []ToolStep) []ToolStep {
	if steps == nil {
		return nil
	}
	out := slices.Clone(steps)
	for i := range out {
		out[i].Calls = slices.Clone(out[i].Calls)
		for j := range out[i].Calls {
			out[i].Calls[j].Images = slices.Clone(out[i].Calls[j].Images)
		}
	}
	return out
}

// StepMessages are the messages one step adds to a request: the
// assistant's text before the calls with the calls, then one tool message
// per call with its result.
func StepMessages(text string, step ToolStep) []api.Message {
	out := make([]api.Message, 0, 1+len(step.Calls))
	a := api.Message{Role: api.RoleAssistant, Content: api.Content{Text: text}}
	for _, c := range step.Calls {
		a.ToolCalls = append(a.ToolCalls, api.ToolCall{ID: c.ID, Type: api.ToolTypeFunction, Function: api.FunctionCall{Name: c.Name, Arguments: c.Arguments}})
	}
	out = append(out, a)
	for _, c := range step.Calls {
		result := c.Result
		if !c.Done {
			result = NotRun
		}
		out = append(out, api.Message{Role: api.RoleTool, ToolCallID: c.ID, Content: api.Content{Text: result}})
	}
	return out
}

// appendReply adds a reply that called tools to a request: each step's
// text and calls and results, then the text after the last step.
func appendReply(msgs []api.Message, m *Message) []api.Message {
	from := 0
	for _, s := range m.Tools {
		at := min(max(s.At, from), len(m.Text))
		msgs = append(msgs, StepMessages(m.Text[from:at], s)...)
		from = at
	}
	if rest := m.Text[from:]; rest != "" {
		msgs = append(msgs, api.TextMessage(api.RoleAssistant, rest))
	}
	return msgs
}

// AddToolCalls records a step of calls in the reply t streams into, at the
// end of its text so far, and returns the step's index.
func (c *Conversation) AddToolCalls(t *Turn, calls []ToolCallMade) (int, error) {
	n := c.tree.node(t.ReplyID)
	if n == nil || n.msg.State != StateStreaming {
		return 0, fmt.Errorf("add tool calls to reply %d: it is not streaming", t.ReplyID)
	}
	n.edit(func(m *Message) {
		// Clipped: the old message's steps stay as they were.
		m.Tools = append(slices.Clip(m.Tools), ToolStep{At: len(m.Text), Calls: slices.Clone(calls)})
		m.Version++
	})
	c.emitNode(ChangeTools, n)
	return len(n.msg.Tools) - 1, nil
}

// SetToolResult records what came of call i of step s of the reply t
// streams into.
func (c *Conversation) SetToolResult(t *Turn, s, i int, call ToolCallMade) error {
	n := c.tree.node(t.ReplyID)
	if n == nil || n.msg.State != StateStreaming || s >= len(n.msg.Tools) || i >= len(n.msg.Tools[s].Calls) {
		return fmt.Errorf("set a tool result of reply %d: no such call", t.ReplyID)
	}
	call.Done = true
	n.edit(func(m *Message) {
		m.Tools = cloneSteps(m.Tools)
		m.Tools[s].Calls[i] = call
		m.Version++
	})
	c.emitNode(ChangeTools, n)
	return nil
}

// WithTools is the message's text with its tool calls where they came,
// each with its arguments and result, as the message cursor copies it.
func (m Message) WithTools() string {
	if len(m.Tools) == 0 {
		return m.Text
	}
	var b strings.Builder
	from := 0
	for _, s := range m.Tools {
		at := min(max(s.At, from), len(m.Text))
		b.WriteString(m.Text[from:at])
		from = at
		for _, c := range s.Calls {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "[tool call %s", c.Name)
			if c.Server != "" {
				fmt.Fprintf(&b, " of %s", c.Server)
			}
			fmt.Fprintf(&b, "]\narguments: %s\n", c.Arguments)
			switch {
			case c.Denied:
				b.WriteString("denied\n")
			case c.Done:
				fmt.Fprintf(&b, "result:\n%s\n", strings.TrimRight(c.Result, "\n"))
			default:
				b.WriteString("not run\n")
			}
		}
	}
	b.WriteString(m.Text[from:])
	return b.String()
}
