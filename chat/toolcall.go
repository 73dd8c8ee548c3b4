package chat

import (
	"context"
	"crypto/sha256"
	"fmt"
	"unicode/utf8"

	"parley/api"
	"parley/conversation"
	"parley/internal/bytesize"
	"parley/mcp"
	"parley/media"
)

// Texts the model reads in a result parley wrote.
const (
	deniedText  = "The user denied this tool call. Do not try it again unless the user asks."
	unknownTool = "There is no tool named %q. Use only the tools offered."
)

// runCall answers one call: asks for it unless it is pre-approved, runs
// it, and bounds its result. An error ends the turn (it was cancelled).
func (e *Engine) runCall(ctx context.Context, sink toolSink, ask ToolAsk, note string, budget *int) (conversation.ToolCallMade, error) {
	c := ask.Call
	switch {
	case note != "":
		c.Result, c.IsError = note, true
		return c, nil
	case c.Server == "":
		c.Result, c.IsError = fmt.Sprintf(unknownTool, c.Name), true
		return c, nil
	}
	if !e.gate.allowed(c.Server, c.Tool) {
		a, err := e.approve(ctx, sink, ask)
		if err != nil {
			return c, err
		}
		if a == Deny {
			c.Result, c.Denied = deniedText, true
			return c, nil
		}
		e.gate.remember(a, c.Server, c.Tool)
	}
	start := e.opts.Now()
	res, err := e.opts.Tools.Box.Call(ctx, c.Name, c.Arguments)
	c.Took = e.opts.Now().Sub(start)
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	if err != nil {
		c.Result, c.IsError = "Error: "+err.Error(), true
		c.Bytes = len(c.Result)
		return c, nil
	}
	c.IsError = res.IsError
	c.Bytes = len(res.Text)
	c.Result = bound(res.Text, e.opts.Tools.ResultMaxBytes, budget)
	c.Images = pictures(res.Images)
	return c, nil
}

// approve asks the caller's rule, or the chat through the sink.
func (e *Engine) approve(ctx context.Context, sink toolSink, ask ToolAsk) (Approval, error) {
	if f := e.opts.Tools.Approve; f != nil {
		return f(ask), nil
	}
	return sink.Approve(ctx, ask)
}

// bound cuts a result to the per-call limit and to what the turn has
// left, with a note the model reads, and takes it from the turn's budget.
func bound(text string, perCall int, budget *int) string {
	limit, why := len(text), ""
	if perCall > 0 && limit > perCall {
		limit, why = perCall, fmt.Sprintf("parley sends at most %s of one result (tool_result_max_bytes)", bytesize.Format(int64(perCall)))
	}
	if *budget >= 0 && limit > *budget {
		limit, why = *budget, "this turn's tool results reached their limit (tool_turn_max_bytes)"
	}
	if limit < len(text) {
		for limit > 0 && !utf8.RuneStart(text[limit]) {
			limit--
		}
		text = text[:limit] + fmt.Sprintf("\n[truncated: the result was %s; %s]", bytesize.Format(int64(len(text))), why)
	}
	*budget = max(0, *budget-limit)
	return text
}

// pictures keeps the images of a result that are real images, as
// attachments for the screen.
func pictures(imgs []mcp.Image) []api.Attachment {
	var out []api.Attachment
	for _, im := range imgs {
		info, err := media.Inspect(im.Data)
		if err != nil {
			continue
		}
		out = append(out, api.Attachment{
			Name: "tool result", MIME: info.Format.MIME(), SHA256: fmt.Sprintf("%x", sha256.Sum256(im.Data)),
			Width: info.Width, Height: info.Height, Bytes: len(im.Data), Data: im.Data,
		})
	}
	return out
}
