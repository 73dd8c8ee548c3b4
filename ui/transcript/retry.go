package transcript

import (
	"regexp"
	"strconv"
	"strings"

	"parley/conversation"
)

// The retry hint under a failed or interrupted reply (issue 15 §21) shows
// only where the retry key does something useful: on the last message of
// the transcript (the key acts on the last turn, so an older failed reply
// in the history must not invite it), and not after a refusal that the
// same request would get again.

// RetryHelps reports whether retrying the reply m (ctrl+r on the last
// turn) can succeed: an interrupted reply is regenerated; a failed one
// can, unless its stored error is a refusal the same request would get
// again. The message keeps only the error's text, so that is read, and
// read conservatively: only the refusals parley's own gateway errors
// spell out count as hopeless (api.APIError: "the gateway answered 400
// Bad Request…" and the other 4xx statuses but 408, 409 and 429, and an
// exhausted quota, "retrying will not help"). Anything else (a network
// error, a 5xx, a rate limit, an error inside the stream) may pass on a
// second try.
//
// A failed image turn follows the same rule, since ctrl+r sends the same
// request again: a 400 (a size the model refuses), 401, 403 or 413 (the
// same images are as large again) would be refused again; a full
// image_dir, a timeout, a rate limit and a 5xx may pass anew.
func RetryHelps(m conversation.Message) bool {
	switch m.State {
	case conversation.StateInterrupted:
		return true
	case conversation.StateFailed:
		return !hopeless(m.Err)
	}
	return false
}

// answeredStatus finds the status of api.APIError's sentence; the first
// match is parley's own words (the gateway's message comes after them).
var answeredStatus = regexp.MustCompile(`(?i)\bgateway answered ([1-5][0-9]{2})\b`)

// hopeless reports whether a failed reply's error says that the same
// request cannot succeed.
func hopeless(err string) bool {
	if strings.Contains(strings.ToLower(err), "retrying will not help") {
		return true
	}
	code := answeredCode(err)
	switch code {
	case 408, 409, 429: // a timeout, a conflict, a rate limit: waiting helps
		return false
	}
	return code >= 400 && code < 500
}

// answeredCode is the status of api.APIError's sentence in err, 0 when
// there is none.
func answeredCode(err string) int {
	m := answeredStatus.FindStringSubmatch(err)
	if m == nil {
		return 0
	}
	code, _ := strconv.Atoi(m[1])
	return code
}
