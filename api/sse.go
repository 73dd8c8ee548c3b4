package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"parley/internal/bytesize"
)

// sseEvent is one dispatched server-sent event. Data aliases the reader's
// buffer and is valid only until the next call to next.
type sseEvent struct {
	Type string // the "event:" field; "" means the default type "message"
	ID   string // the last event ID seen so far in the stream
	Data []byte // the data lines joined by "\n"
	// Incomplete is set on an event flushed at the end of the input without
	// the blank line that should close it. The WHATWG rules discard such an
	// event; parley hands it over so the caller can decide (a truncated JSON
	// chunk is a cut connection, a lone "[DONE]" is a normal end).
	Incomplete bool
}

const (
	sseBufSize = 32 << 10 // read buffer; longer lines are streamed through it
	// sseMaxField caps what is kept of an "event:" or "id:" value. parley
	// does not use them, and a cap keeps a hostile stream from growing memory
	// through fields nobody reads.
	sseMaxField = 1 << 10
	// sseShrinkData: after an event larger than this, the data buffer is
	// dropped instead of kept for reuse, so one huge event does not pin its
	// memory for the rest of the stream.
	sseShrinkData = 1 << 20
	// sseMaxEvent caps the data of one event. Real chunks are a few hundred
	// bytes; a chat reply with an image inline stays well below it. Without
	// a cap one endless "data:" line would take all memory.
	sseMaxEvent = 16 << 20
)

// EventTooLargeError is a stream event whose data passed the size cap.
type EventTooLargeError struct {
	Limit int // bytes
}

func (e *EventTooLargeError) Error() string {
	return fmt.Sprintf("the gateway sent one stream event larger than %s, more than any reply needs, so parley stopped reading; the text so far was kept (a broken gateway or proxy?)", bytesize.Format(int64(e.Limit)))
}

// errSSENoProgress reports a source that keeps returning zero bytes and no error.
var errSSENoProgress = errors.New("the event stream made no progress: the reader returned no data 100 times in a row")

// lineMode says where the bytes of a line longer than the read buffer go.
type lineMode uint8

const (
	modeNone    lineMode = iota // no long line in progress
	modeDiscard                 // comment or unknown field: drop the bytes
	modeData                    // "data" field: append to the data buffer
	modeEvent                   // "event" field
	modeID                      // "id" field
	modeRetry                   // "retry" field
)

// byteFinder remembers where the next occurrence of one byte is, so that
// scanning for CR in an LF stream (or LF in a CR stream) stays linear
// instead of rescanning the rest of the buffer for every line.
type byteFinder struct {
	at    int // absolute index of the next occurrence at or after r; -1 if unknown or none
	clean int // buf[..clean) is known to hold no occurrence after the last search
}

func (f *byteFinder) find(buf []byte, r, w int, b byte) int {
	if f.at >= r {
		return f.at
	}
	from := max(r, f.clean)
	if i := bytes.IndexByte(buf[from:w], b); i >= 0 {
		f.at = from + i
		return f.at
	}
	f.at, f.clean = -1, w
	return -1
}

func (f *byteFinder) shift(n int) {
	if f.at >= 0 {
		f.at -= n
	}
	f.clean = max(0, f.clean-n)
}

// sseReader parses a text/event-stream body by the WHATWG rules: LF, CR and
// CRLF line endings, one leading BOM ignored, comment lines, "field: value"
// with one optional space, multi-line data joined by "\n", and the
// event/id/retry fields recorded. The read buffer has a fixed size; a line
// longer than it is streamed field by field, so memory grows only with the
// data an event really carries, and lines of any length work.
type sseReader struct {
	src  io.Reader
	buf  []byte
	r, w int   // unread bytes are buf[r:w]
	err  error // sticky error of src, acted on once buf holds no full line

	cr, lf byteFinder

	started bool // the BOM check is done
	skipLF  bool // the last line ended in CR: a LF right after it belongs to it
	done    bool // EOF or an error was returned; later calls repeat it
	reset   bool // the last call dispatched an event: clear its buffers first

	mode       lineMode // where a long line's bytes go
	stripSpace bool     // a long line's colon was the last byte read: drop one space next

	data      []byte // data buffer: every data line followed by "\n"
	hasData   bool   // at least one data line arrived (even an empty one)
	eventType []byte
	id        []byte
	idStr     string // string form of id, converted only when it changes
	idDirty   bool
	field     []byte // value of a long event/id/retry line in progress
	fieldNUL  bool   // the long line's value held a NUL, kept or past the cap
	retry     time.Duration
	maxEvent  int  // cap on len(data); tests lower it
	tooLarge  bool // data passed maxEvent: the stream ends with EventTooLargeError

	// noise counts the bytes that carry no reply (blank lines that end no
	// event, comments, fields parley does not use, and what the caller
	// charges for events that delivered nothing); past maxNoise (0: no cap)
	// the stream ends with StreamNoiseError. Without it a gzip body of a
	// few megabytes could expand to gigabytes of blank lines, each parsed.
	noise    int64
	maxNoise int64
	// alive is called for every data or comment line (a comment is the
	// keep-alive SSE defines): the stream's idle timer. Blank lines and
	// other fields are not life.
	alive func()
}

