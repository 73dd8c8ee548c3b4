package api

import (
	"fmt"
	"slices"
	"strconv"

	"parley/internal/bytesize"
)

// Bounds of the tool calls of one reply: a model (or a gateway) that sends
// more is refused rather than followed.
const (
	MaxToolCallsPerReply = 64
	MaxToolCallBytes     = 1 << 20 // names, ids and arguments of one reply's calls together
)

// ToolCallAssembler puts streamed tool-call pieces together by their
// index: the pieces of one call may arrive split anywhere, the calls of one
// reply interleaved. The zero value is ready to use.
type ToolCallAssembler struct {
	calls []assembling
	bytes int
}

type assembling struct {
	index int
	call  ToolCall
}

// ToolCallsError is a reply whose tool calls passed a bound.
type ToolCallsError struct{ Msg string }

func (e *ToolCallsError) Error() string { return e.Msg }

// Add takes the pieces of one event. It fails, keeping what it had, when
// the reply asks for too many calls or sends too many bytes of them.
func (a *ToolCallAssembler) Add(d *ToolCallDeltas) error {
	if d == nil {
		return nil
	}
	for _, p := range d.Calls {
		a.bytes += len(p.ID) + len(p.Function.Name) + len(p.Function.Arguments)
		if a.bytes > MaxToolCallBytes {
			return &ToolCallsError{Msg: fmt.Sprintf("the model's tool calls passed %s in one reply, so they were not run", bytesize.Format(MaxToolCallBytes))}
		}
		c := a.at(p.Index)
		if c == nil {
			if len(a.calls) == MaxToolCallsPerReply {
				return &ToolCallsError{Msg: fmt.Sprintf("the model asked for more than %d tool calls in one reply, so none was run", MaxToolCallsPerReply)}
			}
			a.calls = append(a.calls, assembling{index: p.Index})
			c = &a.calls[len(a.calls)-1].call
		}
		if c.ID == "" {
			c.ID = p.ID
		}
		if c.Type == "" {
			c.Type = p.Type
		}
		// The name comes whole in its first piece; some gateways repeat
		// it in every piece, a few split it.
		if n := p.Function.Name; n != "" && n != c.Function.Name {
			c.Function.Name += n
		}
		c.Function.Arguments += p.Function.Arguments
	}
	return nil
}

func (a *ToolCallAssembler) at(index int) *ToolCall {
	for i := range a.calls {
		if a.calls[i].index == index {
			return &a.calls[i].call
		}
	}
	return nil
}

// Len is how many calls have begun.
func (a *ToolCallAssembler) Len() int { return len(a.calls) }

// Calls are the calls in the order of their index. A call that came
// without an id gets one ("call_" and its index) so its result can name it;
// the type is always "function".
func (a *ToolCallAssembler) Calls() []ToolCall {
	sorted := slices.Clone(a.calls)
	slices.SortStableFunc(sorted, func(x, y assembling) int { return x.index - y.index })
	out := make([]ToolCall, len(sorted))
	for i, c := range sorted {
		out[i] = c.call
		if out[i].ID == "" {
			out[i].ID = "call_" + strconv.Itoa(c.index)
		}
		out[i].Type = ToolTypeFunction
	}
	return out
}
