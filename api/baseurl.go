package api

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// DefaultBaseURL is used when no base URL is configured.
const DefaultBaseURL = "https://api.openai.com/v1"

// normalizeBaseURL accepts a base URL with or without its /v1 and returns it
// without a trailing slash. A bare host ("https://api.openai.com") gets /v1;
// any other path is the user's own prefix and is kept as it is (gateways
// mount the API under ".../api/v1", ".../openai", ".../v1beta/openai").
// It also returns a warning for plain http to a host other than this machine.
func normalizeBaseURL(raw string) (*url.URL, string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		raw = DefaultBaseURL
	}
	if !strings.Contains(raw, "://") {
		return nil, "", fmt.Errorf("the base URL %q has no scheme: write it with https:// (or http:// for a gateway on this machine), like https://api.openai.com/v1", redactURL(raw))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", fmt.Errorf("the base URL %q is not a valid URL (%v): write it like https://api.openai.com/v1", redactURL(raw), urlErrText(err))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, "", fmt.Errorf("the base URL %q must start with https:// (or http:// for a gateway on this machine)", redactURL(raw))
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, "", fmt.Errorf("the base URL %q has no host name: write it like https://api.openai.com/v1", redactURL(raw))
	}
	if u.User != nil {
		return nil, "", fmt.Errorf("the base URL %q contains a user name or password: remove it and give the key through api_key_env or OPENAI_API_KEY", redactURL(raw))
	}
	u.Fragment, u.RawFragment = "", ""
	path := strings.TrimRight(u.Path, "/")
	if path == "" {
		path = "/v1"
	}
	u.Path, u.RawPath = path, ""
	warn := ""
	if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		warn = fmt.Sprintf("the base URL uses plain http to %s: the API key and the conversation travel unencrypted, so use https unless this is a trusted local network", u.Host)
	}
	return u, warn, nil
}

// isLoopbackHost reports a host name that can only mean this machine.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameHost compares host and port, with the scheme's default port filled in.
func sameHost(a, b *url.URL) bool {
	return strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "http") {
		return "80"
	}
	return "443"
}

// origin is scheme://host, the part of a URL that errors may name.
func origin(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// redactURL drops a password (and query, which may hold tokens) from a URL
// that is about to be shown. The rest stays as it was written: the
// message quotes what the user typed ("not a url", not "not%20a%20url"),
// so it is cut from the text, never parsed and printed again. Everything
// before the last "@" after the scheme goes, wherever it stands: a
// password written raw may hold "/", "?" or "#", and hiding a path's "@"
// too is the safe mistake.
func redactURL(raw string) string {
	s := raw
	start := 0
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + len("://")
	}
	if at := strings.LastIndex(s[start:], "@"); at >= 0 {
		s = s[:start] + "…" + s[start+at:]
	}
	if base, rest, ok := strings.Cut(s, "?"); ok {
		query, frag, hasFrag := strings.Cut(rest, "#")
		if query != "" {
			s = base + "?…"
			if hasFrag {
				s += "#" + frag
			}
		}
	}
	return s
}

// urlErrText is the reason of a url.Parse error without the URL it repeats.
func urlErrText(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
}
