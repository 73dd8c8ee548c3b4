package cli

import "io"

// reasoningWriter writes a reply's reasoning to stderr, apart from the
// answer on stdout: dim on a terminal, plain text otherwise (--reasoning
// into a file or a pipe). Like the answer it is made inert for the
// terminal unless raw, and it ends with one newline, so the answer that
// follows on the same terminal starts on a line of its own.
type reasoningWriter struct {
	streamText
	dim  bool
	done bool
}

// Dim and back, as SGR 2 and SGR 22 (normal intensity, which leaves colours
// the terminal was using alone).
const (
	sgrDim    = "\x1b[2m"
	sgrNormal = "\x1b[22m"
)

func newReasoningWriter(w io.Writer, raw, dim bool) *reasoningWriter {
	r := &reasoningWriter{streamText: streamText{w: w, raw: raw}, dim: dim}
	if dim {
		r.first = sgrDim
	}
	return r
}

// Write adds a delta of the reasoning. After Close it writes nothing: a
// reasoning delta after the answer began (no gateway sends one) would be
// lost in the answer's lines.
func (r *reasoningWriter) Write(delta string) {
	if !r.done {
		r.write(delta)
	}
}

// Close ends the reasoning: what the sanitiser held back, normal
// intensity again and one final newline, once, when anything was written.
func (r *reasoningWriter) Close() {
	if r.done {
		return
	}
	r.flush()
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
