package apitest

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"parley/api/fake"
)

// Request is one request as the fake received it, recorded before any
// validation. Every Request returned is an independent copy.
type Request struct {
	Method   string
	Path     string // URL path, e.g. "/v1/chat/completions"
	RawQuery string
	Header   http.Header
	Body     []byte
	Time     time.Time // arrival

	JSON  map[string]any // generic decode of a JSON object body (nil otherwise): assert absent fields here
	Chat  *ChatRequest   // typed decode for /chat/completions (nil if it does not decode)
	Image *ImageRequest  // typed decode for /images/generations
	Edit  *EditForm      // parsed multipart/form-data body (any path)
}

// record is what is kept of a request; it is never modified once logged.
type record struct {
	seq                    int
	method, path, rawQuery string
	header                 http.Header
	body                   []byte
	time                   time.Time
}

// requestLog is every request a Server received, in the order the fake
// numbered them. A test's server lives as long as the test, so the log is
// not bounded; the demo, which runs as long as the user likes, keeps none
// (it serves package fake directly).
type requestLog struct {
	mu   sync.Mutex
	recs []record
}

// add is the server's fake.Observer: it copies what it keeps.
func (l *requestLog) add(seq int, r *http.Request, body []byte) {
	rec := record{
		seq: seq, method: r.Method, path: r.URL.Path, rawQuery: r.URL.RawQuery,
		header: r.Header.Clone(), body: slices.Clone(body), time: time.Now(),
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	// Concurrent requests can be told out of order; keep the log in the
	// order the fake numbered them.
	i := len(l.recs)
	for i > 0 && l.recs[i-1].seq > seq {
		i--
	}
	l.recs = slices.Insert(l.recs, i, rec)
}

func (l *requestLog) snapshot() []record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.recs)
}

// Requests returns the request log in arrival order. Downloads of served
// files (/files/...) are in it too; RequestsTo picks one endpoint.
func (s *Server) Requests() []Request {
	recs := s.log.snapshot()
	out := make([]Request, len(recs))
	for i, rec := range recs {
		out[i] = rec.request()
	}
	return out
}

// RequestsTo returns the logged requests for one endpoint, given relative to
// /v1 ("/chat/completions") or as a full path.
func (s *Server) RequestsTo(endpoint string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == endpoint || r.Path == "/v1"+endpoint {
			out = append(out, r)
		}
	}
	return out
}

// LastRequest returns the most recent request; ok is false when there was none.
func (s *Server) LastRequest() (req Request, ok bool) {
	recs := s.log.snapshot()
	if len(recs) == 0 {
		return Request{}, false
	}
	return recs[len(recs)-1].request(), true
}

// RequestCount is the number of requests received so far.
func (s *Server) RequestCount() int {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return len(s.log.recs)
}

// request decodes a fresh, independent Request from the record. Decoding on
// every call costs a little and means no caller can reach another's maps.
func (rec record) request() Request {
	req := Request{
		Method: rec.method, Path: rec.path, RawQuery: rec.rawQuery,
		Header: rec.header.Clone(), Body: slices.Clone(rec.body), Time: rec.time,
	}
	if req.Header == nil {
		req.Header = http.Header{}
	}
	var m map[string]any
	if json.Unmarshal(rec.body, &m) == nil && m != nil {
		req.JSON = m
	}
	endpoint := strings.TrimPrefix(rec.path, "/v1")
	if req.JSON != nil {
		switch endpoint {
		case "/chat/completions":
			var c ChatRequest
			if json.Unmarshal(rec.body, &c) == nil {
				req.Chat = &c
			}
		case "/images/generations":
			var im ImageRequest
			if json.Unmarshal(rec.body, &im) == nil {
				req.Image = &im
			}
		}
	}
	ct := rec.header.Get("Content-Type")
	if mt, _, _ := mime.ParseMediaType(ct); mt == "multipart/form-data" {
		if form, err := fake.ParseEditForm(rec.body, ct); err == nil {
			req.Edit = form
		}
	}
	return req
}
