package demo

import (
	"strings"

	"parley/api/fake"
)

// failDeltas is how many deltas demo-fail streams before its error.
const failDeltas = 10

// fail is demo-fail's reply. A message naming a status shows that error
// the way a gateway sends it: 429 (rate limited, with Retry-After, so
// parley's retries can be watched), 401 (a refused key) or 500. Otherwise
// a stream breaks off with an error after a few words, and a request
// without streaming gets a 500.
func (g *Gateway) fail(c fake.Call) fake.Reply {
	text := strings.ToLower(lastUserText(c.Chat))
	switch {
	case strings.Contains(text, "429"):
		return fake.Reply{Status: 429, Header: map[string]string{"Retry-After": "1"},
			ErrorMessage: "Rate limit reached for demo-fail: it answers every request with 429 when asked to. Retry after 1 second.",
			ErrorType:    "requests", ErrorCode: "rate_limit_exceeded"}
	case strings.Contains(text, "401"):
		return fake.Reply{Status: 401,
			ErrorMessage: "Incorrect API key provided: demo-fail refuses every key when asked to.",
			ErrorCode:    "invalid_api_key"}
	case strings.Contains(text, "500") || !c.Stream:
		return serverError("demo-fail failed on purpose: this is how a gateway's internal error looks. Ask it with 429 or 401 in your message to see those errors.")
	}
	r := g.stream("This reply starts well, but demo-fail always fails, so it will break off right about here and")
	r.ErrorAfterDeltas = failDeltas
	r.ErrorMessage = "demo-fail failed in the middle of the reply on purpose: the text so far is kept. Ask it with 429, 401 or 500 in your message to see those errors."
	r.ErrorType = "server_error"
	return r
}
