package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// secretHeader marks header names whose values are never shown, even when
// they do not contain the key (an extra header may hold another token).
// Rate-limit headers ("x-ratelimit-remaining-tokens") stay visible.
func secretHeader(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"auth", "cookie", "secret", "password", "signature", "api-key", "apikey"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return strings.HasSuffix(name, "key") || strings.HasSuffix(name, "token")
}

// tracef writes one block of the verbose trace: the key masked first, then
// everything made inert for a terminal by the configured sanitiser, since a
// reason phrase, a header value or an error message quoted in a retry line
// is the gateway's text.
func (c *Client) tracef(format string, args ...any) {
	if c.verbose == nil {
		return
	}
	line := c.sanitize(c.red.mask(fmt.Sprintf(format, args...)))
	c.vmu.Lock()
	defer c.vmu.Unlock()
	fmt.Fprint(c.verbose, line)
}

func (c *Client) traceRequest(req *http.Request, attempt int) {
	if c.verbose == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s", req.Method, redactURL(req.URL.String()))
	if attempt > 1 {
		fmt.Fprintf(&b, " (attempt %d)", attempt)
	}
	if req.ContentLength > 0 {
		fmt.Fprintf(&b, " [%d bytes]", req.ContentLength)
	}
	b.WriteByte('\n')
	c.writeHeaders(&b, "> ", req.Header)
	c.tracef("%s", b.String())
}

func (c *Client) traceResponse(resp *http.Response, took time.Duration) {
	if c.verbose == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "< %s %s (%s)\n", resp.Proto, resp.Status, took.Round(time.Millisecond))
	c.writeHeaders(&b, "< ", resp.Header)
	c.tracef("%s", b.String())
}

func (c *Client) writeHeaders(b *strings.Builder, prefix string, h http.Header) {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range h[name] {
			switch {
			case name == "Authorization" && strings.HasPrefix(v, "Bearer "):
				v = "Bearer " + redactedKey
			case secretHeader(name):
				v = redactedKey
			}
			fmt.Fprintf(b, "%s%s: %s\n", prefix, name, v)
		}
	}
}
