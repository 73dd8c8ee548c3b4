package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"
)

// ClientConfig configures a Client. Zero fields take the documented defaults.
type ClientConfig struct {
	BaseURL   string            // "https://api.openai.com/v1"; with or without the trailing /v1
	APIKey    string            // sent as "Authorization: Bearer <key>"; "" sends no Authorization
	Headers   map[string]string // extra request headers (not Authorization, Content-Type, Host, Content-Length)
	Proxy     string            // explicit proxy URL; "" = HTTPS_PROXY/HTTP_PROXY/NO_PROXY from the environment
	UserAgent string            // "parley/<version>"; default "parley/dev"
	Timeouts  Timeouts          // zero fields take defaults
	Retry     RetryPolicy       // zero fields take defaults; MaxRetries -1 means no retries
	Verbose   io.Writer         // nil = silent; a request/response trace with the key masked
	// Sanitize makes text inert for a terminal (termsafe.Sanitize). It is
	// required with Verbose: every trace block passes through it after the
	// key is masked, because status lines, headers and error messages in
	// the trace are the gateway's bytes.
	Sanitize func(string) string
	// NoRedirects answers a redirect with the redirect itself (an
	// APIError with its status) instead of following it: the first-run
	// screen does not offer a local server that sends parley elsewhere.
	NoRedirects bool
	// KeySource names where the key came from ("OPENAI_API_KEY",
	// "api_key_cmd of provider openai"); error hints for 401 point there.
	KeySource string
	// MaxReplyBytes caps the text of one chat reply, streamed or not
	// (max_reply_bytes); 0 means DefaultMaxReplyBytes. Past it reading
	// stops with a *ReplyTooLargeError and the text so far is kept.
	MaxReplyBytes int64
}

// String masks the key so that printing a config never shows it.
func (c ClientConfig) String() string {
	key := ""
	if c.APIKey != "" {
		key = redactedKey
	}
	return fmt.Sprintf("api.ClientConfig{BaseURL:%q APIKey:%q Proxy:%q UserAgent:%q Timeouts:%+v Retry:%+v}",
		c.BaseURL, key, redactURL(c.Proxy), c.UserAgent, c.Timeouts, c.Retry)
}

// GoString masks the key for %#v as well.
func (c ClientConfig) GoString() string { return c.String() }

// DefaultUserAgent is sent when ClientConfig.UserAgent is empty.
const DefaultUserAgent = "parley/dev"

// Client talks to one gateway. It is safe for concurrent use.
type Client struct {
	base      *url.URL // normalised; Path has no trailing slash
	baseStr   string
	key       string
	red       redactor
	keySource string
	headers   http.Header // extra headers, canonicalised
	ua        string
	timeouts  Timeouts
	retry     RetryPolicy
	maxReply  int64
	clock     retryClock
	warnings  []string

	verbose  io.Writer
	sanitize func(string) string
	vmu      sync.Mutex // one trace block at a time

	transport *http.Transport
	http      *http.Client
}

// reservedHeaders are set by the client itself and cannot be overridden
// from config.
var reservedHeaders = map[string]bool{
	"Authorization":     true,
	"Content-Type":      true,
	"Content-Length":    true,
	"Host":              true,
	"Transfer-Encoding": true,
	"Connection":        true,
}

