package cli

import (
	"io"
	"strings"

	"parley/termsafe"
)

// streamText writes streamed text made inert for the terminal (unless
// raw), without its leading blank lines, and holding back a run of
// trailing newlines until more text shows they were not the end: what the
// answer and the reasoning writers share.
type streamText struct {
	w   io.Writer
	raw bool
	san termsafe.Stream
	// first goes before the first text written (a style).
	first    string
	newlines int
	wrote    bool
	err      error
}

// write adds a delta.
func (s *streamText) write(delta string) {
	if !s.raw {
		delta = s.san.Write(delta)
	}
	s.emit(delta)
}

// flush writes what the sanitiser held back.
func (s *streamText) flush() {
	if !s.raw {
		s.emit(s.san.Flush())
	}
}

func (s *streamText) emit(text string) {
	if s.err != nil {
		return
	}
	if !s.wrote {
		// Leading blank lines are noise in a pipe.
		text = strings.TrimLeft(text, "\n")
	}
	body := strings.TrimRight(text, "\n")
	trailing := len(text) - len(body)
	if body == "" {
		s.newlines += trailing
		return
	}
	out := strings.Repeat("\n", s.newlines) + body
	if !s.wrote {
		out = s.first + out
	}
	s.newlines = trailing
	s.wrote = true
	_, s.err = io.WriteString(s.w, out)
}

// replyWriter writes a streamed reply to stdout: made inert for the terminal
// (unless raw), and ending with exactly one newline however many the model
// sent, so `parley ask` composes in pipes. The reply is not rendered as
// Markdown (a pipe wants the text), so hostile Markdown costs ask no more
// than any text: the sanitiser is linear, a delta at a time (see
// TestAskHostileMarkdown).
type replyWriter struct {
	streamText
}

func newReplyWriter(w io.Writer, raw bool) *replyWriter {
	return &replyWriter{streamText{w: w, raw: raw}}
}

// Write adds a delta of the reply.
func (r *replyWriter) Write(delta string) { r.write(delta) }

// Close writes what the sanitiser held back and the final newline; a
// reply without text writes nothing (ask says so on stderr).
func (r *replyWriter) Close() error {
	r.flush()
	if r.err == nil && r.wrote {
		_, r.err = io.WriteString(r.w, "\n")
	}
	return r.err
}
