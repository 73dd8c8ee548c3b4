package chat

import (
	"context"
	"strings"
	"sync"
	"time"

	"parley/api"
	"parley/conversation"
)

// Pump is the small buffer between the goroutine reading a stream and the
// engine's owner: the reader adds what arrives, the owner takes it all at
// once when it is ready to show it (the chat once a frame), so a fast
// gateway wakes the owner no more often than it wants. Only its own
// methods touch it, under its lock.
type Pump struct {
	mu        sync.Mutex
	text      strings.Builder
	reasoning strings.Builder
	usage     *api.Usage
	finish    string
	err       error
	ended     bool
	// alive: an event arrived since the last take (text or not).
	alive bool
	// retry is the client's latest retry notice, nil once data flows.
	retry *api.RetryNotice
	// pauses counts the reader's pauses before a network read.
	pauses int
	// taken is when the owner last took the buffer, every how long before
	// that it took it the time before (0 until it took it twice): the
	// reader's pauses end just before the next take (see untilTake).
	taken time.Time
	every time.Duration
	// tools are the tool loop's events since the last take, steps how
	// many steps of calls the reply made, ask the call waiting for an
	// answer and answer where that answer goes.
	tools  []ToolEvent
	steps  int
	ask    *ToolAsk
	answer chan Approval
	// images are the images the reply brought (at most
	// api.MaxReplyImages, the stream's bound), and kept what became of
	// them once the stream ended (see keepImages).
	images []api.ReplyImage
	kept   *ReplyImages
}

// Event adds one stream event.
func (p *Pump) Event(ev api.StreamEvent) {
	p.mu.Lock()
	p.alive = true
	p.retry = nil
	p.text.WriteString(ev.Text)
	p.reasoning.WriteString(ev.Reasoning)
	if ev.Usage != nil {
		u := *ev.Usage
		p.usage = &u
	}
	if ev.FinishReason != "" {
		p.finish = ev.FinishReason
	}
	if ev.Image != nil {
		p.images = append(p.images, *ev.Image)
	}
	p.mu.Unlock()
}

// ToolEvent is something of the tool loop, at offset At of its batch's
// Text: a step of calls (Calls), a call's result (Result, call Index of
// step Step), or the gateway's refusal of tools (Refused).
type ToolEvent struct {
	At      int
	Step    int
	Index   int
	Calls   []conversation.ToolCallMade
	Result  *conversation.ToolCallMade
	Refused bool
}

// Calls queues a step of calls and returns its index.
func (p *Pump) Calls(calls []conversation.ToolCallMade) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.alive = true
	p.tools = append(p.tools, ToolEvent{At: p.text.Len(), Step: p.steps, Calls: calls})
	p.steps++
	return p.steps - 1
}

// Result queues a call's result.
func (p *Pump) Result(step, i int, call conversation.ToolCallMade) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.alive = true
	p.tools = append(p.tools, ToolEvent{At: p.text.Len(), Step: step, Index: i, Result: &call})
}

// Refused queues the gateway's refusal of tools.
func (p *Pump) Refused() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tools = append(p.tools, ToolEvent{At: p.text.Len(), Refused: true})
}

// Approve waits for the answer to a call (Answer gives it) or the end of
// ctx.
func (p *Pump) Approve(ctx context.Context, ask ToolAsk) (Approval, error) {
	answer := make(chan Approval, 1)
	p.mu.Lock()
	p.ask, p.answer = &ask, answer
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.ask, p.answer = nil, nil
		p.mu.Unlock()
	}()
	select {
	case a := <-answer:
		return a, nil
	case <-ctx.Done():
		return Deny, ctx.Err()
	}
}

// Asking is the call waiting for an answer, nil when none is.
func (p *Pump) Asking() *ToolAsk {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ask == nil {
		return nil
	}
	a := *p.ask
	return &a
}

// Answer answers the call waiting; it reports false when none is.
func (p *Pump) Answer(a Approval) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.answer == nil {
		return false
	}
	p.answer <- a
	p.answer = nil
	return true
}

// takeImages hands over the images gathered so far.
func (p *Pump) takeImages() []api.ReplyImage {
	p.mu.Lock()
	defer p.mu.Unlock()
	imgs := p.images
	p.images = nil
	return imgs
}

// endWith says the stream is over (see End) with what became of its
// images.
func (p *Pump) endWith(err error, kept ReplyImages) {
	p.mu.Lock()
	p.kept = &kept
	p.mu.Unlock()
	p.End(err)
}

// Retrying records a retry the client is about to make.
func (p *Pump) Retrying(n api.RetryNotice) {
	p.mu.Lock()
	p.retry = &n
	p.mu.Unlock()
}

// PauseFor counts one pause of the reader before a network read and
// says how long it lasts: until just before the owner's next take, as the
// interval between its last two takes predicts, or gap while it has not
// taken twice yet.
func (p *Pump) PauseFor(gap time.Duration) time.Duration {
	p.mu.Lock()
	p.pauses++
	taken, every := p.taken, p.every
	p.mu.Unlock()
	return untilTake(gap, taken, every, time.Now())
}

// Pauses is how often the reader paused before a network read.
func (p *Pump) Pauses() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pauses
}

// Buffered is how many bytes of answer text wait to be taken.
func (p *Pump) Buffered() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.text.Len()
}

// End says the stream is over; err says why when it did not end properly.
func (p *Pump) End(err error) {
	p.mu.Lock()
	p.ended = true
	p.err = err
	p.mu.Unlock()
}

// Take empties the buffer into a batch.
func (p *Pump) Take() Batch {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.taken.IsZero() {
		p.every = now.Sub(p.taken)
	}
	p.taken = now
	b := Batch{Text: p.text.String(), Reasoning: p.reasoning.String(), Usage: p.usage, Finish: p.finish, Ended: p.ended, Err: p.err, Alive: p.alive, Retry: p.retry, Tools: p.tools}
	p.tools = nil
	if p.ended && p.kept != nil {
		b.Images, p.kept = p.kept, nil
	}
	p.text.Reset()
	p.reasoning.Reset()
	p.usage = nil
	p.alive = false
	return b
}

// Batch is everything that arrived since the previous Take.
type Batch struct {
	Text      string
	Reasoning string
	Usage     *api.Usage
	// Finish is the finish reason, once the gateway sent one.
	Finish string
	// Ended: the stream is over; Err says why when it did not end properly.
	Ended bool
	Err   error
	// Alive: the gateway sent something since the previous batch.
	Alive bool
	// Retry is the gateway client's retry notice (nil when none).
	Retry *api.RetryNotice
	// Tools are the tool loop's events, each at its place in Text.
	Tools []ToolEvent
	// Images is what became of the reply's images, with the batch that
	// ends it (nil otherwise).
	Images *ReplyImages
}
