package session

import (
	"context"
	"sync"
	"time"

	"parley/api"
	"parley/conversation"
)

// Recorder follows conversation changes and writes them to the store on a
// goroutine of its own, so the UI never waits on the disk. Its OnChange
// only enqueues. Messages are written as they are appended (a user message
// is committed within moments, and Flush waits for it), a streaming reply
// at each ChangeProgress (about once a second, only the text that came
// since) and at its end. Deltas are not written one by one.
//
// A write that fails (a full disk, a database locked for too long) is
// kept, with everything after it, and tried again in order: at the next
// change and after a pause that doubles up to retryMax, so turns made
// while the disk was full are written once there is room again. A failure
// is delivered once on Errors; the next failure is reported again only
// after a write has succeeded in between.
//
// The store numbers the messages (see numbering.go), so another process
// appending to the same session (an ask --session, a second chat) keeps
// its messages: what this recorder appends next goes beside them, as a
// branch, and Added says how many there were.
//
// A session deleted on purpose elsewhere (ErrSessionDeleted) stays
// deleted: what its conversation does next is dropped, and a new message
// in it is reported once. A conversation whose replies all failed before
// any text is not kept as a session (see unreached.go).
type Recorder struct {
	s     *Store
	ctx   context.Context
	wake  chan struct{}
	errs  chan error
	added chan Added
	done  chan struct{}

	mu     sync.Mutex
	queue  []item
	closed bool

	// Touched only by the writer goroutine (and read by Close after it
	// ended).
	failing  bool
	pending  []item        // failed writes and those after them, in order
	pause    time.Duration // before the next try of pending
	lastErr  error
	held     map[string]*heldSession
	fresh    map[string]bool // conversations met: whose session this recorder made
	deleted  map[string]error
	numbers  numberings
	closeErr error
}

// Added reports that other processes added messages to a session since
// the conversation being recorded last knew it: they are kept (what the
// conversation appends goes beside them, as another branch of the
// session), and the conversation does not hold them until the session is
// opened again.
type Added struct {
	SessionID string
	// Messages is how many messages were added.
	Messages int
}

// Pauses between tries of failed writes.
const (
	retryMin = 500 * time.Millisecond
	retryMax = 30 * time.Second
)

// item is a queued change, a draft to save, or a flush waiting for
// everything before it.
type item struct {
	change conversation.Change
	draft  *draft
	copy   *copied
	flush  chan error
}

type draft struct {
	sessionID, text string
	atts            []api.Attachment
}

func (it item) sessionID() string {
	switch {
	case it.draft != nil:
		return it.draft.sessionID
	case it.copy != nil:
		return it.copy.sessionID
	}
	return it.change.ConversationID
}

// NewRecorder starts a recorder whose writer goroutine lives until Close,
// or until ctx ends (then what is still queued is dropped). Add it to a
// conversation with Conversation.Listen or Options.Listeners.
func (s *Store) NewRecorder(ctx context.Context) *Recorder {
	r := &Recorder{
		s:     s,
		ctx:   ctx,
		wake:  make(chan struct{}, 1),
		errs:  make(chan error, 1),
		added: make(chan Added, addedBuffer),
		done:  make(chan struct{}),
	}
	go r.run()
	return r
}

// OnChange enqueues a change to be written. It never blocks on the disk.
func (r *Recorder) OnChange(ch conversation.Change) {
	if ch.Kind == conversation.ChangeDelta || ch.Kind == conversation.ChangeReasoning {
		return // ChangeProgress carries the text and reasoning so far
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

// addedBuffer bounds the Added reports waiting to be read; more are
// dropped (the reader has as many unread already).
const addedBuffer = 8

// Added delivers a report each time an append finds messages another
// process added to its session (see the type Added). It is closed when
// the recorder stops.
func (r *Recorder) Added() <-chan Added { return r.added }

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

// Close writes what is queued, tries once more what failed, stops the
// writer and waits for it. It returns the last failure when something
// could still not be written (it is then lost). Changes after Close are
// dropped.
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
	return r.closeErr
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
	defer close(r.added)
	if !r.waitOpen() {
		return
	}
	retry := time.NewTimer(retryMax)
	retry.Stop()
	defer retry.Stop()
	for {
		if len(r.pending) > 0 {
			retry.Reset(r.pause)
		}
		select {
		case <-r.ctx.Done():
			return
		case <-r.wake:
		case <-retry.C:
		}
		retry.Stop()
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
			if len(r.pending) > 0 {
				r.closeErr = r.lastErr
			}
			return
		}
	}
}

// waitOpen waits for the store's open (see Start) and reports whether the
// recorder can write. A store that could not be opened keeps nothing: the
// recorder stops, dropping what was queued and what comes, and reports no
// write failures (whoever started the store says once why history is
// off, from Opened). The flushes queued by then return that error, later
// ones ErrClosed.
func (r *Recorder) waitOpen() bool {
	select {
	case <-r.s.ready:
	case <-r.ctx.Done():
		return false
	}
	if r.s.openErr == nil {
		return true
	}
	r.mu.Lock()
	r.closed = true
	queued := r.queue
	r.queue = nil
	r.mu.Unlock()
	for _, it := range queued {
		if it.flush != nil {
			it.flush <- r.s.openErr
		}
	}
	return false
}
