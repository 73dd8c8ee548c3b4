package session

import (
	"context"
	"sync"

	"parley/api"
	"parley/conversation"
)

// Recorder follows conversation changes and writes them to the store on a
// goroutine of its own, so the UI never waits on the disk. Its OnChange
// only enqueues. Messages are written as they are appended (a user message
// is committed within moments, and Flush waits for it), a streaming reply
// at each ChangeProgress (about once a second) and at its end. Deltas are
// not written one by one: progress carries the text so far.
//
// A failed write is delivered once on Errors; the next failure is reported
// again only after a write has succeeded in between.
type Recorder struct {
	s    *Store
	ctx  context.Context
	wake chan struct{}
	errs chan error
	done chan struct{}

	mu     sync.Mutex
	queue  []item
	closed bool

	// failing is touched only by the writer goroutine.
	failing bool
}

// item is a queued change, a draft to save, or a flush waiting for
// everything before it.
type item struct {
	change conversation.Change
	draft  *draft
	flush  chan error
}

type draft struct {
	sessionID, text string
	atts            []api.Attachment
}

// NewRecorder starts a recorder whose writer goroutine lives until Close,
// or until ctx ends (then what is still queued is dropped). Add it to a
// conversation with Conversation.Listen or Options.Listeners.
func (s *Store) NewRecorder(ctx context.Context) *Recorder {
	r := &Recorder{
		s:    s,
		ctx:  ctx,
		wake: make(chan struct{}, 1),
		errs: make(chan error, 1),
		done: make(chan struct{}),
	}
	go r.run()
	return r
}

// OnChange enqueues a change to be written. It never blocks on the disk.
func (r *Recorder) OnChange(ch conversation.Change) {
	if ch.Kind == conversation.ChangeDelta {
		return // ChangeProgress carries the text so far
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.queue = append(r.queue, item{change: ch})
	r.mu.Unlock()
	r.poke()
}

// SaveDraft enqueues the composer's draft of a session (see
// Store.SaveDraft), in order with the conversation's changes; it never
// blocks. Only the latest of several queued drafts of a session is
// written.
func (r *Recorder) SaveDraft(sessionID, text string, atts []api.Attachment) {
	d := &draft{sessionID: sessionID, text: text, atts: append([]api.Attachment(nil), atts...)}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.queue = append(r.queue, item{draft: d})
	r.mu.Unlock()
	r.poke()
}

// Errors delivers write failures, once per run of failures. It is closed
// when the recorder stops.
func (r *Recorder) Errors() <-chan error { return r.errs }

// Flush waits until every change enqueued before it is written and returns
// the first failure among those writes (also delivered on Errors).
func (r *Recorder) Flush(ctx context.Context) error {
	ch := make(chan error, 1)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrClosed
	}
	r.queue = append(r.queue, item{flush: ch})
	r.mu.Unlock()
	r.poke()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-r.done:
		// Stopped by its context before reaching this flush.
		select {
		case err := <-ch:
			return err
		default:
			return ErrClosed
		}
	}
}

// Close writes what is queued, stops the writer and waits for it. Changes
// after Close are dropped.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		<-r.done
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.poke()
	<-r.done
	return nil
}

func (r *Recorder) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Recorder) run() {
	defer close(r.done)
	defer close(r.errs)
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.wake:
		}
		r.mu.Lock()
		batch := r.queue
		r.queue = nil
		closed := r.closed
		r.mu.Unlock()
		r.write(batch)
		if closed {
			r.mu.Lock()
			rest := r.queue
			r.queue = nil
			r.mu.Unlock()
			r.write(rest)
			return
		}
	}
}

// write applies a batch in order. A progress change is skipped when a
// later change of the batch rewrites the same message anyway, so a writer
// that fell behind catches up with one write per message.
func (r *Recorder) write(batch []item) {
	var firstErr error
	for i, it := range batch {
		if it.flush != nil {
			it.flush <- firstErr
			firstErr = nil
			continue
		}
		var err error
		switch {
		case it.draft != nil:
			if draftSuperseded(batch[i+1:], it.draft) {
				continue
			}
			err = r.s.SaveDraft(r.ctx, it.draft.sessionID, it.draft.text, it.draft.atts)
		case superseded(batch[i+1:], it.change):
			continue
		default:
			err = r.s.apply(r.ctx, it.change)
		}
		if err == nil {
			r.failing = false
			continue
		}
		if r.ctx.Err() != nil {
			return
		}
		if firstErr == nil {
			firstErr = err
		}
		if !r.failing {
			r.failing = true
			select {
			case r.errs <- err:
			default: // the previous failure is still unread
			}
		}
	}
}

func draftSuperseded(later []item, d *draft) bool {
	for _, it := range later {
		if it.draft != nil && it.draft.sessionID == d.sessionID {
			return true
		}
	}
	return false
}

func superseded(later []item, ch conversation.Change) bool {
	if ch.Kind != conversation.ChangeProgress {
		return false
	}
	for _, it := range later {
		c := it.change
		if it.flush == nil && it.draft == nil && c.ConversationID == ch.ConversationID && c.Message != nil && c.Message.ID == ch.Message.ID &&
			(c.Kind == conversation.ChangeProgress || c.Kind == conversation.ChangeUpdate) {
			return true
		}
	}
	return false
}
