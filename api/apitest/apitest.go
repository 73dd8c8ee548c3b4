package apitest

import (
	"net/http"
	"testing"
	"time"

	"parley/api/fake"
)

// The fake gateway's vocabulary, under the names the tests have always used.
type (
	Call          = fake.Call
	ChatRequest   = fake.ChatRequest
	Content       = fake.Content
	EditForm      = fake.EditForm
	FormFile      = fake.FormFile
	ImageRequest  = fake.ImageRequest
	ImageURL      = fake.ImageURL
	Message       = fake.Message
	ModelSpec     = fake.ModelSpec
	Option        = fake.Option
	Part          = fake.Part
	Quirks        = fake.Quirks
	Reply         = fake.Reply
	Responder     = fake.Responder
	StreamOptions = fake.StreamOptions
	StopList      = fake.StopList
	TokensDetails = fake.TokensDetails
	ToolCall      = fake.ToolCall
	WireCall      = fake.WireCall
	Usage         = fake.Usage
)

// Ways of sending Reply.Reasoning (Reply.ReasoningAs).
const (
	ReasoningContent = fake.ReasoningContent
	ReasoningField   = fake.ReasoningField
	ReasoningThink   = fake.ReasoningThink
)

// Error shapes for Reply.ErrorShape: how a mid-stream error is written.
const (
	ErrorShapeOpenAI     = fake.ErrorShapeOpenAI
	ErrorShapeOpenRouter = fake.ErrorShapeOpenRouter
	ErrorShapeVLLM       = fake.ErrorShapeVLLM
)

// Defaults of a server that no option changed.
const (
	DefaultAPIKey        = fake.DefaultAPIKey
	DefaultDeltaRunes    = fake.DefaultDeltaRunes
	DefaultMaxImageBytes = fake.DefaultMaxImageBytes
)

// WithAPIKey sets the bearer key every /v1 request must carry (default
// DefaultAPIKey). "" turns the check off.
func WithAPIKey(key string) Option { return fake.WithAPIKey(key) }

// WithModels replaces the default catalog with exactly these models.
func WithModels(models ...ModelSpec) Option { return fake.WithModels(models...) }

// WithClock sets the clock behind the "created" timestamps.
func WithClock(now func() time.Time) Option { return func(c *fake.Config) { c.Now = now } }

// WithMaxImageBytes sets the largest decoded image accepted in a chat data
// URI.
func WithMaxImageBytes(n int64) Option { return func(c *fake.Config) { c.MaxImageBytes = n } }

// WithResponder sets a function that scripts the answer to every request
// no queued or default reply scripts.
func WithResponder(f Responder) Option { return fake.WithResponder(f) }

// Server is a running fake gateway with a log of every request it received
// and an HTTP client of its own. All methods are safe for concurrent use.
type Server struct {
	*fake.Server
	log       *requestLog
	transport *http.Transport
	client    *http.Client
}

// New starts a server for one test and closes it in t.Cleanup.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a server outside a test; the caller must Close it. It
// panics when no loopback port can be had.
func NewServer(opts ...Option) *Server {
	s, err := start(opts)
	if err != nil {
		panic(err)
	}
	return s
}

func start(opts []Option) (*Server, error) {
	l := &requestLog{}
	srv, err := fake.Listen(append(opts[:len(opts):len(opts)], func(c *fake.Config) { c.Observe = l.add })...)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{}
	return &Server{Server: srv, log: l, transport: tr, client: &http.Client{Transport: tr}}, nil
}

// Client returns an HTTP client for the server whose idle connections are
// closed with it.
func (s *Server) Client() *http.Client { return s.client }

// Close shuts the fake gateway down (see fake.Server.Close) and closes the
// idle connections of Client. It is idempotent.
func (s *Server) Close() {
	s.Server.Close()
	s.transport.CloseIdleConnections()
}
