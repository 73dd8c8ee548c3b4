package fake

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultAPIKey is the bearer key a server requires unless WithAPIKey says otherwise.
const DefaultAPIKey = "test-key"

// DefaultMaxImageBytes is the largest decoded image the fake accepts in a
// chat data URI (20 MB, like OpenAI).
const DefaultMaxImageBytes = 20 << 20

// readHeaderTimeout bounds how long a connection may take to send its
// request line and headers (a client on loopback sends them at once).
const readHeaderTimeout = 30 * time.Second

// Server is a running fake gateway. All methods are safe for concurrent use.
type Server struct {
	hs       *http.Server
	url      string        // http://127.0.0.1:port
	served   chan struct{} // closed when Serve has returned
	key      string
	models   []ModelSpec
	now      func() time.Time
	maxImage int64
	respond  Responder
	observe  Observer

	quit      chan struct{} // closed by Close: ends delays, stalls and pauses
	closeOnce sync.Once
	inFlight  atomic.Int64
	handlers  sync.WaitGroup // ServeHTTP calls in progress; Close waits for them

	mu     sync.Mutex
	closed bool // set by Close: no handler starts after it
	seq    int  // requests seen, numbers ids ("chatcmpl-apitest-<seq>")
	queue  []Reply
	def    *Reply
	files  map[string][]byte // served under /files/
	pngs   map[pngKey][]byte // rendered gradients, by size and index
}

// Config is what Listen starts a server from: the defaults, changed by
// each Option in turn. The options of this package are what the demo and
// the fakegateway command set; api/apitest writes its own (a clock, an
// image limit, its request log) as functions of a Config.
type Config struct {
	Key      string           // bearer key every /v1 request must carry; "" turns the check off
	Models   []ModelSpec      // the catalog; requests naming any other model get 404 model_not_found
	Now      func() time.Time // the clock behind the "created" timestamps
	Listener net.Listener     // served instead of a fresh loopback port; the server closes it
	// MaxImageBytes is the largest decoded image accepted in a chat data
	// URI; larger ones get 400.
	MaxImageBytes int64
	Respond       Responder // see Responder and WithResponder
	Observe       Observer  // told of every request (see Observer)
}

// Observer is told of every request as it arrives, before validation, with
// its sequence number (1 for the first) and its body as read (nil for a
// download of a served file). It runs on the request's goroutine and must
// not keep r or body: both are reused once it returns. api/apitest keeps its
// request log with one (Config.Observe).
type Observer func(seq int, r *http.Request, body []byte)

// Option configures a Server.
type Option func(*Config)

// WithAPIKey sets the bearer key every /v1 request must carry (default
// DefaultAPIKey). "" turns the check off.
func WithAPIKey(key string) Option { return func(c *Config) { c.Key = key } }

// WithModels replaces the default catalog (DefaultModels) with exactly these
// models; requests naming any other model get 404 model_not_found.
func WithModels(models ...ModelSpec) Option {
	return func(c *Config) { c.Models = cloneModels(models) }
}

// WithListener serves on l instead of a fresh loopback port (the fakegateway
// command and the demo use it). The server closes l.
func WithListener(l net.Listener) Option { return func(c *Config) { c.Listener = l } }

// WithResponder sets a function that scripts the answer to every request
// that passed validation and that no queued or default reply scripts (see
// Responder). Validation is the same with or without it.
func WithResponder(f Responder) Option { return func(c *Config) { c.Respond = f } }

// Listen starts a server on a free loopback port (or the listener of
// WithListener); the caller must Close it.
func Listen(opts ...Option) (*Server, error) {
	c := Config{Key: DefaultAPIKey, Now: time.Now, MaxImageBytes: DefaultMaxImageBytes}
	for _, o := range opts {
		o(&c)
	}
	if c.Models == nil {
		c.Models = DefaultModels()
	}
	l := c.Listener
	if l == nil {
		var err error
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return nil, fmt.Errorf("the fake gateway could not listen on 127.0.0.1 (%w); check that the loopback interface is up", err)
		}
	}
	s := &Server{
		url:      "http://" + l.Addr().String(),
		served:   make(chan struct{}),
		key:      c.Key,
		models:   c.Models,
		now:      c.Now,
		maxImage: c.MaxImageBytes,
		respond:  c.Respond,
		observe:  c.Observe,
		quit:     make(chan struct{}),
		files:    map[string][]byte{},
		pngs:     map[pngKey][]byte{},
	}
	s.hs = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		// net/http logs what it cannot tell a handler (a bad request line,
		// a failed accept) on stderr, which is the chat's screen in the
		// demo; the fake reports through its replies only.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(s.served)
		_ = s.hs.Serve(l) // returns http.ErrServerClosed once Close is called
	}()
	return s, nil
}

// URL is the base URL clients are configured with: http://127.0.0.1:port/v1.
func (s *Server) URL() string { return s.url + "/v1" }

// RootURL is URL without /v1 (for clients that add it themselves).
func (s *Server) RootURL() string { return s.url }

// Handler returns the server's handler, for driving it with a custom
// ResponseWriter. Cuts and drops panic with http.ErrAbortHandler there.
func (s *Server) Handler() http.Handler { return s }

// Close ends every delay, stall and pause in progress, closes the listener
// and every connection, and waits for the handlers and the accept loop to
// return. It is idempotent.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.quit)
		_ = s.hs.Close()
		<-s.served
		s.handlers.Wait()
	})
}

// enter counts a handler in, unless the server is closed.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.handlers.Add(1)
	return true
}

// Enqueue adds scripted replies, consumed in order by the next requests whose
// endpoint matches (Reply.Path; any endpoint when empty). Downloads of served
// files never consume replies. It panics on a reply that cannot mean anything
// (an unknown ErrorShape or LineEnding).
func (s *Server) Enqueue(replies ...Reply) {
	cl := make([]Reply, len(replies))
	for i, r := range replies {
		if err := r.check(); err != nil {
			panic(err)
		}
		cl[i] = r.clone()
	}
	s.mu.Lock()
	s.queue = append(s.queue, cl...)
	s.mu.Unlock()
}

// SetDefault sets the reply used when no queued reply matches; it applies to
// the endpoints its Path matches, others answer unscripted.
func (s *Server) SetDefault(r Reply) {
	if err := r.check(); err != nil {
		panic(err)
	}
	r = r.clone()
	s.mu.Lock()
	s.def = &r
	s.mu.Unlock()
}

// Pending is the number of queued replies not consumed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// InFlight is the number of requests being handled right now. A test can
// poll it to see that the server noticed a client going away.
func (s *Server) InFlight() int { return int(s.inFlight.Load()) }

// take returns the reply for a request to endpoint: the first matching queued
// reply, else the default if it matches, else the zero Reply with scripted
// false.
func (s *Server) take(endpoint string) (r Reply, scripted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.queue {
		if s.queue[i].matches(endpoint) {
			r := s.queue[i]
			s.queue = append(s.queue[:i:i], s.queue[i+1:]...)
			return r, true
		}
	}
	if s.def != nil && s.def.matches(endpoint) {
		return *s.def, true
	}
	return Reply{}, false
}

func (s *Server) model(id string) (ModelSpec, bool) {
	for _, m := range s.models {
		if m.ID == id {
			return m, true
		}
	}
	return ModelSpec{}, false
}

// modelsWith lists the ids of models having a capability, for error messages.
func (s *Server) modelsWith(has func(ModelSpec) bool) []string {
	var ids []string
	for _, m := range s.models {
		if has(m) {
			ids = append(ids, m.ID)
		}
	}
	return ids
}
