package cli

import (
	"io"
	"strings"

	"parley/termsafe"
)

// reasoningWriter writes a reply's reasoning to stderr, apart from the
// answer on stdout: dim on a terminal, plain text otherwise (--reasoning
// into a file or a pipe). Like the answer it is made inert for the
// terminal unless raw, and it ends with one newline, so the answer that
// follows on the same terminal starts on a line of its own.
type reasoningWriter struct {
	w   io.Writer
	raw bool
	dim bool
	san termsafe.Stream
	// newlines holds back a run of trailing newlines.
	newlines int
	wrote    bool
	done     bool
	err      error
}

// Dim and back, as SGR 2 and SGR 22 (normal intensity, which leaves colours
// the terminal was using alone).
const (
	sgrDim    = "\x1b[2m"
	sgrNormal = "\x1b[22m"
)

func newReasoningWriter(w io.Writer, raw, dim bool) *reasoningWriter {
	return &reasoningWriter{w: w, raw: raw, dim: dim}
}

// Write adds a delta of the reasoning. After Close it writes nothing: a
// reasoning delta after the answer began (no gateway sends one) would be
// lost in the answer's lines.
func (r *reasoningWriter) Write(delta string) {
	if r.done {
		return
	}
	if !r.raw {
		delta = r.san.Write(delta)
	}
	r.emit(delta)
}

// emit writes s, holding back trailing newlines until more text shows they
// were not the end (as replyWriter does), and dropping leading ones.
func (r *reasoningWriter) emit(s string) {
	if r.err != nil {
		return
	}
	if !r.wrote {
		s = strings.TrimLeft(s, "\n")
	}
	body := strings.TrimRight(s, "\n")
	trailing := len(s) - len(body)
	if body == "" {
		if r.wrote {
			r.newlines += trailing
		}
		return
	}
	out := strings.Repeat("\n", r.newlines) + body
	if !r.wrote && r.dim {
		out = sgrDim + out
	}
	r.newlines = trailing
	r.wrote = true
	_, r.err = io.WriteString(r.w, out)
}

// Close ends the reasoning: what the sanitiser held back, normal
// intensity again and one final newline, once, when anything was written.
func (r *reasoningWriter) Close() {
	if r.done {
		return
	}
	if !r.raw {
		r.emit(r.san.Flush())
	}
	r.done = true
	if !r.wrote || r.err != nil {
		return
	}
	end := "\n"
	if r.dim {
		end = sgrNormal + "\n"
	}
	_, r.err = io.WriteString(r.w, end)
}
