package termprobe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/term"
)

// ProbeTimeout bounds how long the terminal has to answer: a local
// terminal answers in a millisecond or two, one over SSH in a round trip.
const ProbeTimeout = 700 * time.Millisecond

// maxAnswer is the most bytes of answers read: the answers to Queries are
// a few hundred bytes, keys typed meanwhile a few more.
const maxAnswer = 64 << 10

// Probe asks the terminal on tty (the controlling terminal, /dev/tty) the
// queries (QueriesFor) and reads its answers for at most timeout, with the terminal in
// raw mode meanwhile (restored before it returns). It is for commands
// outside the chat (`parley doctor`); the chat reads the answers as
// messages instead. A terminal that does not answer DA1 in time gives the
// facts that came and an error saying so.
func Probe(tty *os.File, queries string, timeout time.Duration) (Facts, error) {
	var f Facts
	state, err := term.MakeRaw(tty.Fd())
	if err != nil {
		return f, fmt.Errorf("cannot put the terminal in raw mode to ask what it draws: %w", err)
	}
	defer func() { _ = term.Restore(tty.Fd(), state) }()
	return ask(tty, queries, timeout)
}

// conn is the terminal as ask uses it: what it writes and reads, with a
// time limit on reading.
type conn interface {
	io.ReadWriter
	SetReadDeadline(time.Time) error
}

// ask writes the queries to c and reads the answers (Probe's work once the
// terminal is in raw mode).
func ask(c conn, queries string, timeout time.Duration) (Facts, error) {
	var f Facts
	tty := c
	if _, err := io.WriteString(tty, queries); err != nil {
		return f, fmt.Errorf("cannot ask the terminal what it draws: %w", err)
	}
	deadline := time.Now().Add(timeout)
	if err := tty.SetReadDeadline(deadline); err != nil {
		return f, fmt.Errorf("cannot wait for the terminal's answer with a time limit: %w", err)
	}
	var dec uv.EventDecoder
	buf := make([]byte, 0, 4096)
	chunk := make([]byte, 1024)
	for !f.Answered && len(buf) < maxAnswer {
		n, err := tty.Read(chunk)
		buf = append(buf, chunk[:n]...)
		buf = takeAll(&dec, buf, &f)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return f, fmt.Errorf("the terminal did not answer within %v", timeout)
		}
		if err != nil {
			return f, fmt.Errorf("reading the terminal's answer failed: %w", err)
		}
	}
	return f, nil
}

// takeAll decodes the whole answers in buf into f and returns what is left
// of a sequence still coming. The decoder reads the start of a sequence
// that ends the buffer as an unknown event or a key ("\x1b[" as alt+[):
// such a start is kept for the next read, since a terminal's answers
// may come in pieces (over SSH, or written by the terminal one by one).
func takeAll(dec *uv.EventDecoder, buf []byte, f *Facts) []byte {
	for len(buf) > 0 {
		n, ev := dec.Decode(buf)
		if n == 0 || n == len(buf) && incomplete(buf, ev) {
			break
		}
		if multi, ok := ev.(uv.MultiEvent); ok {
			for _, e := range multi {
				f.Take(e)
			}
		} else {
			f.Take(ev)
		}
		buf = buf[n:]
	}
	return buf
}

// incomplete reports whether ev, decoded from all of buf, may be the start
// of a sequence rather than a whole one: an unknown sequence, or a key
// with an escape ("\x1b[" reads as alt+[). Keys are not answers, so
// holding a real one back loses nothing.
func incomplete(buf []byte, ev uv.Event) bool {
	switch ev.(type) {
	case uv.UnknownEvent, uv.KeyPressEvent:
		return buf[0] == 0x1b
	}
	return false
}
