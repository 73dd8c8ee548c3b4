package api

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// fromJSON reads a whole JSON reply and queues its content as events.
func (s *Stream) fromJSON(body io.Reader) {
	limit := replyBodyLimit(s.c.maxReply)
	data, err := io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		s.pendingErr = s.readErr(err)
		return
	}
	over := int64(len(data)) > limit
	if over {
		data = data[:limit]
	}
	reply, tooLarge, ok := capReply(data, over, s.c.maxReply)
	switch {
	case tooLarge != nil && !tooLarge.Kept:
		s.pendingErr = tooLarge
		return
	case !ok:
		if eb, ok := parseJSONError(bytes.TrimSpace(data)); ok {
			s.pendingErr = s.streamError(eb)
			return
		}
		s.pendingErr = fmt.Errorf("the gateway answered the streaming request with JSON that is not a chat reply: check the base URL %s", s.c.baseStr)
		return
	}
	ch := reply.Choices[0]
	finish := ch.FinishReason
	if finish == "" {
		finish = "stop"
	}
	if tooLarge != nil {
		// The text is delivered, then the error ends the stream.
		s.pending = append(s.pending, StreamEvent{Reasoning: ch.Reasoning, Text: ch.Message.Content.PlainText(), Role: ch.Message.Role})
		s.pendingErr = tooLarge
		return
	}
	for _, img := range s.images.decode(ch.Images) {
		s.pending = append(s.pending, StreamEvent{Image: &img})
	}
	s.pending = append(s.pending, StreamEvent{Reasoning: ch.Reasoning, Text: ch.Message.Content.PlainText(), Role: ch.Message.Role, FinishReason: finish, Usage: reply.Usage})
	s.pendingErr = io.EOF
}

// deliver records what the caller has seen.
func (s *Stream) deliver(ev StreamEvent) StreamEvent {
	if ev.Role != "" {
		if s.gotRole {
			ev.Role = ""
		}
		s.gotRole = true
	}
	if ev == (StreamEvent{}) {
		return ev
	}
	if ev.Text != "" || ev.Reasoning != "" || ev.Image != nil {
		// A retry would start the reasoning (and the images) over as well.
		s.gotText = true
	}
	if ev.FinishReason != "" {
		s.finished = true
	}
	s.events++
	return ev
}

// handle turns one SSE event into a StreamEvent (possibly empty).
func (s *Stream) handle(ev sseEvent) (StreamEvent, error) {
	data := bytes.TrimSpace(ev.Data)
	if len(data) == 0 {
		return StreamEvent{}, nil
	}
	if string(data) == "[DONE]" {
		return StreamEvent{}, io.EOF
	}
	if ev.Type == "error" {
		eb, ok := parseErrorBody(data, "")
		if !ok {
			eb.Message = "the gateway sent an error event"
		}
		return StreamEvent{}, s.streamError(eb)
	}
	chunk, isErr, err := s.dec.decode(data)
	if err != nil {
		if ev.Incomplete {
			// The body ended in the middle of a chunk: a cut, not a
			// malformed chunk.
			return StreamEvent{}, s.atEOF()
		}
		return StreamEvent{}, fmt.Errorf("the gateway sent a stream chunk that is not valid JSON (%w); the text so far was kept", err)
	}
	if isErr {
		eb, _ := parseErrorBody(data, "application/json")
		return StreamEvent{}, s.streamError(eb)
	}
	var out StreamEvent
	for i := range chunk.Choices {
		ch := &chunk.Choices[i]
		if ch.Index != 0 {
			continue // parley asks for one choice; others are ignored
		}
		if ch.Delta != nil {
			out.Text = ch.Delta.Content
			out.Role = ch.Delta.Role
			// A gateway moving from one name to the other may send both.
			out.Reasoning = cmp.Or(ch.Delta.ReasoningContent, ch.Delta.Reasoning)
			if len(ch.Delta.ToolCalls) > 0 {
				out.ToolCalls = &ToolCallDeltas{Calls: slices.Clone(ch.Delta.ToolCalls)}
			}
			out.Image = s.queueImages(s.images.decode(ch.Delta.Images))
		}
		if ch.FinishReason != nil {
			out.FinishReason = *ch.FinishReason
		}
		break
	}
	if chunk.Usage != nil {
		out.Usage = chunk.Usage.Clone()
	}
	if out.FinishReason == "error" {
		// OpenRouter marks a failed generation this way; the error object
		// usually comes along and was handled above.
		s.pendingErr = s.streamError(errorBody{Message: "the model stopped with an error"})
		out.FinishReason = ""
	}
	return out, nil
}

// queueImages returns the first of a chunk's images for its own event and
// queues the others as events of their own, delivered before the next
// chunk is read.
func (s *Stream) queueImages(imgs []ReplyImage) *ReplyImage {
	if len(imgs) == 0 {
		return nil
	}
	for i := range imgs[1:] {
		s.pending = append(s.pending, StreamEvent{Image: &imgs[1+i]})
	}
	return &imgs[0]
}

// streamError builds the APIError for an error reported inside the stream.
func (s *Stream) streamError(eb errorBody) *APIError {
	e := &APIError{InStream: true, Attempts: s.attempts}
	s.c.fill(e, eb)
	// OpenRouter and vLLM put an HTTP status in "code".
	if n, err := strconv.Atoi(e.Code); err == nil && n >= 400 && n <= 599 {
		e.StatusCode = n
	}
	if e.Message == "" {
		e.Message = "no message"
	}
	s.c.annotate(e, s.req.model)
	e.aboutParam(s.req)
	return e
}

// atEOF decides what the end of the body means.
func (s *Stream) atEOF() error {
	if s.finished {
		return io.EOF
	}
	return ErrStreamEndedEarly
}

// readErr explains why reading the body failed.
func (s *Stream) readErr(err error) error {
	var tooLarge *EventTooLargeError
	var noise *StreamNoiseError
	switch {
	case errors.As(err, &tooLarge), errors.As(err, &noise):
		return err
	case s.closed.Load():
		return ErrStreamClosed
	case s.caller.Err() != nil:
		return s.caller.Err()
	case errors.Is(context.Cause(s.ctx), errReplyTimeout):
		return s.c.replyTimedOut(s.ctx, err)
	case errors.Is(context.Cause(s.resp.ctx), errIdleTimeout):
		return &TimeoutError{Phase: PhaseStreamIdle, Limit: s.c.timeouts.StreamIdle, Host: origin(s.c.base)}
	}
	return &streamCutError{err: err}
}
