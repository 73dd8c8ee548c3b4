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
// A failed image turn offers the key but after an exhausted quota: the
// request is made anew from what was asked (a 413 or a refused size says
// what to change, and a full image_dir may have been emptied meanwhile),
// and the README promises that ctrl+r tries again.
func RetryHelps(m conversation.Message) bool {
	switch m.State {
	case conversation.StateInterrupted:
		return true
	case conversation.StateFailed:
		if m.IsImages() {
			return !strings.Contains(strings.ToLower(m.Err), "retrying will not help")
		}
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
	m := answeredStatus.FindStringSubmatch(err)
	if m == nil {
		return false
	}
	code, _ := strconv.Atoi(m[1])
	switch code {
	case 408, 409, 429: // a timeout, a conflict, a rate limit: waiting helps
		return false
	}
	return code >= 400 && code < 500
}