// NewClient checks cfg and builds a client. Problems that do not stop it
// working (plain http to a remote host, ignored headers) are in Warnings.
func NewClient(cfg ClientConfig) (*Client, error) {
	base, warn, err := normalizeBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:      base,
		baseStr:   base.String(),
		key:       cfg.APIKey,
		red:       newRedactor(cfg.APIKey),
		keySource: cfg.KeySource,
		headers:   http.Header{},
		ua:        cfg.UserAgent,
		timeouts:  cfg.Timeouts.withDefaults(),
		retry:     cfg.Retry.withDefaults(),
		maxReply:  cfg.MaxReplyBytes,
		clock:     realClock(),
		verbose:   cfg.Verbose,
		sanitize:  cfg.Sanitize,
	}
	if c.maxReply <= 0 {
		c.maxReply = DefaultMaxReplyBytes
	}
	if c.verbose != nil && c.sanitize == nil {
		return nil, errors.New("a verbose trace needs a sanitiser (api.ClientConfig.Sanitize): the trace carries the gateway's bytes to a terminal")
	}
	if warn != "" {
		c.warnings = append(c.warnings, warn)
	}
	if c.ua == "" {
		c.ua = DefaultUserAgent
	}
	if !validHeaderValue(c.ua) {
		return nil, fmt.Errorf("the user agent %q contains characters a header cannot carry", c.ua)
	}
	if strings.ContainsAny(c.key, "\r\n") || !validHeaderValue(c.key) {
		return nil, fmt.Errorf("the API key contains characters a header cannot carry (a line break or a control character?): check where it comes from")
	}
	for name, value := range cfg.Headers {
		if !validHeaderName(name) {
			return nil, fmt.Errorf("the extra header name %q is not a valid HTTP header name: fix it under headers in the config", name)
		}
		if !validHeaderValue(value) {
			return nil, fmt.Errorf("the value of the extra header %q contains characters a header cannot carry: fix it under headers in the config", name)
		}
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if reservedHeaders[canon] {
			c.warnings = append(c.warnings, fmt.Sprintf("the extra header %s is ignored: parley sets it itself", canon))
			continue
		}
		c.headers.Set(canon, value)
	}
	c.transport, err = newTransport(cfg.Proxy, c.timeouts)
	if err != nil {
		return nil, err
	}
	c.http = &http.Client{Transport: c.transport, CheckRedirect: checkRedirect}
	if cfg.NoRedirects {
		c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c, nil
}

// String names the gateway without the key, so that printing a client
// (also with %+v or %#v) cannot show it.
func (c *Client) String() string { return "api.Client(" + c.baseStr + ")" }

// GoString is String for %#v.
func (c *Client) GoString() string { return c.String() }

// BaseURL is the normalised base URL: it ends with the version prefix (/v1
// unless the user gave another one) and has no trailing slash.
func (c *Client) BaseURL() string { return c.baseStr }

// Warnings lists problems in the configuration that do not stop the client,
// each one sentence.
func (c *Client) Warnings() []string { return append([]string(nil), c.warnings...) }

// CloseIdleConnections closes kept-alive connections (at exit, or in tests
// that check for leaks).
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// endpoint resolves a path relative to the base URL ("/chat/completions"),
// keeping the base's query (some gateways need ?api-version=...).
func (c *Client) endpoint(path string) string {
	u := *c.base
	u.Path = c.base.Path + "/" + strings.TrimLeft(path, "/")
	u.RawPath = ""
	return u.String()
}

// sameOrigin reports whether u has the base URL's scheme and host, the only
// place the key may go.
func (c *Client) sameOrigin(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, c.base.Scheme) && sameHost(u, c.base)
}

// apiRequest describes one logical request; each attempt builds a fresh
// *http.Request from it.
type apiRequest struct {
	method string
	url    string
	body   []byte
	// chat is the body of a chat request, made as each attempt sends it
	// (chatBody), in place of body.
	chat        *chatSource
	contentType string
	accept      string
	credentials bool          // send the key and the extra headers
	download    bool          // a redirect elsewhere is followed without them
	header      time.Duration // response header timeout for this request
	model       string        // for error hints
	stream      bool
	// params and paramSources are the chat request's parameters and where
	// they came from, for the hint of an error about one of them.
	params         Params
	paramSources   []ParamSetting
	maxTokensField string
}

// host is the scheme://host the request goes to, for error messages.
func (r *apiRequest) host() string {
	u, err := url.Parse(r.url)
	if err != nil {
		return "the gateway"
	}
	return origin(u)
}

func (c *Client) newHTTPRequest(ctx context.Context, r *apiRequest) (*http.Request, error) {
	var body io.Reader
	switch {
	case r.chat != nil:
		body = r.chat.open()
	case r.body != nil:
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		return nil, fmt.Errorf("building the request to %s: %w", redactURL(r.url), err)
	}
	if r.chat != nil {
		// The length is known, so the body goes with a Content-Length, as
		// bytes would; a redirect that keeps the body reads it anew.
		req.ContentLength = r.chat.size
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(r.chat.open()), nil }
	}
	if r.credentials {
		for name, v := range c.headers {
			req.Header[name] = append([]string(nil), v...)
		}
		if c.key != "" {
			req.Header.Set("Authorization", "Bearer "+c.key)
		}
	}
	req.Header.Set("User-Agent", c.ua)
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.accept != "" {
		req.Header.Set("Accept", r.accept)
	}
	return req, nil
}

// validHeaderName reports an RFC 9110 token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// validHeaderValue rejects control characters other than tab, which would
// break or smuggle header lines.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
