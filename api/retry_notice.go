package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// RetryNotice describes a retry the client is about to make, so that a
// status line can say why the reply is late and when the next try starts:
// "429 rate limited · retry 2/3 in 4 s".
type RetryNotice struct {
	Attempt  int           // the attempt about to start: 2 for the first retry
	Attempts int           // attempts in all (the retry budget plus the first one)
	Wait     time.Duration // the wait before it
	At       time.Time     // when it starts
	// Reason is the failure in a few words of parley's own ("429 rate
	// limited", "connection refused", "stream cut before any text"). It
	// holds no text from the gateway, so it can be shown as it is.
	Reason string
	// Err is the failure being retried. Its message may quote the gateway:
	// sanitise it before it reaches a terminal.
	Err error
}

// String is the notice as a status line shows it.
func (n RetryNotice) String() string {
	return fmt.Sprintf("%s · retry %d/%d in %s", n.Reason, n.Attempt, n.Attempts, waitText(n.Wait))
}

// waitText writes a wait for people: whole seconds from one second up,
// milliseconds below.
func waitText(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%d s", int((d+time.Second/2)/time.Second))
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

type retryNoticeKey struct{}

// WithRetryNotice returns a context whose requests report each retry to f
// before waiting for it. f runs on the goroutine that makes the request
// (for a stream, the one calling ChatStream or Recv) and must return
// quickly; a UI hands the notice to its event loop.
func WithRetryNotice(ctx context.Context, f func(RetryNotice)) context.Context {
	return context.WithValue(ctx, retryNoticeKey{}, f)
}

// noticeRetry reports a retry to the context's callback, if any.
func noticeRetry(ctx context.Context, n RetryNotice) {
	if f, ok := ctx.Value(retryNoticeKey{}).(func(RetryNotice)); ok && f != nil {
		f(n)
	}
}

// retryReason names a retryable failure in parley's own words.
func retryReason(err error) string {
	var (
		apiErr *APIError
		te     *TimeoutError
	)
	switch {
	case errors.As(err, &apiErr):
		return apiReason(apiErr)
	case errors.As(err, &te):
		return te.Phase + " timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, ErrStreamEndedEarly):
		return "stream cut before any text"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	}
	return "connection failed"
}

func apiReason(e *APIError) string {
	switch {
	case e.StatusCode == http.StatusTooManyRequests, e.is("rate_limit_exceeded"):
		code := ""
		if e.StatusCode != 0 {
			code = fmt.Sprintf("%d ", e.StatusCode)
		}
		return code + "rate limited"
	case e.StatusCode != 0:
		return strings.TrimSpace(fmt.Sprintf("%d %s", e.StatusCode, strings.ToLower(http.StatusText(e.StatusCode))))
	case e.is("overloaded_error"):
		return "model overloaded"
	}
	return "error in the stream"
}
