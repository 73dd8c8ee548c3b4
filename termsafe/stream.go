package termsafe

import (
	"fmt"
	"io"
)

// Stream sanitises text that arrives in pieces (stream deltas). A "\r" or an
// incomplete UTF-8 sequence at the end of a delta is held back (at most three
// bytes) until the next Write or Flush, so that for every way of splitting a
// string s into deltas, the concatenated results of Write followed by Flush
// equal Sanitize(s). The zero value is ready to use; a Stream is not safe for
// concurrent use.
type Stream struct {
	held [4]byte
	n    int
}

// Write sanitises the next delta and returns the text that is final so far.
// A clean delta with nothing held is returned as is, without allocating.
func (st *Stream) Write(delta string) string {
	s := delta
	if st.n > 0 {
		s = string(st.held[:st.n]) + delta
		st.n = 0
	}
	out, held := sanitize(s, false, nil)
	st.n = copy(st.held[:], s[len(s)-held:])
	return out
}

// Flush returns the sanitised form of whatever is held back (a lone "\r"
// becomes ␍, an incomplete UTF-8 sequence becomes placeholders) and resets
// the Stream for reuse. Call it when the stream ends, also after an error.
func (st *Stream) Flush() string {
	if st.n == 0 {
		return ""
	}
	out, _ := sanitize(string(st.held[:st.n]), true, nil)
	st.n = 0
	return out
}

// Pending reports whether bytes are held back waiting for the next delta.
func (st *Stream) Pending() bool { return st.n > 0 }

// Writer is an io.Writer that sanitises everything written through it (for
// `parley ask`, which prints a reply as it streams). Call Flush at the end.
type Writer struct {
	w  io.Writer
	st Stream
}

// NewWriter returns a Writer that writes the sanitised text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sanitises p and writes the final part of it to the underlying
// writer. It reports len(p) on success, as the io.Writer contract expects
// for input that was consumed, even when a tail is held back.
func (w *Writer) Write(p []byte) (int, error) {
	return w.WriteString(string(p))
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) {
	out := w.st.Write(s)
	if out == "" {
		return len(s), nil
	}
	if _, err := io.WriteString(w.w, out); err != nil {
		return 0, fmt.Errorf("writing sanitised output: %w", err)
	}
	return len(s), nil
}

// Flush writes whatever is held back.
func (w *Writer) Flush() error {
	out := w.st.Flush()
	if out == "" {
		return nil
	}
	if _, err := io.WriteString(w.w, out); err != nil {
		return fmt.Errorf("writing sanitised output: %w", err)
	}
	return nil
}
