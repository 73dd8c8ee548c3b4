package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

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
	cmd.Env = append(os.Environ(), "PARLEY_PROXY_CHILD=1", "HTTP_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "NO_PROXY=", "no_proxy=")
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
