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

// Streaming: Update creates a cancellable context and a
// stream id per reply; runStream (a command) opens the stream and, in the
// goroutine Bubble Tea gives it, pumps Recv into a pump until the stream ends
// or the context is cancelled. The UI takes what the pump gathered on the
// stream's frame tick: a delta wakes at most the goroutine that reads it
// (which pauses after each wait, so deltas are read in bursts), and the UI
// wakes once per frame however fast the gateway sends. Commands never touch
// the model; late ticks of a stopped stream are ignored by id.

// frameInterval is the frame tick while streaming: take the pump's text,
// re-render the reply's unfinished tail (as Markdown, every frame), advance
// the status bar. Ten frames a second keep pace with any stream (text shows
// at most readGap + frameInterval after it arrived) for about half the CPU
// of thirty: each frame costs the Markdown render of the tail and, in Bubble
// Tea's renderer, a parse and diff of the whole screen, whatever changed
// (BENCHMARKS.md, "Streaming in a real terminal").
const frameInterval = 100 * time.Millisecond

// rendererFPS is how often Bubble Tea's renderer looks for a new frame to
// write (its default is 60). It wakes that often even when nothing
// changed: each wake-up costs a streamed reply about 0.1 ms here (60
// instead of 30 added 0.1–0.2 s of CPU to a 37 s stream), and the first
// frame waits for the first wake-up (30: 63 ms from exec, 60: 43 ms).
// 45 keeps the first frame within 50 ms and the echo of a key within
// 22 ms for 0.03–0.05 s more CPU a stream than 30 (BENCHMARKS.md,
// "The renderer's rate").
const rendererFPS = 45

// lazyInterval is the frame tick without a stream, while the transcript
// renders messages off screen after a resize or a theme change: short
// steps, so that the work is spread thin and done soon.
const lazyInterval = 33 * time.Millisecond

// spinnerStep is how often the status of a reply in flight (spinner,
// elapsed time, rate) changes: the status line is redrawn that often, not
// on every frame.
const spinnerStep = 100 * time.Millisecond

// pump is the small buffer between the goroutine reading a stream and the
// UI. It is shared by the reading command and the model's frame tick; only
// its own methods touch it, under its lock.
type pump struct {
	mu   sync.Mutex
	text strings.Builder
	// reasoning is the model's thinking, apart from the answer.
	reasoning strings.Builder
	usage     *api.Usage
	finish    string
	err       error
	ended     bool
	// alive: an event arrived since the last take (text or not).
	alive bool
	// retry is the client's latest retry notice, nil once data flows.
	retry *api.RetryNotice
	// pauses counts the reader's pauses before a network read (tests).
	pauses int
}

func newPump() *pump {
	return &pump{}
}

func (p *pump) add(ev api.StreamEvent) {
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
	p.mu.Unlock()
}

// retrying records a retry the client is about to make.
func (p *pump) retrying(n api.RetryNotice) {
	p.mu.Lock()
	p.retry = &n
	p.mu.Unlock()
}

// paused counts one pause of the reader before a network read.
func (p *pump) paused() {
	p.mu.Lock()
	p.pauses++
	p.mu.Unlock()
}

func (p *pump) end(err error) {
	p.mu.Lock()
	p.ended = true
	p.err = err
	p.mu.Unlock()
}

// take empties the buffer into a batch.
func (p *pump) take() streamBatch {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := streamBatch{text: p.text.String(), reasoning: p.reasoning.String(), usage: p.usage, finish: p.finish, ended: p.ended, err: p.err, alive: p.alive, retry: p.retry}
	p.text.Reset()
	p.reasoning.Reset()
	p.usage = nil
	p.alive = false
	return b
}

// streamBatch is everything that arrived since the previous frame.
type streamBatch struct {
	text      string
	reasoning string
	usage     *api.Usage
	finish    string
	// ended: the stream is over; err says why when it did not end properly.
	ended bool
	err   error
	// alive: the gateway sent something since the previous batch.
	alive bool
	// retry is the gateway client's retry notice (nil when none).
	retry *api.RetryNotice
}

// readGap is how long the reader pauses before it waits for the network,
// so that the deltas a gateway sends meanwhile are read together, in one
// system call, instead of waking parley one by one: at 200 small events a
// second each wake-up (the read, the Go scheduler and its monitor thread)
// costs more CPU than decoding the event. The decision comes from what is
// buffered, never from the clock: while the stream holds unread bytes the
// reader goes on at once, so a fast gateway is never slowed down, and half
// a frame's pause delays nothing the user could see.
const readGap = frameInterval / 2

// frameMsg is the frame tick while a stream runs.
type frameMsg struct{ id int }

// runStream opens the stream and pumps it until it ends, pausing readGap
// whenever the next event would have to come from the network. The
// goroutine it runs in belongs to ctx: cancelling ctx ends Recv, the pause
// and the command.
func runStream(ctx context.Context, client *api.Client, req api.ChatRequest, p *pump) tea.Cmd {
	return func() tea.Msg {
		ctx := api.WithRetryNotice(ctx, p.retrying)
		s, err := client.ChatStream(ctx, req)
		if err != nil {
			p.end(err)
			return nil
		}
		defer s.Close()
		pause := time.NewTimer(readGap)
		pause.Stop()
		defer pause.Stop()
		for {
			if !s.Buffered() {
				p.paused()
				pause.Reset(readGap)
				select {
				case <-pause.C:
				case <-ctx.Done():
					p.end(ctx.Err())
					return nil
				}
			}
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

// frameTick is the next frame of stream id after d, or of the
// transcript's lazy work (id 0, after lazyInterval).
func frameTick(id int, d time.Duration) tea.Cmd {
	if id == 0 {
		d = lazyInterval
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return frameMsg{id: id} })
}

// streamFrame is the frame interval of a stream on a screen of w×h cells:
// frameInterval, longer on larger screens. Each frame costs Bubble Tea's
// renderer a parse and diff of the whole screen, so a frame of 200×60
// costs three times one of 80×24; spacing them keeps a 20 KB reply within
// about a second of CPU at every size (BENCHMARKS.md, "Streaming cost by
// screen size"), and text still shows within a fifth of a second.
func streamFrame(w, h int) time.Duration {
	switch area := w * h; {
	case area <= 2000:
		return frameInterval + 20*time.Millisecond
	case area <= 5000:
		return frameInterval + 50*time.Millisecond
	}
	return 2 * frameInterval
}

// streamer is the reply in flight (nil when idle), the next stream id, and
// the stats of the last finished reply.
type streamer struct {
	active    *activeStream
	nextID    int
	lastUsage *api.Usage
	lastRate  float64 // tokens per second of the last reply (0: unknown)
	trimmed   int     // messages left out of the last request (max_history_messages)
}
