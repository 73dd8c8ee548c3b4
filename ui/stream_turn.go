package ui

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/session"
)

// flushBeforeSend bounds the wait for the user's message to be written
// before its request goes out.
const flushBeforeSend = 2 * time.Second

// start sends the turn's request; the reply streams through a pump owned
// by a context cancelled when the reply ends. With a recorder, the user's
// message is on disk before the request goes out: the wait happens in the
// command, never in Update, and a store that fails says so on its own
// channel (the request goes all the same).
func (s *streamer) start(base context.Context, client *api.Client, t *conversation.Turn, model string, now time.Time, rec *session.Recorder) tea.Cmd {
	s.trimmed = t.Built.Trimmed
	s.nextID++
	ctx, cancel := context.WithCancel(base)
	a := &activeStream{id: s.nextID, turn: t, model: model, ctx: ctx, cancel: cancel, pump: newPump(), started: now, last: now, shown: now}
	s.active = a
	stream := runStream(ctx, client, t.Chat, a.pump)
	if rec != nil {
		inner := stream
		stream = func() tea.Msg {
			fctx, cancel := context.WithTimeout(ctx, flushBeforeSend)
			_ = rec.Flush(fctx)
			cancel()
			return inner()
		}
	}
	return tea.Batch(stream, frameTick(a.id, frameInterval))
}

// drain applies what the reply in flight sent since the previous frame,
// and closes the turn when the stream is over (then it reports true).
func (s *streamer) drain(conv *conversation.Conversation, now time.Time) bool {
	a := s.active
	if a == nil {
		return false
	}
	b := a.pump.take()
	if b.text != "" || b.reasoning != "" || b.alive {
		a.last = now
	}
	a.retry = b.retry
	if b.text != "" || b.reasoning != "" {
		if a.first.IsZero() {
			a.first = now
		}
		a.chars += utf8.RuneCountInString(b.reasoning) + utf8.RuneCountInString(b.text)
	}
	conv.ReceiveReasoning(a.turn, b.reasoning)
	conv.Receive(a.turn, b.text, b.usage, b.finish)
	if !b.ended {
		return false
	}
	err := b.err
	if err != nil && errors.Is(err, context.Canceled) {
		err = errors.New("the request was cancelled")
	}
	s.end(conv, err, now)
	return true
}

// interrupt stops the reply in flight (esc, ctrl+c, quit, leaving the
// conversation), keeping what arrived, the text still in the buffer
// included, as interrupted. It reports whether a reply was stopped.
func (s *streamer) interrupt(conv *conversation.Conversation, now time.Time) bool {
	a := s.active
	if a == nil {
		return false
	}
	a.cancel()
	if b := a.pump.take(); b.text != "" || b.reasoning != "" {
		a.chars += utf8.RuneCountInString(b.reasoning) + utf8.RuneCountInString(b.text)
		conv.ReceiveReasoning(a.turn, b.reasoning)
		conv.Receive(a.turn, b.text, b.usage, "")
	}
	s.end(conv, context.Canceled, now)
	return true
}

// end closes the reply's turn (err nil: done), forgets the reply (its
// context is cancelled, so its goroutines end, and its late frame ticks
// are ignored by id) and keeps its usage and rate for the status bar.
func (s *streamer) end(conv *conversation.Conversation, err error, now time.Time) {
	a := s.active
	a.cancel()
	s.active = nil
	_ = conv.Close(a.turn, err)
	s.lastUsage = a.turn.Usage()
	s.lastRate = 0
	if a.first.IsZero() {
		return
	}
	secs := now.Sub(a.first).Seconds()
	if secs <= 0.05 {
		return
	}
	tokens := float64(a.chars) / 4
	if u := a.turn.Usage(); u != nil && u.CompletionTokens > 0 {
		tokens = float64(u.CompletionTokens)
	}
	s.lastRate = tokens / secs
}
