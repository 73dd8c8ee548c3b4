package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parley/api/apitest"
)

func TestNormalizeBaseURL(t *testing.T) {
	cases := map[string]string{
		"":                                       "https://api.openai.com/v1",
		"https://api.openai.com":                 "https://api.openai.com/v1",
		"https://api.openai.com/":                "https://api.openai.com/v1",
		"https://api.openai.com/v1":              "https://api.openai.com/v1",
		"https://api.openai.com/v1/":             "https://api.openai.com/v1",
		"  HTTPS://api.openai.com/v1//  ":        "https://api.openai.com/v1",
		"http://localhost:11434":                 "http://localhost:11434/v1",
		"https://openrouter.ai/api/v1":           "https://openrouter.ai/api/v1",
		"https://api.groq.com/openai/v1":         "https://api.groq.com/openai/v1",
		"https://g.example/v1beta/openai/":       "https://g.example/v1beta/openai",
		"https://x.example/openai?api-version=1": "https://x.example/openai?api-version=1",
		"https://x.example/v1#frag":              "https://x.example/v1",
	}
	for in, want := range cases {
		u, _, err := normalizeBaseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("%q: got %v (%v), want %q", in, u, err, want)
		}
	}
	for _, bad := range []string{"api.openai.com/v1", "ftp://x/v1", "https://", "https://user:secret@x/v1", "http://[::1"} {
		_, _, err := normalizeBaseURL(bad)
		if err == nil {
			t.Errorf("%q: no error", bad)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: error shows the password: %v", bad, err)
		}
	}
	c, err := NewClient(ClientConfig{BaseURL: "https://x.example/openai?api-version=1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.endpoint("/chat/completions"); got != "https://x.example/openai/chat/completions?api-version=1" {
		t.Errorf("endpoint keeps the query: %q", got)
	}
}

