package cli

import (
	"io"
	"strings"

	"parley/termsafe"
)

// replyWriter writes a streamed reply to stdout: made inert for the terminal
// (unless raw), and ending with exactly one newline however many the model
// sent, so `parley ask` composes in pipes. The reply is not rendered as
// Markdown (a pipe wants the text), so hostile Markdown costs ask no more
// than any text: the sanitiser is linear, a delta at a time (see
// TestAskHostileMarkdown).
type replyWriter struct {
	w   io.Writer
	raw bool
	san termsafe.Stream
	// newlines holds back a run of trailing newlines until more text shows
	// that they were not the end.
	newlines int
	wrote    bool
	err      error
}

func newReplyWriter(w io.Writer, raw bool) *replyWriter {
	return &replyWriter{w: w, raw: raw}
}

// Write adds a delta of the reply.
func (r *replyWriter) Write(delta string) {
	if !r.raw {
		delta = r.san.Write(delta)
	}
	r.emit(delta)
}

func (r *replyWriter) emit(s string) {
	if r.err != nil {
		return
	}
	if !r.wrote {
		// Leading blank lines of a reply are noise in a pipe.
		s = strings.TrimLeft(s, "\n")
	}
	body := strings.TrimRight(s, "\n")
	trailing := len(s) - len(body)
	if body == "" {
		r.newlines += trailing
		return
	}
	out := strings.Repeat("\n", r.newlines) + body
	r.newlines = trailing
	r.wrote = true
	_, r.err = io.WriteString(r.w, out)
}

// Close writes what the sanitiser held back and the final newline.
func (r *replyWriter) Close() error {
	if !r.raw {
		r.emit(r.san.Flush())
	}
	if r.err == nil {
		_, r.err = io.WriteString(r.w, "\n")
	}
	return r.err
}
