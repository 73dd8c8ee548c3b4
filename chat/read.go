package chat

import (
	"context"
	"errors"
	"io"
	"time"

	"parley/api"
)

// Sink takes what a stream brings, in the goroutine that reads it.
type Sink interface {
	Event(api.StreamEvent)
	Retrying(api.RetryNotice)
	// PauseFor counts one pause of the reader before a network read and
	// says how long it lasts, given the reader's gap.
	PauseFor(gap time.Duration) time.Duration
}

// read opens the stream of req and hands its events to sink until it
// ends (nil at its proper end) or ctx is cancelled. With gap > 0 it pauses
// whenever the next event would have to come from the network (as long as
// the sink says: a pump that is taken once a frame has it end just before
// the next take, a sink that cannot tell takes gap),
// so that the deltas a gateway sends meanwhile are read together, in one
// system call, instead of waking the process one by one (api.Stream.Pause
// keeps the packets that arrive meanwhile from waking it). The decision
// comes from what is buffered, never from the clock: while the stream
// holds unread bytes the reader goes on at once, so a fast gateway is
// never slowed down.
func read(ctx context.Context, client *api.Client, req api.ChatRequest, sink Sink, gap time.Duration) error {
	ctx = api.WithRetryNotice(ctx, sink.Retrying)
	s, err := client.ChatStream(ctx, req)
	if err != nil {
		return err
	}
	defer s.Close()
	for {
		if gap > 0 && !s.Buffered() {
			if err := s.Pause(ctx, sink.PauseFor(gap)); err != nil {
				return err
			}
		}
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		sink.Event(ev)
	}
}
