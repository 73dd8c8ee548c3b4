package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// gotEvent is a copied sseEvent (the reader's Data is only valid until the
// next call).
type gotEvent struct {
	Type, ID, Data string
	Incomplete     bool
}

func (e gotEvent) String() string {
	return fmt.Sprintf("{type=%q id=%q data=%q incomplete=%v}", e.Type, e.ID, e.Data, e.Incomplete)
}

func readEvents(r *sseReader) ([]gotEvent, error) {
	var out []gotEvent
	for {
		ev, err := r.next()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			return out, err
		}
		out = append(out, gotEvent{ev.Type, ev.ID, string(ev.Data), ev.Incomplete})
	}
}

// refParse is a deliberately plain, whole-input implementation of the same
// rules, written straight from the WHATWG text; the streaming reader must
// agree with it however its input is cut.
func refParse(in []byte) []gotEvent {
	in = bytes.TrimPrefix(in, []byte("\xef\xbb\xbf"))
	var lines [][]byte
	start := 0
	for i := 0; i < len(in); i++ {
		if c := in[i]; c == '\n' || c == '\r' {
			lines = append(lines, in[start:i])
			if c == '\r' && i+1 < len(in) && in[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	var last []byte
	if start < len(in) {
		last = in[start:]
	}
	var (
		out       []gotEvent
		data      []byte
		hasData   bool
		eventType string
		id        string
	)
	capField := func(v []byte) string { return string(v[:min(len(v), sseMaxField)]) }
	apply := func(line []byte) bool {
		if len(line) == 0 {
			if hasData {
				return true
			}
			eventType = ""
			return false
		}
		if line[0] == ':' {
			return false
		}
		name, value, found := bytes.Cut(line, []byte(":"))
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) {
		case "data":
			data = append(data, value...)
			data = append(data, '\n')
			hasData = true
		case "event":
			eventType = capField(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				id = capField(value)
			}
		}
		return false
	}
	emit := func(incomplete bool) {
		out = append(out, gotEvent{eventType, id, string(data[:len(data)-1]), incomplete})
		data, hasData, eventType = nil, false, ""
	}
	for _, l := range lines {
		if apply(l) {
			emit(false)
		}
	}
	if last != nil {
		apply(last)
	}
	if hasData {
		emit(true)
	}
	return out
}

// sseCases are inputs with what the standard says they mean.
var sseCases = []struct {
	name string
	in   string
	want []gotEvent
}{
	{"lf", "data: a\n\ndata: b\n\n", []gotEvent{{Data: "a"}, {Data: "b"}}},
	{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []gotEvent{{Data: "a"}, {Data: "b"}}},
	{"cr", "data: a\r\rdata: b\r\r", []gotEvent{{Data: "a"}, {Data: "b"}}},
	{"mixed endings", "data: a\r\n\ndata: b\r\rdata: c\n\r\n", []gotEvent{{Data: "a"}, {Data: "b"}, {Data: "c"}}},
	{"bom", "\xef\xbb\xbfdata: a\n\n", []gotEvent{{Data: "a"}}},
	{"only first bom", "\xef\xbb\xbf\xef\xbb\xbfdata: a\n\ndata: b\n\n", []gotEvent{{Data: "b"}}},
	{"no space", "data:a\n\n", []gotEvent{{Data: "a"}}},
	{"one space only", "data:  a\n\n", []gotEvent{{Data: " a"}}},
	{"multi-line", "data: a\ndata:b\ndata\ndata: c\n\n", []gotEvent{{Data: "a\nb\n\nc"}}},
	{"comments", ": keep-alive\n:OPENROUTER PROCESSING\ndata: a\n: x\n\n", []gotEvent{{Data: "a"}}},
	{"event id retry", "event: delta\nid: 7\nretry: 1000\ndata: a\n\ndata: b\n\n",
		[]gotEvent{{Type: "delta", ID: "7", Data: "a"}, {ID: "7", Data: "b"}}},
	{"id with NUL ignored", "id: 1\n\nid: a\x00b\ndata: x\n\n", []gotEvent{{ID: "1", Data: "x"}}},
	{"empty id resets", "id: 1\ndata: a\n\nid\ndata: b\n\n", []gotEvent{{ID: "1", Data: "a"}, {Data: "b"}}},
	{"event without data is not dispatched", "event: ping\n\ndata: a\n\n", []gotEvent{{Data: "a"}}},
	{"empty data is dispatched", "data\n\ndata:\n\n", []gotEvent{{Data: ""}, {Data: ""}}},
	{"unknown fields", "foo: bar\ndata: a\nDATA: b\n\n", []gotEvent{{Data: "a"}}},
	{"colon in value", "data: {\"a\":\"b:c\"}\n\n", []gotEvent{{Data: `{"a":"b:c"}`}}},
	{"unterminated event flushed", "data: a\n\ndata: [DONE]", []gotEvent{{Data: "a"}, {Data: "[DONE]", Incomplete: true}}},
	{"missing blank line", "data: a\n", []gotEvent{{Data: "a", Incomplete: true}}},
	{"blank lines only", "\n\n\r\n\r", nil},
	{"empty", "", nil},
	{"bom only", "\xef\xbb\xbf", nil},
	{"partial bom is data", "\xef\xbbdata: a\n\n", nil},
}

func TestSSECases(t *testing.T) {
	for _, tc := range sseCases {
		t.Run(tc.name, func(t *testing.T) {
			if ref := refParse([]byte(tc.in)); !sameEvents(ref, tc.want) {
				t.Fatalf("reference parser disagrees with the case:\n got %v\nwant %v", ref, tc.want)
			}
			got, err := readEvents(newSSEReader(strings.NewReader(tc.in)))
			if err != nil {
				t.Fatal(err)
			}
			if !sameEvents(got, tc.want) {
				t.Fatalf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}

func sameEvents(a, b []gotEvent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// splitReader hands out its input in the pieces given by cuts.
type splitReader struct {
	in   []byte
	cuts []int // ascending offsets
}

func (s *splitReader) Read(p []byte) (int, error) {
	if len(s.in) == 0 {
		return 0, io.EOF
	}
	n := len(s.in)
	for len(s.cuts) > 0 && s.cuts[0] <= 0 {
		s.cuts = s.cuts[1:]
	}
	if len(s.cuts) > 0 {
		n = min(n, s.cuts[0])
	}
	n = copy(p, s.in[:n])
	s.in = s.in[n:]
	for i := range s.cuts {
		s.cuts[i] -= n
	}
	return n, nil
}

// TestSSESplitEverywhere cuts every case at every byte offset (so also inside
// CRLF pairs, the BOM, "data:" and multi-byte UTF-8) and with buffers small
// enough to force the long-line path; the result must not change.
func TestSSESplitEverywhere(t *testing.T) {
	inputs := []string{
		"data: héllo wörld 世界 🎉\r\n\r\ndata: {\"x\":\"🎉\"}\r\rdata: z\n\n",
		"\xef\xbb\xbf: comment\rdata:a\r\ndata:b\r\n\r\nevent: e\nid: 42\nretry: 5\ndata: [DONE]\n\n",
	}
	for _, tc := range sseCases {
		inputs = append(inputs, tc.in)
	}
	for _, in := range inputs {
		want := refParse([]byte(in))
		for _, size := range []int{sseMinBuf, 9, 13, 16, sseBufSize} {
			for cut := 0; cut <= len(in); cut++ {
				r := newSSEReaderSize(&splitReader{in: []byte(in), cuts: []int{cut}}, size)
				got, err := readEvents(r)
				if err != nil || !sameEvents(got, want) {
					t.Fatalf("input %q, buffer %d, cut at %d:\n got %v (err %v)\nwant %v", in, size, cut, got, err, want)
				}
			}
			got, err := readEvents(newSSEReaderSize(iotest.OneByteReader(strings.NewReader(in)), size))
			if err != nil || !sameEvents(got, want) {
				t.Fatalf("input %q, buffer %d, one byte at a time:\n got %v (err %v)\nwant %v", in, size, got, err, want)
			}
		}
	}
}

// TestSSEHugeLine sends a 3 MiB data line (and a 2 MiB comment and an
// oversized id) one byte short of and across buffer refills; the data must
// arrive whole and memory must stay near what the data needs.
func TestSSEHugeLine(t *testing.T) {
	payload := bytes.Repeat([]byte("0123456789abcdef"), 3<<16) // 3 MiB
	var in bytes.Buffer
	in.WriteString(": ")
	in.Write(bytes.Repeat([]byte{'k'}, 2<<20))
	in.WriteString("\r\nid: ")
	in.Write(bytes.Repeat([]byte{'i'}, 4*sseMaxField))
	in.WriteString("\r\ndata: ")
	in.Write(payload)
	in.WriteString("\r\n\r\ndata: small\n\n")
	for _, rd := range []io.Reader{
		bytes.NewReader(in.Bytes()),
		iotest.HalfReader(bytes.NewReader(in.Bytes())),
	} {
		r := newSSEReader(rd)
		ev, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ev.Data, payload) {
			t.Fatalf("data line of %d bytes came back as %d bytes", len(payload), len(ev.Data))
		}
		if len(ev.ID) != sseMaxField {
			t.Fatalf("id kept %d bytes, want the cap %d", len(ev.ID), sseMaxField)
		}
		if len(r.buf) != sseBufSize {
			t.Fatalf("read buffer grew to %d", len(r.buf))
		}
		// The buffer doubles as it grows, so it may hold up to twice what
		// the data needs (and allocates about that much in all).
		if c := cap(r.data); c > 2*len(payload)+64<<10 {
			t.Fatalf("data buffer capacity %d for %d bytes of data", c, len(payload))
		}
		ev, err = r.next()
		if err != nil || string(ev.Data) != "small" {
			t.Fatalf("event after the huge one: %q, %v", ev.Data, err)
		}
		if cap(r.data) > sseShrinkData {
			t.Fatalf("data buffer kept %d bytes after a huge event", cap(r.data))
		}
	}
}

func TestSSEReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := newSSEReader(io.MultiReader(strings.NewReader("data: a\n\ndata: partial"), iotest.ErrReader(boom)))
	ev, err := r.next()
	if err != nil || string(ev.Data) != "a" {
		t.Fatalf("first event: %q, %v", ev.Data, err)
	}
	if _, err := r.next(); !errors.Is(err, boom) {
		t.Fatalf("want the read error, got %v", err)
	}
	if _, err := r.next(); !errors.Is(err, boom) {
		t.Fatalf("the error must be sticky, got %v", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestSSENoProgress(t *testing.T) {
	if _, err := newSSEReader(zeroReader{}).next(); !errors.Is(err, errSSENoProgress) {
		t.Fatalf("a reader that never returns data must fail, got %v", err)
	}
}

func TestSSERetryField(t *testing.T) {
	r := newSSEReader(strings.NewReader("retry: 1500\ndata: a\n\nretry: x1\ndata: b\n\n"))
	if _, err := readEvents(r); err != nil {
		t.Fatal(err)
	}
	if r.Retry().Milliseconds() != 1500 {
		t.Fatalf("retry = %v, want 1.5s (invalid later value ignored)", r.Retry())
	}
}
