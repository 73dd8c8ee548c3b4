package api

import (
	"bytes"
	"fmt"
	"io"
)

// The body of a chat request is written as it is sent. A conversation is
// sent whole with every turn, so a long one makes a large body (a
// 10,000-message session is about 6 MB of JSON), and json.Marshal held
// several copies of it at once (the encoder's buffer and its result, twice
// over through MarshalJSON), which stayed in the process's memory long
// after. chatBody escapes each message's strings straight from the
// conversation into a buffer of about bodyChunk bytes, one piece at a time
// as the transport reads it; its bytes are json.Marshal's, byte for byte
// (TestChatBodyMatchesMarshal). The request still says its
// Content-Length, counted by a first pass over the same pieces, so
// gateways see the body as before (no chunked transfer encoding), and a
// retry or a redirect reads a new chatBody from the request instead of a
// kept copy.

// bodyChunk is about how much of the body is made ahead of the transport.
const bodyChunk = 32 << 10

// piece is one part of the body still to write: text as it is, or
// (escape) the contents of a JSON string, from pos on.
type piece struct {
	s      string
	escape bool
	pos    int
}

// chatBody reads as the JSON of a chat request: head, the messages, tail.
type chatBody struct {
	head, tail string
	msgs       []Message
	next       int     // the next message to queue
	stage      int     // 0: head to queue, 1: messages, 2: tail queued
	queue      []piece // the pieces of the part being written
	qi         int     // the first of them not written yet
	buf        []byte
	off        int
}

// chatEnvelope returns the JSON of r around its messages: everything
// before the first message and everything after the last, from the one
// encoding of the request's other fields (chatEnvelopeJSON), so the
// parameters and their order are json.Marshal's.
func chatEnvelope(r ChatRequest) (head, tail string, err error) {
	if r.Messages == nil {
		// "messages": null, and nothing to write around.
		whole, err := chatEnvelopeJSON(r)
		return string(whole), "", err
	}
	r.Messages = []Message{}
	whole, err := chatEnvelopeJSON(r)
	if err != nil {
		return "", "", err
	}
	head = `{"model":"` + string(appendJSONString(nil, r.Model)) + `","messages":[`
	if !bytes.HasPrefix(whole, []byte(head+"]")) {
		return "", "", fmt.Errorf("the request's fields do not start with the model and the messages: %.60s", whole)
	}
	return head, string(whole[len(head):]), nil
}

// chatSource is what a chat request's body is made from, and its length.
type chatSource struct {
	head, tail string
	msgs       []Message
	size       int64
}

// open returns a reader of the body from its start.
func (c *chatSource) open() io.Reader { return newChatBody(c.head, c.tail, c.msgs) }

// newChatBody returns a reader of the body of a request whose envelope
// chatEnvelope made.
func newChatBody(head, tail string, msgs []Message) *chatBody {
	return &chatBody{head: head, tail: tail, msgs: msgs}
}

// chatBodySize is the length of the body, counted by writing it.
func chatBodySize(head, tail string, msgs []Message) int64 {
	b := newChatBody(head, tail, msgs)
	var n int64
	for b.fill() {
		n += int64(len(b.buf))
	}
	return n
}

// Read implements io.Reader.
func (b *chatBody) Read(p []byte) (int, error) {
	for b.off == len(b.buf) {
		if !b.fill() {
			return 0, io.EOF
		}
	}
	n := copy(p, b.buf[b.off:])
	b.off += n
	return n, nil
}

// fill makes the next stretch of the body in buf; false at the end.
func (b *chatBody) fill() bool {
	b.buf, b.off = b.buf[:0], 0
	for len(b.buf) < bodyChunk {
		if b.qi == len(b.queue) && !b.queueNext() {
			break
		}
		p := &b.queue[b.qi]
		if !p.escape {
			b.buf = append(b.buf, p.s...)
			b.qi++
			continue
		}
		end := jsonCut(p.s, p.pos, bodyChunk-len(b.buf))
		b.buf = appendJSONString(b.buf, p.s[p.pos:end])
		if p.pos = end; end == len(p.s) {
			b.qi++
		}
	}
	return len(b.buf) > 0
}

// queueNext queues the next part of the body: the head, a message, the
// tail; false when all is written.
func (b *chatBody) queueNext() bool {
	q := b.queue[:0]
	switch {
	case b.stage == 0:
		q = append(q, piece{s: b.head})
		b.stage = 1
	case b.next < len(b.msgs):
		if b.next > 0 {
			q = append(q, piece{s: ","})
		}
		q = queueMessage(q, &b.msgs[b.next])
		b.next++
	case b.stage == 1:
		q = append(q, piece{s: b.tail})
		b.stage = 2
	default:
		return false
	}
	b.queue, b.qi = q, 0
	return true
}

// queueMessage adds the pieces of m, as json.Marshal writes a Message
// (and Content, Part and ImageURL with their MarshalJSON), to q.
func queueMessage(q []piece, m *Message) []piece {
	q = append(q, piece{s: `{"role":"`}, piece{s: m.Role, escape: true}, piece{s: `","content":`})
	if m.Content.Parts == nil {
		if m.Content.Text == "" && len(m.ToolCalls) > 0 {
			// An assistant turn that only called tools: null, as the
			// interface writes it (Message.MarshalJSON agrees).
			q = append(q, piece{s: `null`})
		} else {
			q = append(q, piece{s: `"`}, piece{s: m.Content.Text, escape: true}, piece{s: `"`})
		}
		return queueToolFields(q, m)
	}
	q = append(q, piece{s: "["})
	for i, p := range m.Content.Parts {
		if i > 0 {
			q = append(q, piece{s: ","})
		}
		q = append(q, piece{s: `{"type":"`}, piece{s: p.Type, escape: true})
		switch {
		case p.Type == PartText:
			q = append(q, piece{s: `","text":"`}, piece{s: p.Text, escape: true}, piece{s: `"}`})
		case p.ImageURL != nil:
			q = append(q, piece{s: `","image_url":{"url":"`}, piece{s: p.ImageURL.URL, escape: true}, piece{s: `"}}`})
		default:
			q = append(q, piece{s: `"}`})
		}
	}
	return queueToolFields(append(q, piece{s: "]"}), m)
}

// queueToolFields ends a message with its tool_calls and tool_call_id,
// when it has them.
func queueToolFields(q []piece, m *Message) []piece {
	if len(m.ToolCalls) > 0 {
		q = queueToolCalls(q, m.ToolCalls)
	}
	if m.ToolCallID != "" {
		q = append(q, piece{s: `,"tool_call_id":"`}, piece{s: m.ToolCallID, escape: true}, piece{s: `"`})
	}
	return append(q, piece{s: "}"})
}

// queueToolCalls writes an assistant message's tool_calls member.
func queueToolCalls(q []piece, calls []ToolCall) []piece {
	q = append(q, piece{s: `,"tool_calls":[`})
	for i, c := range calls {
		if i > 0 {
			q = append(q, piece{s: ","})
		}
		q = append(q, piece{s: `{"id":"`}, piece{s: c.ID, escape: true}, piece{s: `","type":"`}, piece{s: c.Type, escape: true},
			piece{s: `","function":{"name":"`}, piece{s: c.Function.Name, escape: true},
			piece{s: `","arguments":"`}, piece{s: c.Function.Arguments, escape: true}, piece{s: `"}}`})
	}
	return append(q, piece{s: "]"})
}
