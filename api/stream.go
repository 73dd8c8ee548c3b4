package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"sync"
	"sync/atomic"
	"time"

	"parley/internal/bytesize"
)

// StreamEvent is one step of a streamed reply. Events that would carry
// nothing (a keep-alive, a chunk with only prompt_filter_results) are not
// returned.
//
// Reasoning is the model's thinking, apart from the answer in Text,
// whichever way the gateway sent it: delta.reasoning_content,
// delta.reasoning, or <think>...</think> opening the content (taken out of
// Text, however its tags were cut between chunks). An event may carry
// both; the reasoning comes before the text.
type StreamEvent struct {
	Reasoning    string // reasoning delta (may be empty)
	Text         string // answer text delta (may be empty)
	Role         string // set once, on the first event that names it
	FinishReason string // non-empty on the event that finished choice 0 ("stop", "length", ...)
	Usage        *Usage // non-nil on the usage chunk
	// ToolCalls are pieces of tool calls (ToolCallAssembler puts them
	// together); nil on most events.
	ToolCalls *ToolCallDeltas
	// Image is an image the model sent with its reply (non-nil on an
	// event of its own, one per image; see ReplyImage).
	Image *ReplyImage
}

// ErrStreamEndedEarly reports a stream that stopped without [DONE] and
// without a finish reason. Every text delta received before it was already
// returned by Recv.
var ErrStreamEndedEarly = errors.New("the stream ended early, before the reply was finished; the text so far was kept, so try again")

// ErrStreamClosed is returned by Recv after Close.
var ErrStreamClosed = errors.New("the stream was closed")

// streamCutError is a connection that broke mid-stream. It matches
// ErrStreamEndedEarly and unwraps to the network error.
type streamCutError struct{ err error }

func (e *streamCutError) Error() string {
	return "the connection broke during the reply (" + netReason(e.err) + "); the text so far was kept, so try again"
}
func (e *streamCutError) Unwrap() []error { return []error{ErrStreamEndedEarly, e.err} }

// Stream is a streamed chat reply. Recv returns its events in order; Close
// releases it and may be called at any time, from any goroutine, any number
// of times. A stream that reaches its end releases itself.
type Stream struct {
	c      *Client
	ctx    context.Context // the stream's own context, a child of the caller's
	cancel context.CancelCauseFunc
	caller context.Context
	req    *apiRequest

	mu       sync.Mutex // guards resp and idle against Close
	resp     *response
	idle     *time.Timer
	sse      *sseReader
	dec      chunkDecoder
	mask     replyMask     // the key, should the reply echo it
	rmask    replyMask     // the same for the reasoning
	think    thinkSplitter // <think> at the start of the content
	images   replyImageBudget
	attempts int
	pause    *time.Timer // Pause's timer, kept between pauses

	pending    []StreamEvent // events decoded ahead (a non-streamed JSON reply)
	pendingErr error         // returned after the pending events
	gotText    bool
	gotRole    bool
	textBytes  int64 // text and reasoning delivered, against the client's maxReply
	finished   bool  // a finish reason arrived
	err        error
	events     int
	closed     atomic.Bool
}

// ChatStream starts a streamed chat completion. It sets req.Stream itself and
// sends stream_options only when req has them (the catalog decides, since the
// spec forbids them for models that do not report usage). Retries happen
// before the stream is returned, and again transparently if the stream fails
// before it delivered any text (see Recv).
func (c *Client) ChatStream(ctx context.Context, req ChatRequest) (*Stream, error) {
	req.Stream = true
	r, err := c.chatRequest(req)
	if err != nil {
		return nil, err
	}
	sctx, cancel := c.withReplyDeadline(ctx)
	resp, err := c.send(sctx, r, 0)
	if err != nil {
		err = c.replyTimedOut(sctx, err)
		cancel(nil)
		return nil, err
	}
	s := &Stream{c: c, ctx: sctx, cancel: cancel, caller: ctx, req: r, mask: newReplyMask(c.key), rmask: newReplyMask(c.key)}
	s.attach(resp)
	return s, nil
}