func newSSEReader(src io.Reader) *sseReader {
	return newSSEReaderSize(src, sseBufSize)
}

// sseMinBuf is the smallest buffer that still holds the longest field name
// with its colon ("retry:"), which startLong relies on.
const sseMinBuf = 8

// newSSEReaderSize exists so tests can use tiny buffers and reach the
// long-line path with short inputs.
func newSSEReaderSize(src io.Reader, size int) *sseReader {
	return &sseReader{
		src:      src,
		buf:      make([]byte, max(size, sseMinBuf)),
		cr:       byteFinder{at: -1},
		lf:       byteFinder{at: -1},
		maxEvent: sseMaxEvent,
	}
}

// Retry is the last valid "retry:" value, 0 if none was seen.
func (s *sseReader) Retry() time.Duration { return s.retry }

// next returns the next event, io.EOF at the end of the input, or the
// source's error. Events without any data line are not dispatched, as the
// standard says.
func (s *sseReader) next() (sseEvent, error) {
	if s.done {
		return sseEvent{}, s.finalErr()
	}
	if s.overNoise() {
		return s.failNoise()
	}
	if s.reset {
		s.reset = false
		s.hasData = false
		s.eventType = s.eventType[:0]
		if cap(s.data) > sseShrinkData {
			s.data = nil
		} else {
			s.data = s.data[:0]
		}
	}
	for {
		if !s.started && !s.checkBOM() {
			s.fill() // an error is kept in s.err and settled on the next turn
			continue
		}
		if s.skipLF && s.r < s.w {
			if s.buf[s.r] == '\n' {
				s.r++
			}
			s.skipLF = false
		}
		if eol := s.findEOL(); eol >= 0 {
			line := s.buf[s.r:eol]
			s.r = eol + 1
			if s.buf[eol] == '\r' {
				if s.r < s.w {
					if s.buf[s.r] == '\n' {
						s.r++
					}
				} else {
					s.skipLF = true
				}
			}
			ready := s.endLine(line)
			if s.tooLarge {
				return s.failLarge()
			}
			if s.overNoise() {
				return s.failNoise()
			}
			if ready {
				return s.dispatch(false), nil
			}
			continue
		}
		// No full line is buffered.
		if s.err != nil {
			return s.atEnd()
		}
		if s.mode != modeNone {
			s.feedLong(s.buf[s.r:s.w])
			s.r = s.w
		} else if s.r == 0 && s.w == len(s.buf) {
			s.startLong()
			continue
		}
		if s.tooLarge {
			return s.failLarge()
		}
		if s.overNoise() {
			return s.failNoise()
		}
		s.fill()
	}
}

// checkBOM drops a leading U+FEFF. It reports false while too few bytes have
// arrived to tell (a BOM can be split across reads like anything else).
func (s *sseReader) checkBOM() bool {
	const bom = "\xef\xbb\xbf"
	have := s.buf[s.r:s.w]
	n := min(len(have), len(bom))
	if string(have[:n]) != bom[:n] {
		s.started = true
		return true
	}
	if n == len(bom) {
		s.r += len(bom)
		s.started = true
		return true
	}
	if s.err != nil { // input ended inside what looked like a BOM
		s.started = true
		return true
	}
	return false
}

func (s *sseReader) findEOL() int {
	lf := s.lf.find(s.buf, s.r, s.w, '\n')
	end := s.w
	if lf >= 0 {
		end = lf
	}
	// CR is searched only up to the LF: in an LF stream that bounds the
	// search by the line, in a CR stream the finder's cache keeps it linear.
	cr := -1
	if s.cr.at >= s.r {
		cr = s.cr.at
	} else if from := max(s.r, s.cr.clean); from < end {
		if i := bytes.IndexByte(s.buf[from:end], '\r'); i >= 0 {
			cr = from + i
			s.cr.at = cr
		} else {
			s.cr.clean = end
		}
	}
	switch {
	case cr >= 0 && (lf < 0 || cr < lf):
		return cr
	default:
		return lf
	}
}

