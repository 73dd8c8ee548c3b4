package chat

import (
	"context"
	"sync"
	"time"

	"parley/conversation"
)

// Compare starts one turn answered by several models at once
// (conversation.BeginCompare): one reply per options, each with its own
// context, pump, cancel and figures, all sharing one ID. Models that
// cannot take the message are left out (skipped); the others go. It is
// refused, changing nothing, while a turn is in flight, without a
// gateway, or while a model's client is not built yet (ErrNoClient: the
// owner builds each with Clients.Get and tries again).
func (e *Engine) Compare(in *conversation.UserInput, opts []conversation.TurnOptions) ([]*Reply, []conversation.Skipped, error) {
	models := make([]string, len(opts))
	for i, o := range opts {
		models[i] = o.Model
	}
	if err := e.canBegin(models...); err != nil {
		return nil, nil, err
	}
	turns, skipped, err := e.conv.BeginCompare(in, opts)
	if err != nil {
		return nil, skipped, err
	}
	e.waiting = WaitNone
	e.nextID++
	rs := make([]*Reply, len(turns))
	for i, t := range turns {
		client, _ := e.opts.Clients.Ready(t.Chat.Model)
		rs[i] = e.newReply(e.nextID, t, t.Chat.Model, client)
	}
	e.replies, e.group = rs, append([]*Reply(nil), rs...)
	e.last.Trimmed = turns[0].Built.Trimmed
	return append([]*Reply(nil), rs...), skipped, nil
}

// RunAll reads every reply in flight, each in a goroutine of its own that
// belongs to the reply's context, and drains them every `every` in the
// calling goroutine, reporting each end to onEnd as it comes, until all
// ended. When ctx is done first the rest are stopped (reported with
// context.Canceled). It returns once every reading goroutine has ended.
func (e *Engine) RunAll(ctx context.Context, every time.Duration, onEnd func(Ended)) {
	var wg sync.WaitGroup
	for _, r := range e.replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Run(0)
		}()
	}
	defer wg.Wait()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for len(e.replies) > 0 {
		select {
		case <-ctx.Done():
			for _, r := range e.Replies() {
				e.StopReply(r.Turn.ReplyID)
				onEnd(Ended{Reply: r, Err: context.Canceled})
			}
			return
		case <-tick.C:
		}
		for _, x := range e.DrainEach() {
			onEnd(x)
		}
	}
}

// Figures are what a reply's column shows at now: how long it has taken
// (to its end once it ended), its completion tokens (reported, else
// estimated from its characters) and its tokens per second (0: too early
// to say).
func (r *Reply) Figures(now time.Time) (elapsed time.Duration, tokens int, perSecond float64) {
	end := now
	if r.Done {
		end = r.Ended
	}
	elapsed = end.Sub(r.Started)
	tokens = r.Chars / 4
	if u := r.Turn.Usage(); u != nil && u.CompletionTokens > 0 {
		tokens = u.CompletionTokens
	}
	if r.Done {
		return elapsed, tokens, r.Rate
	}
	return elapsed, tokens, rate(r, now)
}