// attach starts reading a reply: an event stream, or (from gateways that
// ignore "stream": true) one JSON reply turned into events.
func (s *Stream) attach(resp *response) {
	limit := s.c.timeouts.StreamIdle
	idle := time.AfterFunc(limit, func() { resp.cancel(errIdleTimeout) })
	s.mu.Lock()
	s.attempts = resp.attempts
	s.resp, s.idle = resp, idle
	s.mu.Unlock()
	if s.closed.Load() {
		// Close ran while this reply was being fetched and did not see it.
		idle.Stop()
		resp.close()
	}
	// A whole JSON reply or a page is read as one document: any byte of it
	// is life. An event stream lives only by its data and comment lines.
	body := &activityReader{r: resp.Body, t: idle, d: limit}
	s.dec = chunkDecoder{}
	// Text held back from a failed attempt was never shown.
	s.mask.reset()
	s.rmask.reset()
	s.think = thinkSplitter{}
	s.sse = newSSEReader(resp.Body)
	s.sse.alive = func() { idle.Reset(limit) }
	s.sse.maxNoise = s.c.maxReply
	switch mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt {
	case "application/json":
		s.fromJSON(body)
	case "text/html":
		// A captive portal or a web page at the base URL, not a gateway.
		page, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
		title := htmlTitle(page)
		if title == "" {
			title = "no title"
		}
		s.pendingErr = fmt.Errorf("the gateway answered with a web page (%q) instead of an event stream: check the base URL %s", s.c.red.mask(title), s.c.baseStr)
	}
}

// activityReader re-arms the idle timer whenever bytes arrive.
type activityReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.t.Reset(a.d)
	}
	return n, err
}

// Recv returns the next event. It returns io.EOF after a proper end ([DONE],
// or a finish reason followed by the end of the body), ErrStreamEndedEarly
// (possibly wrapping the network error) when the body ends without either,
// an *APIError for an error the gateway sent inside the stream, a
// *TimeoutError when nothing arrived for Timeouts.StreamIdle or the reply
// outlasted Timeouts.Reply, the caller's
// context error after a cancel, and ErrStreamClosed after Close. Once it
// returned an error it keeps returning it.
//
// A stream that fails before delivering any text (cut, ended early, or a
// retryable error event) is reopened transparently within the retry budget:
// the caller has seen at most a role, so nothing is duplicated. Once text
// was delivered a failure is final, since a retry would start the reply
// over.
func (s *Stream) Recv() (StreamEvent, error) {
	for {
		if s.err != nil {
			if ev := s.deliver(s.capped(s.held())); ev != (StreamEvent{}) {
				return ev, nil
			}
			return StreamEvent{}, s.err
		}
		if len(s.pending) > 0 {
			ev := s.deliver(s.capped(s.masked(s.pending[0])))
			s.pending = s.pending[1:]
			if ev != (StreamEvent{}) {
				return ev, nil
			}
			continue
		}
		if s.pendingErr != nil {
			s.fail(s.pendingErr)
			continue
		}
		ev, err := s.sse.next()
		if err != nil {
			if err == io.EOF {
				err = s.atEOF()
			} else {
				err = s.readErr(err)
			}
			s.fail(err)
			continue
		}
		out, err := s.handle(ev)
		if err != nil {
			s.fail(err)
			continue
		}
		// An event can be empty from the start (a keep-alive chunk) or
		// once a repeated role is dropped.
		out = s.deliver(s.capped(s.masked(out)))
		s.sse.charge(eventNoise(len(ev.Data), out))
		if out != (StreamEvent{}) {
			return out, nil
		}
	}
}

// eventEnvelope is what an event that carries reply text may spend on
// its envelope without counting as noise: real chunks (ids, model names,
// an obfuscation pad) take a few hundred bytes.
const eventEnvelope = 4 << 10

// eventNoise is how many of an event's n data bytes carried nothing: all
// of an event that delivered nothing, the envelope past eventEnvelope of
// one that did.
func eventNoise(n int, out StreamEvent) int64 {
	if out.Image != nil {
		return 0 // the bytes carried an image
	}
	if out == (StreamEvent{}) {
		return int64(n) + 1
	}
	return int64(max(0, n-len(out.Text)-len(out.Reasoning)-out.ToolCalls.size()-eventEnvelope))
}

// masked takes a <think> opening the content out into the reasoning and
// masks the key in both. Text that may be the start of a tag or of the
// key is held back until the next event shows more; an event that
// finishes the reply takes along whatever is held.
func (s *Stream) masked(ev StreamEvent) StreamEvent {
	r, a := s.think.write(ev.Text)
	if ev.FinishReason != "" {
		r2, a2 := s.think.flush()
		r, a = r+r2, a+a2
	}
	ev.Reasoning = s.rmask.write(ev.Reasoning + r)
	ev.Text = s.mask.write(a)
	if ev.FinishReason != "" {
		ev.Reasoning += s.rmask.flush()
		ev.Text += s.mask.flush()
	}
	return ev
}

// held is what is still held back when the stream ends: an undecided
// tag, an unclosed <think> (reasoning), the start of a key.
func (s *Stream) held() StreamEvent {
	r, a := s.think.flush()
	return StreamEvent{
		Reasoning: s.rmask.write(r) + s.rmask.flush(),
		Text:      s.mask.write(a) + s.mask.flush(),
	}
}

