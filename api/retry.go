package api

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how failed requests are repeated. Zero fields take the
// defaults.
type RetryPolicy struct {
	MaxRetries int           // default 2 (so at most 3 attempts); -1 means no retries
	Base       time.Duration // default 500ms, doubling with every retry
	Max        time.Duration // default 8s per backoff
	MaxWait    time.Duration // default 60s: a longer Retry-After is not waited for
}

// Defaults for RetryPolicy.
const (
	DefaultMaxRetries = 2
	DefaultRetryBase  = 500 * time.Millisecond
	DefaultRetryMax   = 8 * time.Second
	DefaultMaxWait    = 60 * time.Second
)

func (p RetryPolicy) withDefaults() RetryPolicy {
	switch {
	case p.MaxRetries == 0:
		p.MaxRetries = DefaultMaxRetries
	case p.MaxRetries < 0:
		p.MaxRetries = 0
	}
	if p.Base <= 0 {
		p.Base = DefaultRetryBase
	}
	if p.Max <= 0 {
		p.Max = DefaultRetryMax
	}
	if p.MaxWait <= 0 {
		p.MaxWait = DefaultMaxWait
	}
	return p
}

// backoff is the wait before retry number n (1 for the first retry):
// Base doubling, capped at Max, less up to a quarter at random so that many
// clients do not come back in step.
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.Max
	if n-1 < 30 {
		d = min(p.Max, p.Base<<(n-1))
	}
	return d - time.Duration(rand.Float64()*float64(d)/4)
}

// retryAfter reads the wait a reply asks for: retry-after-ms (OpenAI, in
// milliseconds) or Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	const longest = 365 * 24 * time.Hour // keeps absurd values from overflowing
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return min(time.Duration(ms*float64(time.Millisecond)), longest), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || math.IsNaN(s) {
			return 0, false
		}
		return min(time.Duration(min(s, longest.Seconds())*float64(time.Second)), longest), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), longest), true
	}
	return 0, false
}

// rateLimitReset reads when a rate limit resets from the headers OpenAI
// and gateways like it send (x-ratelimit-reset-requests and -tokens, as
// "1s", "6m0s" or "20ms"): the later of the two, for a 429 that has no
// Retry-After. The limit that is used up is the one that resets last.
func rateLimitReset(h http.Header) (time.Duration, bool) {
	const longest = 365 * 24 * time.Hour
	var d time.Duration
	found := false
	for _, name := range []string{"X-Ratelimit-Reset-Requests", "X-Ratelimit-Reset-Tokens"} {
		v, err := time.ParseDuration(strings.TrimSpace(h.Get(name)))
		if err != nil || v < 0 {
			continue
		}
		d, found = max(d, min(v, longest)), true
	}
	return d, found
}

// retryableStatus lists the statuses worth another attempt.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// retryableAPIError decides for an error reply (or a stream error event):
// 408, 409, 429 and 5xx, but never an exhausted quota, even on 429.
func retryableAPIError(e *APIError) bool {
	if e.quota() {
		return false
	}
	if e.StatusCode != 0 {
		return retryableStatus(e.StatusCode)
	}
	// Stream errors often carry no status; their code or type tells.
	if n, err := strconv.Atoi(e.Code); err == nil {
		return retryableStatus(n)
	}
	switch {
	case e.is("server_error"), e.is("rate_limit_exceeded"), e.is("overloaded_error"),
		e.is("internal_error"), e.is("service_unavailable"), e.is("timeout"):
		return true
	}
	return false
}

// retryClock is the time source of retries: the real one, or a fake in tests so
// that retry waits are checked without being waited for.
type retryClock struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) bool // false when ctx ended first
}

func realClock() retryClock { return retryClock{now: time.Now, sleep: sleepCtx} }

// sleepCtx waits d or until ctx ends, reporting false in the latter case.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
