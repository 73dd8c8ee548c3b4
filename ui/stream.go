package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
)

// Streaming follows DESIGN.md: Update creates a cancellable context and a
// stream id per reply; runStream (a command) opens the stream and, in the
// goroutine Bubble Tea gives it, pumps Recv into a pump until the stream ends
// or the context is cancelled; waitBatch (a command, re-issued from Update)
// waits for buffered text and returns everything buffered as one message, at
// most one per batchGap. Commands never touch the model; late messages of a
// cancelled stream are ignored by id.

// batchGap is the least time between two batch messages of one stream, so a
// fast gateway costs one Update per frame, not one per token.
const batchGap = 16 * time.Millisecond

// frameInterval is the frame tick while streaming (re-render and spinner).
const frameInterval = 33 * time.Millisecond

// pump is the small buffer between the goroutine reading a stream and the
// UI. It is shared by the two commands of one stream, never by the model's
// state: the model only holds the pointer to hand it to the next waitBatch.
type pump struct {
	mu     sync.Mutex
	text   strings.Builder
	usage  *api.Usage
	finish string
	err    error
	ended  bool
	// alive: an event arrived since the last batch (text or not).
	alive bool
	// retry is the client's latest retry notice, nil once data flows.
	retry *api.RetryNotice
	// notify has room for one wake-up: writes never block the reader.
	notify chan struct{}
	// last is when the previous batch was taken (only waitBatch reads it,
	// and one waitBatch runs at a time per stream).
	last time.Time
}

func newPump() *pump {
	return &pump{notify: make(chan struct{}, 1)}
}

func (p *pump) wake() {
	select {
	case p.notify <- struct{}{}:
	default:
	}
}

func (p *pump) add(ev api.StreamEvent) {
	p.mu.Lock()
	p.alive = true
	p.retry = nil
	p.text.WriteString(ev.Text)
	if ev.Usage != nil {
		u := *ev.Usage
		p.usage = &u
	}
	if ev.FinishReason != "" {
		p.finish = ev.FinishReason
	}
	p.mu.Unlock()
	p.wake()
}

// retrying records a retry the client is about to make.
func (p *pump) retrying(n api.RetryNotice) {
	p.mu.Lock()
	p.retry = &n
	p.mu.Unlock()
	p.wake()
}

func (p *pump) end(err error) {
	p.mu.Lock()
	p.ended = true
	p.err = err
	p.mu.Unlock()
	p.wake()
}

// take empties the buffer into a batch.
func (p *pump) take(id int) streamBatchMsg {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := streamBatchMsg{id: id, text: p.text.String(), usage: p.usage, finish: p.finish, ended: p.ended, err: p.err, alive: p.alive, retry: p.retry}
	p.text.Reset()
	p.usage = nil
	p.alive = false
	return b
}

// streamBatchMsg is everything that arrived since the previous batch.
type streamBatchMsg struct {
	id     int
	text   string
	usage  *api.Usage
	finish string
	// ended: the stream is over; err says why when it did not end properly.
	ended bool
	err   error
	// alive: the gateway sent something since the previous batch.
	alive bool
	// retry is the gateway client's retry notice (nil when none).
	retry *api.RetryNotice
	// at is when the batch was taken (for the coalescing test).
	at time.Time
}

// frameMsg is the frame tick while a stream runs.
type frameMsg struct{ id int }

// runStream opens the stream and pumps it until it ends. The goroutine it
// runs in belongs to ctx: cancelling ctx ends Recv and the command.
func runStream(ctx context.Context, client *api.Client, req api.ChatRequest, p *pump) tea.Cmd {
	return func() tea.Msg {
		ctx := api.WithRetryNotice(ctx, p.retrying)
		s, err := client.ChatStream(ctx, req)
		if err != nil {
			p.end(err)
			return nil
		}
		defer s.Close()
		for {
			ev, err := s.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				p.end(err)
				return nil
			}
			p.add(ev)
		}
	}
}

// waitBatch waits for the next batch of one stream. It gives up when ctx is
// cancelled, returning nothing: the cancel was decided in Update already.
func waitBatch(ctx context.Context, id int, p *pump) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-p.notify:
		case <-ctx.Done():
			return nil
		}
		// Coalesce: let text gather until a frame has passed since the
		// previous batch.
		if wait := batchGap - time.Since(p.last); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil
			}
		}
		p.last = time.Now()
		// Drain a wake-up that raced with the sleep: the batch takes it all.
		select {
		case <-p.notify:
		default:
		}
		b := p.take(id)
		b.at = p.last
		return b
	}
}

func frameTick(id int) tea.Cmd {
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return frameMsg{id: id} })
}
