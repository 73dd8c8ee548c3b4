package api

import (
	"strings"
	"testing"
)

// A base URL that is refused is quoted as it was typed: "not a url", not
// the "not%20a%20url" a parsed and printed URL would be; only a password
// and a query are cut out, and a control character is escaped by the
// quoting.
func TestBaseURLErrorsQuoteWhatWasTyped(t *testing.T) {
	for in, want := range map[string]string{
		"not a url":                         `"not a url" has no scheme`,
		"ftp://my host/v1":                  `"ftp://my host/v1" is not a valid URL`,
		"ftp://host/my path":                `"ftp://host/my path" must start with https://`,
		"ftp://host/v1?token=abc":           `"ftp://host/v1?…" must start`,
		"https://user:secret@x.example/ä b": `"https://…@x.example/ä b" contains a user name or password`,
		"https://":                          `"https://" has no host name`,
		"not\x1b[31m a url":                 `"not\x1b[31m a url" has no scheme`,
	} {
		_, _, err := normalizeBaseURL(in)
		if err == nil {
			t.Errorf("%q: no error", in)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v\nwant it to contain %s", in, err, want)
		}
		for _, hidden := range []string{"secret", "token=abc", "%20", "\x1b"} {
			if strings.Contains(err.Error(), hidden) {
				t.Errorf("%q: the error shows %q: %v", in, hidden, err)
			}
		}
	}
}

// redactURL cuts the password and the query out of the text and leaves
// the rest exactly as written.
func TestRedactURLKeepsTheText(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "",
		"http://proxy.example:3128":       "http://proxy.example:3128",
		"http://u:p@proxy.example:3128/x": "http://…@proxy.example:3128/x",
		"https://h/a b?sig=1#frag":        "https://h/a b?…#frag",
		"https://h/p@th":                  "https://…@th",
		"http://me:p/ss@proxy:3128":       "http://…@proxy:3128",
		"http://me:p#ss@proxy:3128":       "http://…@proxy:3128",
		"http://me:p?ss@h":                "http://…@h",
		"u:p@host":                        "…@host",
		"https://h/v1?":                   "https://h/v1?",
		"socks5://a@b@h:1080?x=1":         "socks5://…@h:1080?…",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