// capped holds the reply to the client's text cap, reasoning and answer
// together: the event's reasoning, then its text, is cut where the cap is
// reached, and the stream then ends with a *ReplyTooLargeError at once
// (the connection is closed, nothing more is read), after the cut text is
// returned. An event cut by the cap no longer finishes the reply.
func (s *Stream) capped(ev StreamEvent) StreamEvent {
	if ev.Text == "" && ev.Reasoning == "" {
		return ev
	}
	limit := s.c.maxReply
	if room := limit - s.textBytes; int64(len(ev.Reasoning)+len(ev.Text)) > room {
		ev.Reasoning = cutText(ev.Reasoning, room)
		ev.Text = cutText(ev.Text, room-int64(len(ev.Reasoning)))
		ev.FinishReason, ev.Usage = "", nil
		// What they hold comes after the cut.
		s.mask.reset()
		s.rmask.reset()
		s.think = thinkSplitter{}
		s.pending, s.pendingErr = nil, nil
		switch s.err {
		case nil:
			s.err = &ReplyTooLargeError{Limit: limit, Kept: true}
			s.c.tracef("! the reply passed max_reply_bytes (%s); reading stopped\n", bytesize.Format(limit))
			s.release(s.err)
		case io.EOF:
			s.err = &ReplyTooLargeError{Limit: limit, Kept: true}
		}
	}
	s.textBytes += int64(len(ev.Reasoning) + len(ev.Text))
	return ev
}

// fail ends the stream with err (io.EOF for a proper end), unless the
// failure came before any text and a retry is left, in which case the
// request is sent again.
func (s *Stream) fail(err error) {
	s.pendingErr = nil
	s.pending = nil
	if err != io.EOF && s.reopen(err) {
		return
	}
	switch {
	case err == io.EOF:
	case s.closed.Load():
		err = ErrStreamClosed
	case s.caller.Err() == nil:
		err = s.c.replyTimedOut(s.ctx, err)
	}
	s.err = err
	s.release(err)
}

func (s *Stream) reopen(err error) bool {
	if s.gotText || s.finished || s.closed.Load() || s.caller.Err() != nil || s.attempts > s.c.retry.MaxRetries {
		return false
	}
	var apiErr *APIError
	switch {
	case errors.Is(err, ErrStreamEndedEarly):
	case errors.As(err, &apiErr) && retryableAPIError(apiErr):
	default:
		return false
	}
	s.release(err)
	wait := s.c.retry.backoff(s.attempts)
	reason := retryReason(err)
	s.c.tracef("! stream failed before any text (%v); retrying in %s (attempt %d of %d, %s)\n", err, wait.Round(time.Millisecond), s.attempts+1, s.c.retry.MaxRetries+1, reason)
	noticeRetry(s.ctx, RetryNotice{Attempt: s.attempts + 1, Attempts: s.c.retry.MaxRetries + 1, Wait: wait, At: s.c.clock.now().Add(wait), Reason: reason, Err: err})
	if !s.c.clock.sleep(s.ctx, wait) {
		return false
	}
	resp, serr := s.c.send(s.ctx, s.req, s.attempts)
	if serr != nil {
		s.err = serr
		if s.closed.Load() {
			s.err = ErrStreamClosed
		} else if s.caller.Err() != nil {
			s.err = s.caller.Err()
		} else {
			s.err = s.c.replyTimedOut(s.ctx, serr)
		}
		s.cancel(nil)
		return true // s.err is set: Recv returns it
	}
	s.attach(resp)
	return true
}

// release closes the current reply and stops its timer.
func (s *Stream) release(why error) {
	if resp := s.closeReply(); resp != nil {
		how := "ended"
		if why != io.EOF {
			how = fmt.Sprintf("failed (%v)", why)
		}
		s.c.tracef("< stream %s after %s, %d events\n", how, time.Since(resp.start).Round(time.Millisecond), s.events)
	}
	if s.err != nil {
		s.cancel(nil)
	}
}

// Close stops the stream and releases its connection. It is idempotent and
// safe after the caller's context was cancelled or the stream ended, and
// from another goroutine while Recv is blocked (Recv then returns
// ErrStreamClosed).
func (s *Stream) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.cancel(errStreamClosed)
	s.closeReply()
	return nil
}

// closeReply stops the idle timer and closes the current reply, which it
// returns (nil before the first reply). Closing a reply twice is harmless.
func (s *Stream) closeReply() *response {
	s.mu.Lock()
	resp, idle := s.resp, s.idle
	s.mu.Unlock()
	if idle != nil {
		idle.Stop()
	}
	if resp != nil {
		resp.close()
	}
	return resp
}
