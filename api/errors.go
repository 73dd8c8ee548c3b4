package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is an error the gateway reported: an HTTP status with its body, or
// an error event inside a streamed reply.
type APIError struct {
	StatusCode int    // for an error inside a stream: its numeric code if it is a 4xx/5xx status, else 0
	Status     string // "429 Too Many Requests"; "" inside a stream
	Code       string // the body's code, a number or a string on the wire
	Type       string
	Param      string
	// Message is the gateway's message with the API key masked. It is not
	// sanitised for terminals: callers that print it must do that.
	Message string
	// RetryAfter is the wait the gateway asked for (Retry-After or
	// retry-after-ms), and RetryAt the moment it ends; zero when not asked.
	RetryAfter time.Duration
	RetryAt    time.Time
	Attempts   int  // requests made, retries included
	InStream   bool // reported inside a streamed reply

	// Context for the hint in Error.
	model     string
	baseURL   string
	keySource string
	noKey     bool
	download  bool          // the failed request fetched a generated image
	waitLimit time.Duration // RetryPolicy.MaxWait when the wait was too long to retry
	param     *paramRefusal // the request's parameter the error is about
}

// Error is one sentence (without a final period, like every Go error):
// what the gateway said and what to do about it.
func (e *APIError) Error() string {
	var b strings.Builder
	status := e.Status
	if status == "" {
		status = fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	if e.InStream {
		b.WriteString("the gateway reported an error during the reply")
	} else {
		b.WriteString("the gateway answered " + status)
	}
	// What happened, then what the gateway said (unless it only repeats
	// the status): one sentence, the advice after the semicolon.
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	msg := e.Message
	if !e.RetryAt.IsZero() {
		msg = withoutRetryTime(msg)
	}
	if msg := strings.TrimRight(oneLine(msg, 400), ". "); msg != "" && !strings.EqualFold(msg, status) {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if tag := e.tag(); tag != "" && !strings.Contains(e.Message, tag) {
		b.WriteString(" (" + tag + ")")
	}
	if h := e.hint(); h != "" {
		b.WriteString("; ")
		b.WriteString(h)
	}
	return b.String()
}

// tag is the most telling of code and type.
func (e *APIError) tag() string {
	if e.Code != "" && e.Code != strconv.Itoa(e.StatusCode) {
		return e.Code
	}
	return e.Type
}

func (e *APIError) is(code string) bool { return e.Code == code || e.Type == code }

// quota reports an exhausted account, which no retry can fix.
func (e *APIError) quota() bool {
	return e.is("insufficient_quota") || e.StatusCode == http.StatusPaymentRequired
}

func (e *APIError) hint() string {
	status := e.StatusCode
	if e.download && status >= 400 && status < 500 {
		return "the image URL the gateway returned no longer works (it may have expired), so generate the image again"
	}
	switch {
	case e.quota():
		return "the account is out of credit or quota, so check the plan and billing with the provider (retrying will not help)"
	case e.is("model_not_found") || status == http.StatusNotFound:
		return e.modelHint()
	case e.is("context_length_exceeded"):
		return "the conversation is too long for the model: start a new one or remove attachments"
	}
	switch {
	case status == http.StatusUnauthorized:
		if e.noKey {
			return "no API key was sent: set " + e.keyWhere()
		}
		return "check the API key in " + e.keyWhere()
	case status == http.StatusForbidden:
		return "the key is not allowed to use this model or endpoint: check its permissions, project and region with the provider"
	case e.param != nil:
		return e.param.hint()
	case status == http.StatusBadRequest && strings.Contains(e.Message, "HTTP request to an HTTPS server"):
		return "write the base URL with https://"
	case status == http.StatusBadRequest:
		return "the gateway rejected the request: check that the model supports what was asked (images, size, n)"
	case status == http.StatusRequestEntityTooLarge:
		return "the request is too large: attach fewer or smaller images"
	case status == http.StatusUnsupportedMediaType || status == http.StatusUnprocessableEntity:
		return "check that the base URL " + e.baseOrDefault() + " points to an OpenAI-compatible API"
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable && !e.RetryAt.IsZero():
		if !e.RetryAt.IsZero() {
			h := "try again after " + clock(e.RetryAt)
			if e.waitLimit > 0 {
				h += " (the gateway asks to wait " + e.RetryAfter.Round(time.Second).String() + ", longer than parley waits by itself)"
			}
			return h
		}
		return "the rate limit was hit: wait a moment and try again"
	case status == http.StatusRequestTimeout || status == http.StatusConflict:
		return "try again"
	case status >= 500:
		return "the gateway or the model is having trouble: try again later"
	case e.InStream:
		return "the reply may be incomplete: try again"
	}
	return ""
}

func (e *APIError) modelHint() string {
	h := "check the model name"
	if e.model != "" {
		h += " " + strconv.Quote(e.model)
	}
	return h + " with `parley models`, or the base URL " + e.baseOrDefault()
}

func (e *APIError) baseOrDefault() string {
	if e.baseURL == "" {
		return "in the config"
	}
	return "(" + e.baseURL + ")"
}

func (e *APIError) keyWhere() string {
	if e.keySource != "" {
		return e.keySource
	}
	return "OPENAI_API_KEY or the provider's api_key_env / api_key_cmd in the config"
}

// clock formats a moment for "try again after": the time of day when it is
// today, with the date otherwise.
func clock(t time.Time) string {
	t = t.Local()
	now := time.Now()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}

// oneLine collapses whitespace and cuts s to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// newAPIError builds the error for a failed HTTP reply.
func (c *Client) newAPIError(resp *http.Response, body []byte, model string) *APIError {
	e := &APIError{StatusCode: resp.StatusCode, Status: resp.Status}
	if e.Status == "" || !strings.HasPrefix(e.Status, strconv.Itoa(resp.StatusCode)) {
		e.Status = fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	if eb, ok := parseErrorBody(body, resp.Header.Get("Content-Type")); ok {
		c.fill(e, eb)
	}
	c.annotate(e, model)
	return e
}

// fill copies a parsed body into e with the key masked everywhere.
func (c *Client) fill(e *APIError, eb errorBody) {
	e.Message = c.red.mask(eb.Message)
	e.Code = c.red.mask(eb.Code)
	e.Type = c.red.mask(eb.Type)
	e.Param = c.red.mask(eb.Param)
}

func (c *Client) annotate(e *APIError, model string) {
	e.model = model
	e.baseURL = c.baseStr
	e.keySource = c.keySource
	e.noKey = c.key == ""
}