// fill moves unread bytes to the front and reads more. It returns the
// source's error, which is also kept in s.err.
func (s *sseReader) fill() error {
	if s.r > 0 {
		n := copy(s.buf, s.buf[s.r:s.w])
		s.cr.shift(s.r)
		s.lf.shift(s.r)
		s.w = n
		s.r = 0
	}
	if s.err != nil {
		return s.err
	}
	for range 100 {
		n, err := s.src.Read(s.buf[s.w:])
		if n < 0 || n > len(s.buf)-s.w {
			n = 0
			err = errors.New("the event stream reader returned an invalid byte count")
		}
		s.w += n
		if err != nil {
			s.err = err
			return err
		}
		if n > 0 {
			return nil
		}
	}
	s.err = errSSENoProgress
	return s.err
}

// atEnd handles the end of input: a last unterminated line is processed as a
// line, pending data is flushed as an incomplete event, and then the error
// (io.EOF for a normal end) is returned. On a real read error pending data is
// dropped: it may be cut anywhere.
func (s *sseReader) atEnd() (sseEvent, error) {
	s.done = true
	if s.err != io.EOF {
		return sseEvent{}, s.err
	}
	if s.mode != modeNone {
		s.feedLong(s.buf[s.r:s.w])
		s.r = s.w
		s.endLong()
	} else if s.r < s.w {
		// The last line has no line ending. It cannot be empty, so it
		// cannot dispatch by itself.
		line := s.buf[s.r:s.w]
		s.r = s.w
		s.processLine(line)
	}
	if s.tooLarge {
		return s.failLarge()
	}
	if s.hasData {
		return s.dispatch(true), nil
	}
	return sseEvent{}, io.EOF
}

// StreamNoiseError is a stream that sent more bytes carrying no reply
// (blank lines, comments, empty events) than the reply itself may hold.
type StreamNoiseError struct {
	Limit int64 // bytes
}

func (e *StreamNoiseError) Error() string {
	return fmt.Sprintf("the gateway sent more than %s of stream without any reply in it (empty lines, comments or empty events), so parley stopped reading; the text so far was kept (a broken gateway or proxy?)", bytesize.Format(e.Limit))
}

func (s *sseReader) overNoise() bool { return s.maxNoise > 0 && s.noise > s.maxNoise }

// charge counts n bytes the caller read and found no use for.
func (s *sseReader) charge(n int64) { s.noise += n }

func (s *sseReader) live() {
	if s.alive != nil {
		s.alive()
	}
}

// failNoise ends the stream because too much of it carried nothing.
func (s *sseReader) failNoise() (sseEvent, error) {
	s.done = true
	s.err = &StreamNoiseError{Limit: s.maxNoise}
	s.data = nil
	return sseEvent{}, s.err
}

// failLarge ends the stream because an event passed the cap, dropping what
// was collected of it.
func (s *sseReader) failLarge() (sseEvent, error) {
	s.done = true
	s.err = &EventTooLargeError{Limit: s.maxEvent}
	s.data = nil
	return sseEvent{}, s.err
}

// appendData adds bytes to the event's data unless that would pass the
// cap, in which case it marks the event too large and keeps nothing more.
func (s *sseReader) appendData(p ...byte) {
	if s.tooLarge {
		return
	}
	need := len(s.data) + len(p)
	if need > s.maxEvent {
		s.tooLarge = true
		return
	}
	if need > cap(s.data) {
		// Grow by doubling, up to the cap: append's own growth for large
		// slices (1.25x) would allocate about five times the event in all.
		grown := make([]byte, len(s.data), min(max(need, 2*cap(s.data), 512), s.maxEvent))
		copy(grown, s.data)
		s.data = grown
	}
	s.data = append(s.data, p...)
}

func (s *sseReader) finalErr() error {
	if s.err == nil || s.err == io.EOF {
		return io.EOF
	}
	return s.err
}

// endLine finishes a line whose end was found; line holds its bytes still in
// the buffer (the tail, when the line was long). It reports whether an event
// is ready.
func (s *sseReader) endLine(line []byte) bool {
	if s.mode != modeNone {
		s.feedLong(line)
		s.endLong()
		return false
	}
	return s.processLine(line)
}

