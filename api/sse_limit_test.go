package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// endlessReader produces prefix and then filler bytes forever, counting
// what it handed out.
type endlessReader struct {
	prefix string
	filler byte
	n      int64
}

func (r *endlessReader) Read(p []byte) (int, error) {
	i := 0
	for ; i < len(p) && r.n < int64(len(r.prefix)); i++ {
		p[i] = r.prefix[r.n]
		r.n++
	}
	for ; i < len(p); i++ {
		p[i] = r.filler
		r.n++
	}
	return len(p), nil
}

// linesReader produces the same line forever.
type linesReader struct {
	line string
	off  int
	n    int64
}

func (r *linesReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.line[r.off]
		r.off = (r.off + 1) % len(r.line)
	}
	r.n += int64(len(p))
	return len(p), nil
}

// allocated runs f and returns the bytes it allocated on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestSSEEndlessDataLine: one "data:" line that never ends fails at the
// event cap with EventTooLargeError, having read little more than the cap
// and allocated a bounded amount, instead of growing until memory runs out.
// It runs with the real 16 MiB cap, and with a small one over many shapes.
func TestSSEEndlessDataLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  func() (io.Reader, func() int64)
		cap  int
		// readPerByte bounds the input read per byte of event data: 7 for
		// "data:\r\n" lines, which add one byte each.
		readPerByte int64
	}{
		{"one line, default cap", func() (io.Reader, func() int64) {
			r := &endlessReader{prefix: "data: ", filler: 'a'}
			return r, func() int64 { return r.n }
		}, 0, 1},
		{"one line after an event", func() (io.Reader, func() int64) {
			r := &endlessReader{prefix: "data: {}\n\ndata:", filler: 'b'}
			return r, func() int64 { return r.n }
		}, 1 << 20, 1},
		{"short data lines, no blank line", func() (io.Reader, func() int64) {
			r := &linesReader{line: "data: " + strings.Repeat("x", 90) + "\n"}
			return r, func() int64 { return r.n }
		}, 1 << 20, 2},
		{"empty data lines", func() (io.Reader, func() int64) {
			r := &linesReader{line: "data:\r\n"}
			return r, func() int64 { return r.n }
		}, 1 << 20, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, read := tc.src()
			r := newSSEReader(src)
			if tc.cap > 0 {
				r.maxEvent = tc.cap
			}
			limit := r.maxEvent
			var err error
			alloc := allocated(func() {
				for range 3 {
					if _, err = r.next(); err != nil {
						break
					}
				}
			})
			var tooLarge *EventTooLargeError
			if !errors.As(err, &tooLarge) || tooLarge.Limit != limit {
				t.Fatalf("err %v, want EventTooLargeError at %d", err, limit)
			}
			if n := read(); n > tc.readPerByte*int64(limit)+sseBufSize+64 {
				t.Fatalf("read %d bytes for a %d byte cap", n, limit)
			}
			// Doubling a slice up to the cap allocates about twice the cap.
			if alloc > uint64(3*limit) {
				t.Fatalf("allocated %d bytes for a %d byte cap", alloc, limit)
			}
			if _, again := r.next(); again != err {
				t.Fatalf("after the failure next returned %v, want the same error", again)
			}
		})
	}
}

// TestSSEEventUnderCap: an event of exactly the cap is delivered.
func TestSSEEventUnderCap(t *testing.T) {
	const limit = 1 << 16
	body := "data: " + strings.Repeat("z", limit-1) + "\n\n"
	r := newSSEReaderSize(strings.NewReader(body), 1024)
	r.maxEvent = limit
	ev, err := r.next()
	if err != nil || len(ev.Data) != limit-1 {
		t.Fatalf("event of %d bytes, err %v", len(ev.Data), err)
	}
	r = newSSEReaderSize(strings.NewReader("data: "+strings.Repeat("z", limit)+"\n\n"), 1024)
	r.maxEvent = limit
	if _, err := r.next(); !errors.As(err, new(*EventTooLargeError)) {
		t.Fatalf("an event one byte over the cap: err %v", err)
	}
}

// TestStreamEventTooLarge: through a real HTTP stream, an endless event
// ends Recv with one sentence, and the connection is released.
func TestStreamEventTooLarge(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"kept\"}}]}\n\n")
		chunk := strings.Repeat("A", 64<<10)
		io.WriteString(w, "data: ")
		for written := 0; written < 64<<20; written += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c, err := NewClient(ClientConfig{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if err != nil {
		t.Fatal(err)
	}
	r := drain(t, s)
	var tooLarge *EventTooLargeError
	if !errors.As(r.err, &tooLarge) || r.text != "kept" {
		t.Fatalf("text %q, err %v", r.text, r.err)
	}
	if msg := r.err.Error(); !strings.Contains(msg, "larger than 16.8 MB") || !strings.Contains(msg, "text so far was kept") {
		t.Fatalf("message %q", msg)
	}
}
