package api

import (
	"context"
	"errors"
	"net"
	"net/http/httptrace"
	"net/url"
	"sync"
	"time"
)

// phaseTimers runs parley's connect and header timers from httptrace
// callbacks, which may come from the transport's goroutines, and keeps the
// connection the request went out on (Stream.Pause sets its socket's
// low-water mark).
type phaseTimers struct {
	mu       sync.Mutex
	connect  *time.Timer
	header   *time.Timer
	gotConn  bool
	finished bool
	conn     net.Conn
}

func (p *phaseTimers) start(slot **time.Timer, d time.Duration, fire func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished || *slot != nil {
		return
	}
	*slot = time.AfterFunc(d, fire)
}

func (p *phaseTimers) stop(slot **time.Timer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if *slot != nil {
		(*slot).Stop()
	}
}

func (p *phaseTimers) stopAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished = true
	for _, t := range []*time.Timer{p.connect, p.header} {
		if t != nil {
			t.Stop()
		}
	}
}

func (p *phaseTimers) connection() net.Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conn
}

func (p *phaseTimers) connected() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gotConn
}

// attempt sends one request. The connect timer runs from asking for a
// connection to having one (dial, proxy CONNECT and TLS together); the
// header timer from the request being written until the whole header block
// has been read, so a gateway that trickles header bytes is cut off as
// surely as a silent one. Both cancel the attempt's context with a cause,
// so a timeout is told apart from the caller's cancel without looking at
// error strings.
func (c *Client) attempt(ctx context.Context, r *apiRequest, n int) (*response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	if r.credentials {
		actx = withCredentials(actx, &credentialPolicy{headers: c.headerNames()})
	}
	timers := &phaseTimers{}
	headerLimit := r.header
	if headerLimit <= 0 {
		headerLimit = c.timeouts.Header
	}
	trace := &httptrace.ClientTrace{
		GetConn: func(string) {
			timers.start(&timers.connect, c.timeouts.Connect, func() { cancel(errConnectTimeout) })
		},
		GotConn: func(info httptrace.GotConnInfo) {
			timers.mu.Lock()
			timers.gotConn = true
			timers.conn = info.Conn
			timers.mu.Unlock()
			timers.stop(&timers.connect)
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			timers.start(&timers.header, headerLimit, func() { cancel(errHeaderTimeout) })
		},
	}
	req, err := c.newHTTPRequest(httptrace.WithClientTrace(actx, trace), r)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	start := time.Now()
	c.traceRequest(req, n)
	resp, err := c.http.Do(req)
	timers.stopAll()
	if err == nil && errors.Is(context.Cause(actx), errHeaderTimeout) {
		// The timer fired just as the headers arrived: the body would fail
		// at once, so report the timeout now.
		resp.Body.Close()
		resp, err = nil, errHeaderTimeout
	}
	if err != nil {
		cause := context.Cause(actx)
		cancel(nil)
		return nil, c.classify(err, cause, timers.connected(), headerLimit, r)
	}
	c.traceResponse(resp, time.Since(start))
	return &response{Response: resp, ctx: actx, cancel: cancel, start: start, conn: timers.connection()}, nil
}

// headerNames lists the configured extra headers.
func (c *Client) headerNames() []string {
	names := make([]string, 0, len(c.headers))
	for name := range c.headers {
		names = append(names, name)
	}
	return names
}

// classify turns a Do error into a TimeoutError, a RedirectError or the
// transport's own error.
func (c *Client) classify(err, cause error, connected bool, headerLimit time.Duration, r *apiRequest) error {
	host := r.host()
	image := r.header > 0
	switch {
	case errors.Is(cause, errConnectTimeout):
		return &TimeoutError{Phase: PhaseConnect, Limit: c.timeouts.Connect, Host: host}
	case errors.Is(cause, errHeaderTimeout):
		return &TimeoutError{Phase: PhaseHeader, Limit: headerLimit, Host: host, image: image}
	}
	var redirect *RedirectError
	if errors.As(err, &redirect) {
		return redirect
	}
	// The transport's own dial and TLS limits equal ours and may fire first.
	var ne net.Error
	if !connected && errors.As(err, &ne) && ne.Timeout() {
		return &TimeoutError{Phase: PhaseConnect, Limit: c.timeouts.Connect, Host: host}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		// Keep the type (netReason strips "Post <url>:" from it) but not a
		// query or password the URL may carry.
		return &url.Error{Op: ue.Op, URL: redactURL(ue.URL), Err: ue.Err}
	}
	return err
}