// processLine applies one complete line and reports whether it was the blank
// line that dispatches an event with data.
func (s *sseReader) processLine(line []byte) bool {
	if len(line) == 0 {
		if s.hasData {
			return true
		}
		s.noise++
		s.eventType = s.eventType[:0]
		return false
	}
	if line[0] == ':' {
		s.noise += int64(len(line)) + 1
		s.live()
		return false
	}
	var name, value []byte
	if c := bytes.IndexByte(line, ':'); c >= 0 {
		name, value = line[:c], line[c+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	} else {
		name = line
	}
	if string(name) != "data" {
		s.noise += int64(len(line)) + 1
	}
	switch string(name) {
	case "data":
		s.appendData(value...)
		s.appendData('\n')
		s.hasData = true
		s.live()
	case "event":
		s.eventType = append(s.eventType[:0], value[:min(len(value), sseMaxField)]...)
	case "id":
		s.setID(value)
	case "retry":
		s.setRetry(value)
	}
	return false
}

func (s *sseReader) setID(v []byte) {
	if bytes.IndexByte(v, 0) >= 0 {
		return // the standard ignores ids containing NUL
	}
	v = v[:min(len(v), sseMaxField)]
	if !bytes.Equal(v, s.id) {
		s.id = append(s.id[:0], v...)
		s.idDirty = true
	}
}

func (s *sseReader) setRetry(v []byte) {
	if len(v) == 0 {
		return
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return
		}
	}
	if ms, err := strconv.ParseInt(string(v), 10, 64); err == nil && ms <= int64(time.Duration(1<<63-1)/time.Millisecond) {
		s.retry = time.Duration(ms) * time.Millisecond
	}
}

// startLong begins a line that fills the whole buffer without ending. The
// field name is known if a colon is buffered; a name longer than the buffer
// cannot be one of the four fields, so such a line is dropped.
func (s *sseReader) startLong() {
	head := s.buf[s.r:s.w]
	s.mode = modeDiscard
	if head[0] == ':' {
		s.live()
		return
	}
	c := bytes.IndexByte(head, ':')
	if c < 0 {
		return
	}
	value := head[c+1:]
	switch string(head[:c]) {
	case "data":
		s.mode = modeData
	case "event":
		s.mode = modeEvent
	case "id":
		s.mode = modeID
	case "retry":
		s.mode = modeRetry
	}
	s.field = s.field[:0]
	s.fieldNUL = false
	s.stripSpace = true
	s.r += c + 1
	s.feedLong(value)
	s.r = s.w
}

// feedLong takes the next bytes of a long line's value.
func (s *sseReader) feedLong(p []byte) {
	if len(p) == 0 {
		return
	}
	if s.stripSpace {
		s.stripSpace = false
		if p[0] == ' ' {
			p = p[1:]
		}
	}
	if s.mode != modeData {
		s.noise += int64(len(p))
	}
	switch s.mode {
	case modeData:
		s.appendData(p...)
		s.live()
	case modeEvent, modeID:
		if bytes.IndexByte(p, 0) >= 0 {
			// Past the cap too: an id with a NUL anywhere is ignored.
			s.fieldNUL = true
		}
		if room := sseMaxField - len(s.field); room > 0 {
			s.field = append(s.field, p[:min(len(p), room)]...)
		}
	case modeRetry:
		// Keep one byte past any sensible number so an overlong value
		// still fails to parse.
		if room := 24 - len(s.field); room > 0 {
			s.field = append(s.field, p[:min(len(p), room)]...)
		}
	}
}

// endLong completes a long line at its line ending (or at the end of input).
func (s *sseReader) endLong() {
	switch s.mode {
	case modeData:
		s.appendData('\n')
		s.hasData = true
	case modeEvent:
		s.eventType = append(s.eventType[:0], s.field...)
	case modeID:
		if !s.fieldNUL {
			s.setID(s.field)
		}
	case modeRetry:
		s.setRetry(s.field)
	}
	s.mode = modeNone
	s.stripSpace = false
}

func (s *sseReader) dispatch(incomplete bool) sseEvent {
	s.reset = true
	if s.idDirty {
		s.idStr = string(s.id)
		s.idDirty = false
	}
	ev := sseEvent{ID: s.idStr, Data: s.data[:len(s.data)-1], Incomplete: incomplete}
	if len(s.eventType) > 0 {
		ev.Type = string(s.eventType)
	}
	return ev
}