// TestRequestHeaders checks what goes out with each request.
func TestRequestHeaders(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw, func(c *ClientConfig) {
		c.UserAgent = "parley/1.2.3"
		c.Headers = map[string]string{"x-title": "parley", "HTTP-Referer": "https://example.com", "authorization": "Basic nope", "Content-Type": "text/plain"}
	})
	if _, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListModels(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := gw.Requests()
	post, get := reqs[0].Header, reqs[1].Header
	for name, want := range map[string]string{
		"Authorization": "Bearer " + apitest.DefaultAPIKey,
		"Content-Type":  "application/json",
		"User-Agent":    "parley/1.2.3",
		"X-Title":       "parley",
		"Http-Referer":  "https://example.com",
	} {
		if got := post.Get(name); got != want {
			t.Errorf("POST %s = %q, want %q", name, got, want)
		}
	}
	if get.Get("Content-Type") != "" || get.Get("Authorization") == "" || get.Get("X-Title") != "parley" {
		t.Errorf("GET headers %v", get)
	}
	w := strings.Join(c.Warnings(), "\n")
	if !strings.Contains(w, "Authorization is ignored") || !strings.Contains(w, "Content-Type is ignored") {
		t.Errorf("reserved headers not warned about: %q", w)
	}
	// No key: no Authorization header at all (local servers).
	gw2 := apitest.New(t, apitest.WithAPIKey(""))
	c2 := newTestClient(t, gw2, func(c *ClientConfig) { c.APIKey = "" })
	if _, err := c2.ListModels(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r, _ := gw2.LastRequest(); r.Header.Get("Authorization") != "" || r.Header.Get("User-Agent") != "parley/dev" {
		t.Errorf("headers without key: %v", r.Header)
	}
}

func TestNewClientRejects(t *testing.T) {
	for name, cfg := range map[string]ClientConfig{
		"header name":     {Headers: map[string]string{"Bad Name": "x"}},
		"header value":    {Headers: map[string]string{"X-A": "a\r\nInjected: 1"}},
		"key with CRLF":   {APIKey: "sk-abc\nX-Injected: 1"},
		"proxy scheme":    {Proxy: "ftp://proxy:21"},
		"proxy not a URL": {Proxy: "::::"},
	} {
		if _, err := NewClient(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "sk-abc") {
			t.Errorf("%s: error shows the key: %v", name, err)
		}
	}
}

// fakeProxy is a forward proxy for plain http: it answers every request
// itself and records the absolute URLs it was asked for.
func fakeProxy(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.String())
		mu.Unlock()
		fmt.Fprint(w, `{"data":[{"id":"via-proxy"}]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

func TestExplicitProxy(t *testing.T) {
	proxy, seen := fakeProxy(t)
	c, err := NewClient(ClientConfig{BaseURL: "http://gateway.invalid/v1", Proxy: proxy.URL})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := c.ListModels(context.Background())
	if err != nil || !slices.Equal(ids, []string{"via-proxy"}) {
		t.Fatalf("ids %v, err %v", ids, err)
	}
	if got := seen(); len(got) != 1 || got[0] != "GET http://gateway.invalid/v1/models" {
		t.Fatalf("proxy saw %q", got)
	}
}

// TestEnvironmentProxy runs a child test process with HTTP_PROXY set, since
// net/http reads the variables once per process.
func TestEnvironmentProxy(t *testing.T) {
	if os.Getenv("PARLEY_PROXY_CHILD") != "" {
		c, err := NewClient(ClientConfig{BaseURL: "http://gateway.invalid/v1"})
		if err != nil {
			t.Fatal(err)
		}
		ids, err := c.ListModels(context.Background())
		if err != nil || !slices.Equal(ids, []string{"via-proxy"}) {
			t.Fatalf("ids %v, err %v", ids, err)
		}
		return
	}
	c, err := NewClient(ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.ValueOf(c.transport.Proxy).Pointer() != reflect.ValueOf(http.ProxyFromEnvironment).Pointer() {
		t.Fatal("without Proxy the transport must use http.ProxyFromEnvironment")
	}
	proxy, seen := fakeProxy(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvironmentProxy$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "PARLEY_PROXY_CHILD=1", "HTTP_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "NO_PROXY=", "no_proxy=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if got := seen(); len(got) != 1 || got[0] != "GET http://gateway.invalid/v1/models" {
		t.Fatalf("proxy saw %q", got)
	}
}

func TestListModels(t *testing.T) {
	gw := apitest.New(t)
	ids, err := newTestClient(t, gw).ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gpt-4o", "llama3", "gpt-image-1"} {
		if !slices.Contains(ids, want) {
			t.Errorf("ids %v lack %s", ids, want)
		}
	}
	if r, _ := gw.LastRequest(); r.Method != "GET" || r.Path != "/v1/models" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	for body, want := range map[string][]string{
		`[{"id":"a"},{"id":"b"}]`:           {"a", "b"},
		`{"models":[{"name":"llama3:8b"}]}`: {"llama3:8b"},
		`{"data":[]}`:                       {},
	} {
		gw.Enqueue(apitest.Reply{Status: 200, Body: body})
		ids, err := newTestClient(t, gw).ListModels(context.Background())
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("%s: %v %v", body, ids, err)
		}
	}
}

func TestChatReply(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	gw.Enqueue(apitest.Reply{Text: "Hello there"})
	resp, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi"), Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}})
	if err != nil || resp.Text() != "Hello there" {
		t.Fatalf("%v %v", resp, err)
	}
	if r, _ := gw.LastRequest(); r.JSON["stream"] != nil || r.JSON["stream_options"] != nil {
		t.Fatalf("Chat sent stream fields: %s", r.Body)
	}
	gw.Enqueue(apitest.Reply{Status: 200, Body: `{"error":{"message":"upstream failed","code":"server_error"}}`})
	if _, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")}); err == nil || !strings.Contains(err.Error(), "upstream failed") {
		t.Fatalf("error in a 200 reply: %v", err)
	}
	gw.Enqueue(apitest.Reply{Status: 200, Body: `{"choices":[]}`})
	if _, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")}); err == nil || !strings.Contains(err.Error(), "no choices") {
		t.Fatalf("empty choices: %v", err)
	}
}

// TestSchemeMismatch: https:// to a plain http gateway fails at once (no
// retries: it cannot get better) saying to use http://, and http:// to a
// TLS server says to use https://.
func TestSchemeMismatch(t *testing.T) {
	gw := apitest.New(t)
	c, err := NewClient(ClientConfig{BaseURL: strings.Replace(gw.URL(), "http://", "https://", 1), Retry: RetryPolicy{Base: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	var dials atomic.Int32
	dial := c.transport.DialContext
	c.transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx, network, addr)
	}
	err = chatOnce(c)
	var ce *ConnectionError
	if !errors.As(err, &ce) || dials.Load() != 1 {
		t.Fatalf("err %T %v after %d dials, want one attempt", err, err, dials.Load())
	}
	if msg := err.Error(); !strings.Contains(msg, "plain http, not https") || strings.Contains(msg, "Post ") {
		t.Fatalf("message %q", msg)
	}

	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake error is expected
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	c2, err := NewClient(ClientConfig{BaseURL: strings.Replace(tlsSrv.URL, "https://", "http://", 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.CloseIdleConnections()
	err = chatOnce(c2)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(err.Error(), "write the base URL with https://") {
		t.Fatalf("http to a TLS port: %v", err)
	}
}

// TestNoProxy runs a child process with HTTP_PROXY and NO_PROXY naming the
// gateway: the request must go straight to the gateway, not the proxy.
// The gateway's name is resolved by a dial hook, so no DNS is involved.
func TestNoProxy(t *testing.T) {
	if addr := os.Getenv("PARLEY_NOPROXY_CHILD"); addr != "" {
		c, err := NewClient(ClientConfig{BaseURL: "http://gateway.invalid/v1"})
		if err != nil {
			t.Fatal(err)
		}
		var dialed []string
		dial := c.transport.DialContext
		c.transport.DialContext = func(ctx context.Context, network, a string) (net.Conn, error) {
			dialed = append(dialed, a)
			if a == "gateway.invalid:80" {
				a = addr
			}
			return dial(ctx, network, a)
		}
		ids, err := c.ListModels(context.Background())
		if err != nil || !slices.Equal(ids, []string{"direct"}) || !slices.Equal(dialed, []string{"gateway.invalid:80"}) {
			t.Fatalf("ids %v, err %v, dialed %v", ids, err, dialed)
		}
		return
	}
	direct := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"id":"direct"}]}`)
	}))
	defer direct.Close()
	proxy, seen := fakeProxy(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoProxy$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "PARLEY_NOPROXY_CHILD="+direct.Listener.Addr().String(),
		"HTTP_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "NO_PROXY=gateway.invalid", "no_proxy=gateway.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if got := seen(); len(got) != 0 {
		t.Fatalf("the proxy was used despite NO_PROXY: %q", got)
	}
}

