package fake

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxBody bounds what the fake reads of a request body.
const maxBody = 64 << 20

const filesPrefix = "/files/"

// exchange is one request being answered.
type exchange struct {
	s        *Server
	w        http.ResponseWriter
	r        *http.Request
	body     []byte
	seq      int
	endpoint string // path relative to /v1 ("/chat/completions"), or the raw path outside /v1
	inV1     bool
	rep      Reply
	scripted bool // rep came from the queue or the default, not from a Responder
}

// ServeHTTP numbers the request, tells the observer, picks its reply and
// answers it. A closed server answers 503.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		http.Error(w, "the fake gateway is closed", http.StatusServiceUnavailable)
		return
	}
	defer s.handlers.Done()
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)

	if strings.HasPrefix(r.URL.Path, filesPrefix) {
		s.arrived(r, nil)
		s.serveFile(w, r)
		return
	}
	body, readErr := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	seq := s.arrived(r, body)
	endpoint, inV1 := strings.CutPrefix(r.URL.Path, "/v1")
	inV1 = inV1 && strings.HasPrefix(endpoint, "/")
	if !inV1 {
		endpoint = r.URL.Path
	}
	ex := &exchange{s: s, w: w, r: r, body: body, seq: seq, endpoint: endpoint, inV1: inV1}
	ex.rep, ex.scripted = s.take(endpoint)

	if !ex.pause(ex.rep.Delay) {
		return
	}
	if ex.rep.Drop {
		panic(http.ErrAbortHandler)
	}
	for k, v := range ex.rep.Header {
		w.Header().Set(k, v)
	}
	if ex.rep.explicit() {
		ex.writeExplicit()
		return
	}
	if readErr != nil {
		var tooBig *http.MaxBytesError
		if errors.As(readErr, &tooBig) {
			ex.fail(&apiError{status: http.StatusRequestEntityTooLarge, typ: "invalid_request_error",
				message: fmt.Sprintf("Request body is larger than %d bytes.", maxBody)})
			return
		}
		return // the client went away while sending
	}
	ex.route()
}

// arrived numbers a request (1 for the first) and tells the observer.
func (s *Server) arrived(r *http.Request, body []byte) int {
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	if s.observe != nil {
		s.observe(seq, r, body)
	}
	return seq
}

func (ex *exchange) route() {
	type route struct {
		method string
		handle func()
	}
	var rt route
	switch {
	case !ex.inV1:
		ex.fail(invalidURL(ex.r.Method, ex.r.URL.Path))
		return
	case ex.endpoint == "/chat/completions":
		rt = route{http.MethodPost, ex.handleChat}
	case ex.endpoint == "/images/generations":
		rt = route{http.MethodPost, ex.handleGenerate}
	case ex.endpoint == "/images/edits":
		rt = route{http.MethodPost, ex.handleEdit}
	case ex.endpoint == "/models":
		rt = route{http.MethodGet, ex.handleModels}
	case strings.HasPrefix(ex.endpoint, "/models/"):
		rt = route{http.MethodGet, ex.handleModel}
	default:
		ex.fail(invalidURL(ex.r.Method, ex.r.URL.Path))
		return
	}
	if ex.r.Method != rt.method {
		ex.w.Header().Set("Allow", rt.method)
		ex.fail(methodNotAllowed(ex.r.Method, ex.r.URL.Path))
		return
	}
	if err := ex.s.checkAuth(ex.r); err != nil {
		ex.fail(err)
		return
	}
	rt.handle()
}

// pause waits d (if positive). It returns false when the client went away;
// when the server closes it drops the connection.
func (ex *exchange) pause(d time.Duration) bool {
	if d <= 0 {
		return ex.r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ex.r.Context().Done():
		return false
	case <-ex.s.quit:
		panic(http.ErrAbortHandler)
	}
}

// hold waits until the client goes away or the server closes (a stall
// without end).
func (ex *exchange) hold() {
	select {
	case <-ex.r.Context().Done():
	case <-ex.s.quit:
		panic(http.ErrAbortHandler)
	}
}

// setContentType sets ct unless the reply sets its own or asks for none.
func (ex *exchange) setContentType(ct string) {
	h := ex.w.Header()
	if ex.rep.NoContentType {
		// A nil value stops net/http from sniffing one.
		h["Content-Type"] = nil
		return
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", ct)
	}
}

func (ex *exchange) status(def int) int {
	if ex.rep.Status != 0 {
		return ex.rep.Status
	}
	return def
}

// setIfAbsent sets a header the reply did not set itself.
func setIfAbsent(h http.Header, k, v string) {
	if _, ok := h[http.CanonicalHeaderKey(k)]; !ok {
		h.Set(k, v)
	}
}

// writeWhole writes a complete body with its length, in pieces if asked.
func (ex *exchange) writeWhole(status int, body []byte) {
	setIfAbsent(ex.w.Header(), "Content-Length", strconv.Itoa(len(body)))
	ex.w.WriteHeader(status)
	bw := newBodyWriter(ex.w, ex.rep.WriteSize)
	bw.write(body)
	bw.flush()
}

// fail answers with an OpenAI-shaped error.
func (ex *exchange) fail(e *apiError) {
	ex.setContentType("application/json")
	ex.writeWhole(e.status, e.body())
}

// writeJSON answers a successful request with a JSON body.
func (ex *exchange) writeJSON(body []byte) {
	ex.setContentType("application/json")
	setIfAbsent(ex.w.Header(), "X-Request-Id", "req_apitest_"+strconv.Itoa(ex.seq))
	ex.writeWhole(ex.status(http.StatusOK), body)
}

// writeExplicit writes a Body/Status reply as is.
func (ex *exchange) writeExplicit() {
	status := ex.status(http.StatusOK)
	body := []byte(ex.rep.Body)
	if len(body) == 0 && status >= 400 {
		body = statusError(status, &ex.rep).body()
	}
	if len(body) > 0 {
		ex.setContentType(sniffBodyType(body))
	} else if ex.rep.NoContentType {
		ex.w.Header()["Content-Type"] = nil
	}
	ex.writeWhole(status, body)
}

// sniffBodyType guesses the media type a gateway would send with body.
func sniffBodyType(body []byte) string {
	t := bytes.TrimLeft(body, " \t\r\n\ufeff")
	switch {
	case len(t) > 0 && (t[0] == '{' || t[0] == '['):
		return "application/json"
	case len(t) > 0 && t[0] == '<':
		return "text/html; charset=utf-8"
	case bytes.HasPrefix(t, []byte("data:")) || bytes.HasPrefix(t, []byte(":")) || bytes.HasPrefix(t, []byte("event:")):
		return "text/event-stream; charset=utf-8"
	default:
		return "text/plain; charset=utf-8"
	}
}

// serveFile serves an image stored for a url-style image reply. Like a
// public CDN URL it needs no key.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, filesPrefix)
	s.mu.Lock()
	data, ok := s.files[name]
	s.mu.Unlock()
	if !ok || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		http.NotFound(w, r)
		return
	}
	ct := sniffImage(data)
	if ct == "" {
		ct = http.DetectContentType(data)
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	if r.Method == http.MethodGet {
		_, _ = w.Write(data)
	}
}
