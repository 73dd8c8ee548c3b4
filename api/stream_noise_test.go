package api

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// gzipMember compresses b as one gzip member; members written one after
// another are one valid gzip body (a multistream), which the client's
// transport decompresses transparently.
func gzipMember(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// noiseServer streams "kept" and then a gzip body of members, each
// expanding to one filler block, up to total bytes of filler; it counts the
// filler bytes it managed to write before the client hung up.
func noiseServer(t *testing.T, filler []byte, total int64, written *atomic.Int64) *httptest.Server {
	t.Helper()
	head := gzipMember(t, []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"kept\"}}]}\n\n"))
	member := gzipMember(t, filler)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		if _, err := w.Write(head); err != nil {
			return
		}
		for n := int64(0); n < total; n += int64(len(filler)) {
			if _, err := w.Write(member); err != nil || r.Context().Err() != nil {
				return
			}
			written.Add(int64(len(filler)))
		}
	}))
}

// TestStreamGzipNoiseIsCapped: a gzip body whose few kilobytes expand to
// a gigabyte of blank lines, comments or empty events ends once the bytes
// that carried nothing pass the reply cap, having decompressed little more
// than that, with one sentence; the text so far is kept.
func TestStreamGzipNoiseIsCapped(t *testing.T) {
	const limit = 1 << 20
	const total = 1 << 30
	for _, tc := range []struct{ name, filler string }{
		{"blank lines", "\n"},
		{"CRLF blank lines", "\r\n"},
		{"comments", ": keep-alive\n"},
		{"unused fields", "id: 7\n"},
		{"empty events", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"}}]}\n\n"},
		{"events of another choice", "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"x\"}}]}\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			filler := []byte(strings.Repeat(tc.filler, (1<<20)/len(tc.filler)))
			var written atomic.Int64
			srv := noiseServer(t, filler, total, &written)
			defer srv.Close()
			c, err := NewClient(ClientConfig{BaseURL: srv.URL, MaxReplyBytes: limit})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			start := time.Now()
			s := startStream(t, c, "m")
			read := &countingReader{r: s.sse.src}
			s.sse.src = read
			r := drain(t, s)
			var noise *StreamNoiseError
			if !errors.As(r.err, &noise) || noise.Limit != limit || r.text != "kept" {
				t.Fatalf("text %q, err %v; want the text kept and a StreamNoiseError at %d", r.text, r.err, limit)
			}
			if msg := r.err.Error(); !strings.Contains(msg, "1.0 MB") || !strings.Contains(msg, "text so far was kept") {
				t.Fatalf("message %q", msg)
			}
			// Decompressed: the noise cap and one event's worth, never the
			// gigabyte the server offered.
			if n := read.n; n > 3*limit+sseBufSize || written.Load() < 64<<20 {
				t.Fatalf("decompressed %d bytes of the %d the server wrote", n, written.Load())
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Fatalf("took %v", took)
			}
		})
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestStreamRealRepliesAreNotNoise: a long reply in small deltas with big
// envelopes, keep-alive comments and the usual blank lines passes a tight
// cap on noise: only what carries nothing counts.
func TestStreamRealRepliesAreNotNoise(t *testing.T) {
	const limit = 64 << 10
	pad := strings.Repeat("p", 3000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, ": OPENROUTER PROCESSING\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n")
		for i := range 2000 {
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"pad\":%q,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"w%d \"}}]}\n\n", pad, i%10)
		}
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	c, err := NewClient(ClientConfig{BaseURL: srv.URL, MaxReplyBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	r := drain(t, startStream(t, c, "m"))
	if r.err != io.EOF || len(r.text) != 2000*3 {
		t.Fatalf("%d bytes of text, err %v; want the whole reply (6 MB of envelopes are not noise)", len(r.text), r.err)
	}
}

// TestStreamBlankLinesDoNotKeepItAlive: blank lines (and unused fields)
// arriving faster than the idle limit are not life: the stream times out
// as if silent. A real stream would have been cut by the server after 5 s.
func TestStreamBlankLinesDoNotKeepItAlive(t *testing.T) {
	for _, line := range []string{"\n", "\r\n", "id: 1\n", "event: ping\n"} {
		t.Run(fmt.Sprintf("%q", line), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"kept\"}}]}\n\n")
				f := w.(http.Flusher)
				f.Flush()
				for range 250 {
					if _, err := io.WriteString(w, line); err != nil {
						return
					}
					f.Flush()
					select {
					case <-r.Context().Done():
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
			}))
			defer srv.Close()
			c, err := NewClient(ClientConfig{BaseURL: srv.URL, Timeouts: Timeouts{StreamIdle: 300 * time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			start := time.Now()
			r := drain(t, startStream(t, c, "m"))
			var te *TimeoutError
			if !errors.As(r.err, &te) || te.Phase != PhaseStreamIdle || r.text != "kept" {
				t.Fatalf("text %q, err %v; want a stream idle timeout", r.text, r.err)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Fatalf("timed out after %v with a 300ms limit", took)
			}
		})
	}
}

// TestSSENoiseCounts: the reader counts what carries nothing, and only
// that: data lines and the blank line that ends an event are free.
func TestSSENoiseCounts(t *testing.T) {
	for _, tc := range []struct {
		in    string
		noise int64
	}{
		{"data: a\n\ndata: b\n\n", 0},
		{"data: a\n\n\n\n", 2},
		{": hello\n", 8},
		{"event: x\nid: 1\nretry: 5\n", 9 + 6 + 9},
	} {
		r := newSSEReader(strings.NewReader(tc.in))
		for {
			if _, err := r.next(); err != nil {
				break
			}
		}
		if r.noise != tc.noise {
			t.Errorf("%q: noise %d, want %d", tc.in, r.noise, tc.noise)
		}
	}
	// A long comment, fed through the long-line path, counts whole.
	r := newSSEReaderSize(strings.NewReader(":"+strings.Repeat("c", 100)+"\n"), 16)
	r.next()
	if r.noise < 100 {
		t.Errorf("a 101 byte comment counted %d", r.noise)
	}
}