// TestEnvironmentHTTPSProxy: an https base URL goes through HTTPS_PROXY as
// a CONNECT tunnel, with TLS to the gateway end to end. The gateway is
// called example.com (a name in httptest's certificate); only the proxy
// knows where it is, so no DNS is involved.
func TestEnvironmentHTTPSProxy(t *testing.T) {
	if os.Getenv("PARLEY_HTTPS_PROXY_CHILD") != "" {
		c, err := NewClient(ClientConfig{BaseURL: "https://example.com/v1", APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(os.Getenv("PARLEY_HTTPS_PROXY_CA"))) {
			t.Fatal("bad CA")
		}
		c.transport.TLSClientConfig = &tls.Config{RootCAs: pool}
		ids, err := c.ListModels(context.Background())
		if err != nil || !slices.Equal(ids, []string{"tunnelled"}) {
			t.Fatalf("ids %v, err %v", ids, err)
		}
		return
	}
	var auth atomic.Value
	gw := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Host + " " + r.Header.Get("Authorization"))
		fmt.Fprint(w, `{"data":[{"id":"tunnelled"}]}`)
	}))
	defer gw.Close()
	var connects atomic.Value
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		connects.Store(r.Host)
		upstream, err := net.Dial("tcp", gw.Listener.Addr().String())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			upstream.Close()
			return
		}
		go func() {
			io.Copy(upstream, buf)
			upstream.Close()
		}()
		io.Copy(conn, upstream)
		conn.Close()
	}))
	defer proxy.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: gw.Certificate().Raw})
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvironmentHTTPSProxy$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "PARLEY_HTTPS_PROXY_CHILD=1", "PARLEY_HTTPS_PROXY_CA="+string(ca),
		"HTTPS_PROXY="+proxy.URL, "https_proxy="+proxy.URL, "NO_PROXY=", "no_proxy=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if got, _ := connects.Load().(string); got != "example.com:443" {
		t.Fatalf("the proxy was asked to CONNECT %q", got)
	}
	if got, _ := auth.Load().(string); got != "example.com Bearer k" {
		t.Fatalf("the gateway saw %q", got)
	}
}
