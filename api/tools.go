package api

import "encoding/json"

// RoleTool is the role of a message that carries a tool's result back to
// the model, answering one tool call by its id.
const RoleTool = "tool"

// ToolTypeFunction is the only kind of tool the chat-completions interface
// defines.
const ToolTypeFunction = "function"

// FinishToolCalls is the finish reason of a reply that stopped to have its
// tool calls run.
const FinishToolCalls = "tool_calls"

// Tool is one tool offered to the model in a request's tools.
type Tool struct {
	Type     string       `json:"type"`
	Function ToolFunction `json:"function"`
}

// ToolFunction describes a tool: its name, what it does and the JSON schema
// of its arguments.
type ToolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is one call the model made: an assistant message carries them,
// and the tool message answering it names its ID.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the tool a call names and its arguments, a JSON text as
// the model wrote it (it may not be valid JSON).
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolCallDelta is a piece of a streamed tool call: the first piece of a
// call names its index, id and function name, the later ones add pieces of
// its arguments under the same index.
type ToolCallDelta struct {
	Index    int    `json:"index"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments,omitempty"`
	} `json:"function"`
}

// ToolCallDeltas are the tool-call pieces of one stream event. It is a
// pointer in StreamEvent so that events stay comparable.
type ToolCallDeltas struct {
	Calls []ToolCallDelta
}

// size is the bytes the pieces carry, which a stream does not count as
// noise.
func (d *ToolCallDeltas) size() int {
	if d == nil {
		return 0
	}
	n := 0
	for _, c := range d.Calls {
		n += len(c.ID) + len(c.Function.Name) + len(c.Function.Arguments)
	}
	return n
}

// deltasOf turns the calls of a whole (not streamed) reply into the pieces
// a stream would have carried, one piece per call.
func deltasOf(calls []ToolCall) *ToolCallDeltas {
	if len(calls) == 0 {
		return nil
	}
	d := &ToolCallDeltas{Calls: make([]ToolCallDelta, len(calls))}
	for i, c := range calls {
		d.Calls[i].Index = i
		d.Calls[i].ID = c.ID
		d.Calls[i].Type = c.Type
		d.Calls[i].Function.Name = c.Function.Name
		d.Calls[i].Function.Arguments = c.Function.Arguments
	}
	return d
}

// ToolDeltasOf is deltasOf for callers outside the package (a reply read
// whole).
func ToolDeltasOf(calls []ToolCall) *ToolCallDeltas { return deltasOf(calls) }

// MarshalJSON writes the content of an assistant message that only called
// tools as null, as the interface does; any other message as its fields.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message // without this method
	if m.Content.Parts != nil || m.Content.Text != "" || len(m.ToolCalls) == 0 {
		return json.Marshal(plain(m))
	}
	return json.Marshal(struct {
		Role       string     `json:"role"`
		Content    *string    `json:"content"`
		ToolCalls  []ToolCall `json:"tool_calls"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}{Role: m.Role, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID})
}
