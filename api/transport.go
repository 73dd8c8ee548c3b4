package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// newTransport builds the HTTP transport: the configured proxy, or the
// standard HTTPS_PROXY/HTTP_PROXY/NO_PROXY variables (http.ProxyFromEnvironment);
// dialing and TLS each bounded by the connect timeout. The response header
// timeout is applied per request (see attempt), since image requests need a
// longer one.
func newTransport(proxy string, t Timeouts) (*http.Transport, error) {
	proxyFunc := http.ProxyFromEnvironment
	if proxy != "" {
		u, err := url.Parse(proxy)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("the proxy %q is not a valid URL such as http://proxy.example:3128", redactURL(proxy))
		}
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "socks5", "socks5h":
		default:
			return nil, fmt.Errorf("the proxy %q has scheme %q: use http, https or socks5", redactURL(proxy), u.Scheme)
		}
		proxyFunc = http.ProxyURL(u)
	}
	d := &net.Dialer{Timeout: t.Connect, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 proxyFunc,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   t.Connect,
		ExpectContinueTimeout: time.Second,
	}, nil
}

// credentialsKey marks a request context whose request carries the key or
// the configured extra headers; its value is a *credentialPolicy.
type credentialsKey struct{}

// credentialPolicy marks a request that carries the key and the extra
// headers: a redirect to another origin is refused (image downloads
// included: parley fetches images from the gateway's own host only).
type credentialPolicy struct {
	headers []string // the extra header names
}

func withCredentials(ctx context.Context, p *credentialPolicy) context.Context {
	return context.WithValue(ctx, credentialsKey{}, p)
}

// RedirectError is a redirect parley refused to follow because the key
// would have gone to another host or over plain http.
type RedirectError struct {
	From, To string // scheme://host of both ends
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the gateway at %s redirected to %s, which parley does not follow because the API key would go along to another host or over plain http; if %s is the right address, set it as the base URL", e.From, e.To, e.To)
}

// checkRedirect lets a request that carries credentials follow a redirect
// only to the same scheme and host. Go itself drops Authorization for other
// hosts, but not custom headers such as api-key, and it would follow
// https -> http; refusing is clearer than a confusing 401 from elsewhere.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("the gateway redirected 10 times in a row; check the base URL")
	}
	first := via[0]
	p, _ := req.Context().Value(credentialsKey{}).(*credentialPolicy)
	if p == nil || strings.EqualFold(req.URL.Scheme, first.URL.Scheme) && sameHost(req.URL, first.URL) {
		return nil
	}
	return &RedirectError{From: origin(first.URL), To: origin(req.URL)}
}

// netReason is the short cause of a transport error, without the
// "Post <url>:" prefix url.Error adds.
func netReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		if dns.IsNotFound {
			return "no such host " + dns.Name
		}
		return "DNS lookup of " + dns.Name + " failed"
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return "its TLS certificate is not trusted: " + cert.Err.Error()
	}
	if plainHTTPServer(err) {
		return "it speaks plain http, not https, so write the base URL with http://"
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// plainHTTPServer reports net/http's error for an https request answered
// in plain http (a local gateway given an https:// base URL). net/http
// does not export it, so its text is matched.
func plainHTTPServer(err error) bool {
	return strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// retryableNetErr reports transport failures worth another attempt:
// refused or reset connections, EOF before a response. DNS names that do
// not exist, certificate problems and refused redirects will fail the same
// way again.
func retryableNetErr(err error) bool {
	var redirect *RedirectError
	if errors.As(err, &redirect) {
		return false
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return false
	}
	var cert *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &cert) || errors.As(err, &unknownCA) || errors.As(err, &hostErr) {
		return false
	}
	var recordErr tls.RecordHeaderError
	if errors.As(err, &recordErr) || plainHTTPServer(err) {
		return false // https to a plain http port: retrying will not help
	}
	return true
}
