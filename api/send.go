package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"parley/internal/bytesize"
)

// Body size limits: an error body is only read for its message; other
// replies are bounded so a broken gateway cannot exhaust memory (a chat
// reply by the client's text cap, see replyBodyLimit).
const (
	maxErrorBody   = 1 << 20
	maxModelsReply = 64 << 20
)

// response is a successful reply whose body is still to be read. close
// releases everything; it is safe to call more than once.
type response struct {
	*http.Response
	ctx      context.Context // the attempt's context; its cause says why reading stopped
	cancel   context.CancelCauseFunc
	attempts int
	start    time.Time
	conn     net.Conn // the connection the reply arrives on (nil if the transport did not say)
}

func (r *response) close() {
	r.Body.Close()
	r.cancel(nil)
}

// send performs r with retries and returns the first 2xx reply. used is the
// number of attempts already spent on this request (a stream reopened before
// it delivered text shares the budget). Errors are *APIError,
// *TimeoutError, *ConnectionError, *RedirectError or the context's error.
func (c *Client) send(ctx context.Context, r *apiRequest, used int) (*response, error) {
	for n := used + 1; ; n++ {
		resp, err := c.attempt(ctx, r, n)
		if err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
			resp.attempts = n
			return resp, nil
		}
		var (
			final     error
			retryable bool
			wait      time.Duration
		)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			final = err
			var te *TimeoutError
			switch {
			case errors.As(err, &te):
				// A connect timeout sent nothing; a header timeout may have
				// started the work already and would cost another minute.
				retryable = te.Phase == PhaseConnect
			default:
				retryable = retryableNetErr(err)
				var redirect *RedirectError
				if !errors.As(err, &redirect) {
					final = &ConnectionError{Host: r.host(), Attempts: n, Err: err}
				}
			}
		} else {
			apiErr := c.errorReply(resp, r)
			apiErr.Attempts = n
			final = apiErr
			retryable = retryableAPIError(apiErr) && resp.Header.Get("X-Should-Retry") != "false"
			now := c.clock.now()
			d, ok := retryAfter(resp.Header, now)
			if !ok && resp.StatusCode == http.StatusTooManyRequests {
				d, ok = rateLimitReset(resp.Header)
			}
			if ok {
				apiErr.RetryAfter = d
				apiErr.RetryAt = now.Add(d)
				if d > c.retry.MaxWait {
					apiErr.waitLimit = c.retry.MaxWait
					retryable = false
				}
				wait = d
			}
		}
		if !retryable || n > c.retry.MaxRetries {
			return nil, final
		}
		if wait <= 0 {
			wait = c.retry.backoff(n - used)
		}
		reason := retryReason(final)
		c.tracef("! retrying in %s (attempt %d of %d, %s): %v\n", wait.Round(time.Millisecond), n+1, c.retry.MaxRetries+1, reason, final)
		noticeRetry(ctx, RetryNotice{Attempt: n + 1, Attempts: c.retry.MaxRetries + 1, Wait: wait, At: c.clock.now().Add(wait), Reason: reason, Err: final})
		if !c.clock.sleep(ctx, wait) {
			return nil, ctx.Err()
		}
	}
}

// errorReply reads an error body (bounded in size, and in time by the idle
// timeout) and turns it into an APIError.
func (c *Client) errorReply(resp *response, r *apiRequest) *APIError {
	idle := time.AfterFunc(c.timeouts.StreamIdle, func() { resp.cancel(errIdleTimeout) })
	body, _ := io.ReadAll(&activityReader{r: io.LimitReader(resp.Body, maxErrorBody), t: idle, d: c.timeouts.StreamIdle})
	idle.Stop()
	resp.close()
	e := c.newAPIError(resp.Response, body, r.model)
	e.download = r.download
	e.aboutParam(r)
	return e
}

// roundTrip sends r with retries and reads the whole reply body, at most
// limit bytes. Reading is guarded by the idle timeout: a body that stops
// arriving fails instead of hanging.
func (c *Client) roundTrip(ctx context.Context, r *apiRequest, limit int64) ([]byte, error) {
	data, over, err := c.roundTripBody(ctx, r, limit)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("the reply from %s is larger than %s: check the base URL", r.host(), bytesize.Format(limit))
	}
	return data, nil
}

// roundTripBody is roundTrip that returns the first limit bytes of a body
// that is longer, with over set, for callers that can use part of it.
func (c *Client) roundTripBody(ctx context.Context, r *apiRequest, limit int64) (data []byte, over bool, err error) {
	resp, err := c.send(ctx, r, 0)
	if err != nil {
		return nil, false, err
	}
	defer resp.close()
	idleLimit := c.timeouts.StreamIdle
	idle := time.AfterFunc(idleLimit, func() { resp.cancel(errIdleTimeout) })
	defer idle.Stop()
	body := &activityReader{r: io.LimitReader(resp.Body, limit+1), t: idle, d: idleLimit}
	data, err = io.ReadAll(body)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, false, ctx.Err()
		case errors.Is(context.Cause(resp.ctx), errIdleTimeout):
			return nil, false, &TimeoutError{Phase: PhaseStreamIdle, Limit: idleLimit, Host: r.host()}
		}
		return nil, false, fmt.Errorf("reading the reply from %s failed (%s): try again", r.host(), netReason(err))
	}
	if int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}
