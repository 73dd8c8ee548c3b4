package api

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Timeouts bound the phases of a request. Zero fields take the defaults.
type Timeouts struct {
	Connect    time.Duration // default 10s: dialing (through a proxy too) and the TLS handshake, each
	Header     time.Duration // default 60s: request written -> the whole response header block read
	StreamIdle time.Duration // default 120s: no data or comment line on a stream (blank lines do not count)
	// ImageHeader replaces Header for image generation and editing, which
	// routinely take a minute or two before the first byte. Default 300s.
	// Like Header it bounds the whole header block, so a gateway that
	// trickles header bytes cannot hold a request open.
	ImageHeader time.Duration
	// Reply bounds a whole chat reply, retries and waits included, from the
	// request until the last byte. 0 (the default) means no such limit:
	// the phase limits above already stop a gateway that stalls; this one
	// is for scripts that must finish in time whatever the gateway does.
	Reply time.Duration
}

// Defaults for Timeouts.
const (
	DefaultConnectTimeout     = 10 * time.Second
	DefaultHeaderTimeout      = 60 * time.Second
	DefaultStreamIdleTimeout  = 120 * time.Second
	DefaultImageHeaderTimeout = 300 * time.Second
)

func (t Timeouts) withDefaults() Timeouts {
	if t.Connect <= 0 {
		t.Connect = DefaultConnectTimeout
	}
	if t.Header <= 0 {
		t.Header = DefaultHeaderTimeout
	}
	if t.StreamIdle <= 0 {
		t.StreamIdle = DefaultStreamIdleTimeout
	}
	if t.ImageHeader <= 0 {
		t.ImageHeader = DefaultImageHeaderTimeout
	}
	return t
}

// Timeout phases, as TimeoutError.Phase.
const (
	PhaseConnect    = "connect"
	PhaseHeader     = "header"
	PhaseStreamIdle = "stream idle"
	PhaseReply      = "reply"
)

// The config settings that raise each timeout, named in the error text.
var timeoutSettings = map[string]string{
	PhaseConnect:    "connect_timeout",
	PhaseHeader:     "header_timeout",
	PhaseStreamIdle: "stream_idle_timeout",
	PhaseReply:      "reply_timeout",
}

// TimeoutError says which limit ran out, where, and which setting raises it.
type TimeoutError struct {
	Phase string        // PhaseConnect, PhaseHeader, PhaseStreamIdle or PhaseReply
	Limit time.Duration // the limit that ran out
	Host  string        // scheme://host of the gateway
	image bool          // the header limit was the one for image requests
}

func (e *TimeoutError) Error() string {
	setting := timeoutSettings[e.Phase]
	switch e.Phase {
	case PhaseConnect:
		return fmt.Sprintf("could not connect to %s within %s: check the base URL, the network and any proxy, or raise %s in the config", e.Host, e.Limit, setting)
	case PhaseHeader:
		what := "the gateway"
		if e.image {
			what = "the image request"
			setting = "image_timeout"
		}
		return fmt.Sprintf("%s at %s sent no response within %s: the model may be overloaded, so try again or raise %s in the config", what, e.Host, e.Limit, setting)
	case PhaseReply:
		return fmt.Sprintf("the reply from %s did not finish within %s, the limit %s sets in the config: raise it, or ask for a shorter reply", e.Host, e.Limit, setting)
	default:
		return fmt.Sprintf("the reply from %s stalled: nothing arrived for %s, so try again or raise %s in the config", e.Host, e.Limit, setting)
	}
}

// Timeout lets net.Error-style checks recognise it.
func (e *TimeoutError) Timeout() bool { return true }

// Causes set on a request's context when one of parley's own timers fires.
var (
	errConnectTimeout = errors.New("connect timeout")
	errHeaderTimeout  = errors.New("response header timeout")
	errIdleTimeout    = errors.New("stream idle timeout")
	errReplyTimeout   = errors.New("reply timeout")
	errStreamClosed   = errors.New("stream closed")
)

// ConnectionError is a request that never got a response: refused, reset,
// DNS failure, broken TLS.
type ConnectionError struct {
	Host     string // scheme://host
	Attempts int
	Err      error
}

func (e *ConnectionError) Error() string {
	tries := ""
	if e.Attempts > 1 {
		tries = fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return fmt.Sprintf("could not reach %s (%s)%s: check the base URL, the network and any proxy settings", e.Host, netReason(e.Err), tries)
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// withReplyDeadline bounds ctx by the reply limit, if one is set. The
// returned cancel releases the timer and cancels with the given cause.
func (c *Client) withReplyDeadline(ctx context.Context) (context.Context, context.CancelCauseFunc) {
	cctx, cancel := context.WithCancelCause(ctx)
	if c.timeouts.Reply <= 0 {
		return cctx, cancel
	}
	dctx, stop := context.WithTimeoutCause(cctx, c.timeouts.Reply, errReplyTimeout)
	return dctx, func(cause error) {
		cancel(cause)
		stop()
	}
}

// replyTimedOut turns err into the reply TimeoutError when the reply limit
// ended ctx (and not the caller); other errors pass unchanged.
func (c *Client) replyTimedOut(ctx context.Context, err error) error {
	if err != nil && errors.Is(context.Cause(ctx), errReplyTimeout) {
		return &TimeoutError{Phase: PhaseReply, Limit: c.timeouts.Reply, Host: origin(c.base)}
	}
	return err
}
