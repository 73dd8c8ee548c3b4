package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
)

// bodyWriter writes a response body, in pieces of at most size bytes when
// size > 0: each full piece is written and flushed at once, so the cuts fall
// at fixed byte offsets of the body whatever they split. Write errors (the
// client went away) are remembered and make later writes no-ops.
type bodyWriter struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	size int
	pend []byte
	err  error
}

func newBodyWriter(w http.ResponseWriter, size int) *bodyWriter {
	return &bodyWriter{w: w, rc: http.NewResponseController(w), size: size}
}

func (b *bodyWriter) write(p []byte) {
	if b.err != nil {
		return
	}
	if b.size <= 0 {
		_, b.err = b.w.Write(p)
		return
	}
	b.pend = append(b.pend, p...)
	for len(b.pend) >= b.size && b.err == nil {
		b.emit(b.pend[:b.size])
		b.pend = b.pend[b.size:]
	}
}

// eventEnd marks the end of one SSE event: without piece writing, every
// event is flushed on its own so the client sees it at once.
func (b *bodyWriter) eventEnd() {
	if b.size <= 0 {
		b.flush()
	}
}

// flush sends everything written so far (a short last piece included).
func (b *bodyWriter) flush() {
	if b.err != nil {
		return
	}
	if len(b.pend) > 0 {
		b.emit(b.pend)
		b.pend = nil
		return
	}
	b.err = flushErr(b.rc.Flush())
}

func (b *bodyWriter) emit(p []byte) {
	if _, b.err = b.w.Write(p); b.err == nil {
		b.err = flushErr(b.rc.Flush())
	}
}

// flushErr ignores writers that cannot flush (then bytes simply go out later).
func flushErr(err error) error {
	if errors.Is(err, http.ErrNotSupported) {
		return nil
	}
	return err
}

// sseWriter frames events the way Quirks say.
type sseWriter struct {
	out    *bodyWriter
	q      Quirks
	events int // data events written so far
}

func (s *sseWriter) line(text string) {
	s.out.write([]byte(text + s.q.eol()))
}

// start writes what comes before the first event: the BOM and leading comments.
func (s *sseWriter) start() {
	if s.q.BOM {
		s.out.write([]byte("\ufeff"))
	}
	for range s.q.CommentsBefore {
		s.comment()
	}
	if s.q.CommentsBefore > 0 {
		s.out.eventEnd()
	}
}

// comment writes one comment line and the blank line OpenRouter puts after it.
func (s *sseWriter) comment() {
	s.line(s.q.comment())
	s.line("")
}

// event writes one data event.
func (s *sseWriter) event(data []byte) {
	if k := s.q.CommentEvery; k > 0 && s.events > 0 && s.events%k == 0 {
		s.comment()
	}
	if s.q.EventIDRetryLines {
		if s.events == 0 {
			s.line("retry: 3000")
		}
		s.line("id: " + strconv.Itoa(s.events+1))
		s.line("event: message")
	}
	prefix := "data: "
	if s.q.NoSpaceAfterData {
		prefix = "data:"
	}
	lines := [][]byte{data}
	if s.q.MultiLineData && len(data) > 0 && data[0] == '{' {
		lines = splitJSONLines(data)
	}
	for _, l := range lines {
		s.line(prefix + string(l))
	}
	s.line("")
	s.events++
	s.out.eventEnd()
}

func (s *sseWriter) done() { s.event([]byte("[DONE]")) }

// splitJSONLines cuts a JSON object after every comma between its top-level
// members. A reader joins data lines with "\n", which is JSON whitespace, so
// the joined text is the same object.
func splitJSONLines(b []byte) [][]byte {
	var lines [][]byte
	depth, start := 0, 0
	inStr, esc := false, false
	for i, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			lines = append(lines, b[start:i+1])
			start = i + 1
		}
	}
	return append(lines, b[start:])
}

// marshal encodes v without HTML escaping (gateways send "<" as is) and
// without the encoder's trailing newline.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only the package's own wire structs are encoded here.
		panic("fake: encoding a reply: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
