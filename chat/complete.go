package chat

import (
	"context"
	"time"

	"parley/api"
	"parley/conversation"
)

// Handlers take a reply's answer text and its reasoning as they arrive,
// in the goroutine that runs Complete (ask prints them).
type Handlers struct {
	Text, Reasoning func(string)
	// Tool hears each call's result (nil: not told); Refused hears the
	// gateway's refusal of tools.
	Tool    func(conversation.ToolCallMade)
	Refused func()
}

// Result is what a completed reply reported.
type Result struct {
	FinishReason string
	Usage        *api.Usage
	// Images is what became of the images the model sent with its reply.
	Images ReplyImages
}

// directSink hands each event to the conversation and the handlers at
// once: Complete reads in the owner's goroutine, so nothing is pumped.
type directSink struct {
	e  *Engine
	r  *Reply
	on Handlers
}

func (s directSink) Event(ev api.StreamEvent) {
	if ev.Image != nil {
		s.r.images = append(s.r.images, *ev.Image)
	}
	if ev.Reasoning != "" {
		s.on.Reasoning(ev.Reasoning)
	}
	s.on.Text(ev.Text)
	s.e.apply(s.r, Batch{Text: ev.Text, Reasoning: ev.Reasoning, Usage: ev.Usage, Finish: ev.FinishReason, Alive: true}, s.e.opts.Now())
}

func (s directSink) Calls(calls []conversation.ToolCallMade) int {
	step, _ := s.e.conv.AddToolCalls(s.r.Turn, calls)
	return step
}

func (s directSink) Result(step, i int, call conversation.ToolCallMade) {
	_ = s.e.conv.SetToolResult(s.r.Turn, step, i, call)
	if s.on.Tool != nil {
		s.on.Tool(call)
	}
}

func (s directSink) Refused() {
	s.r.ToolsRefused = true
	if s.on.Refused != nil {
		s.on.Refused()
	}
}

// Approve denies: without a screen nobody can be asked (ToolOptions.Approve
// gives ask its own rule).
func (s directSink) Approve(context.Context, ToolAsk) (Approval, error) { return Deny, nil }

func (s directSink) Retrying(api.RetryNotice)                 {}
func (s directSink) PauseFor(gap time.Duration) time.Duration { return gap }

// Complete runs the reply to its end in the calling goroutine, streamed
// or (stream false) as one response, handing each piece to on and to the
// conversation, and closes the turn: done, interrupted when ctx was
// cancelled, failed otherwise (what arrived stays). The store's flush
// comes first, so the question is on disk before it goes out.
func (e *Engine) Complete(ctx context.Context, r *Reply, stream bool, on Handlers) (Result, error) {
	stop := context.AfterFunc(ctx, r.cancel)
	defer stop()
	r.flushFirst()
	sink := directSink{e: e, r: r, on: on}
	var err error
	if stream {
		err = e.rounds(r.ctx, r, sink, 0)
	} else {
		err = e.once(r, sink)
	}
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if ctx.Err() == nil {
		kept := r.keep(r.images)
		e.apply(r, Batch{Images: &kept}, e.opts.Now())
	}
	res := Result{FinishReason: r.Finish, Images: r.Images}
	e.end(r, err, e.opts.Now())
	r.forgetRequest()
	res.Usage = r.Turn.Usage()
	return res, err
}

// once asks for the whole reply in one response. A reply over
// max_reply_bytes comes with its text so far: kept like a stream's.
func (e *Engine) once(r *Reply, sink directSink) error {
	return e.rounds(r.ctx, r, wholeSink{sink}, -1)
}

// wholeSink is a directSink whose rounds are read as one response each
// (gap -1, see readRound).
type wholeSink struct{ directSink }
