package termsafe

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
