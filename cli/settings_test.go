package cli

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/apitest"
)

// These tests go through the whole path a setting takes: the config file
// (or the environment), config.Load, the provider's api.ClientConfig, the
// client, and what the fake gateway receives.

// gatewayProxy is a forward proxy for plain http that serves every request
// with the fake gateway itself, recording the absolute URLs it was asked
// for. It lets a test use a non-loopback base URL without DNS or network.
func gatewayProxy(t *testing.T, gw *apitest.Server) (url string, seen func() []string) {
	t.Helper()
	var (
		mu   sync.Mutex
		urls []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		urls = append(urls, r.Method+" "+r.URL.String())
		mu.Unlock()
		gw.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), urls...)
	}
}

// TestProviderSettingsReachTheWire: a provider's base_url, proxy, headers
// and api_key_env from the config file arrive at the gateway; the
// User-Agent is parley/<version>; plain http to a remote host is warned
// about on stderr.
func TestProviderSettingsReachTheWire(t *testing.T) {
	h := newHarness(t)
	proxy, seen := gatewayProxy(t, h.gw)
	h.env["MY_GATEWAY_KEY"] = apitest.DefaultAPIKey
	delete(h.env, "OPENAI_API_KEY")
	h.writeConfig(fmt.Sprintf(`default_model = "gpt-4o"

[[providers]]
name = "remote"
base_url = "http://gateway.example/v1"
api_key_env = "MY_GATEWAY_KEY"
proxy = %q
headers = { "X-Title" = "parley", "HTTP-Referer" = "https://example.org" }
`, proxy))
	r := h.run(nil, "ask", "q")
	r.mustCode(t, 0)
	if r.stdout != "You said: q\n" {
		t.Fatalf("stdout = %q", r.stdout)
	}
	if got := seen(); len(got) != 1 || got[0] != "POST http://gateway.example/v1/chat/completions" {
		t.Fatalf("the proxy saw %q", got)
	}
	req, _ := h.gw.LastRequest()
	for name, want := range map[string]string{
		"Authorization": "Bearer " + apitest.DefaultAPIKey,
		"X-Title":       "parley",
		"Http-Referer":  "https://example.org",
		"User-Agent":    "parley/" + Version(),
	} {
		if got := req.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if !strings.Contains(r.stderr, "parley: Warning: the base URL uses plain http to gateway.example") {
		t.Errorf("no plain-http warning on stderr: %q", r.stderr)
	}
}

// TestUserAgentAndNoWarningForLoopback: the environment-only setup sends
// parley/<version> and does not warn about http to this machine; a base URL
// without /v1 works.
func TestUserAgentAndNoWarningForLoopback(t *testing.T) {
	h := newHarness(t)
	h.env["OPENAI_BASE_URL"] = h.gw.RootURL() // no /v1
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	if req.Path != "/v1/chat/completions" || req.Header.Get("User-Agent") != "parley/"+Version() {
		t.Fatalf("request %s with User-Agent %q", req.Path, req.Header.Get("User-Agent"))
	}
	if r.stderr != "" {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

// TestTimeoutsFromTheConfig: each timeout key of the config bounds its
// phase, and the message names the key to raise.
func TestTimeoutsFromTheConfig(t *testing.T) {
	t.Run("stream_idle_timeout", func(t *testing.T) {
		h := newHarness(t)
		h.writeConfig("stream_idle_timeout = \"200ms\"\n")
		h.gw.Enqueue(apitest.Reply{Text: "first words then nothing", DeltaRunes: 6, StallAfterDeltas: 1})
		start := time.Now()
		r := h.run(nil, "ask", "-m", "gpt-4o", "q")
		r.mustCode(t, 1)
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("took %v with a 200ms idle limit", took)
		}
		if r.stdout != "first \n" || !strings.Contains(r.stderr, "200ms") || !strings.Contains(r.stderr, "stream_idle_timeout") {
			t.Fatalf("stdout %q, stderr %q", r.stdout, r.stderr)
		}
	})
	t.Run("header_timeout", func(t *testing.T) {
		h := newHarness(t)
		h.writeConfig("header_timeout = \"150ms\"\n")
		h.gw.Enqueue(apitest.Reply{Delay: 3 * time.Second})
		r := h.run(nil, "ask", "-m", "gpt-4o", "q")
		r.mustCode(t, 1)
		if !strings.Contains(r.stderr, "150ms") || !strings.Contains(r.stderr, "header_timeout") || h.gw.RequestCount() != 1 {
			t.Fatalf("stderr %q after %d requests", r.stderr, h.gw.RequestCount())
		}
	})
	t.Run("image_timeout", func(t *testing.T) {
		h := newHarness(t)
		// An image request waits image_timeout, not header_timeout: a reply
		// 200ms late is 20 times header_timeout and well within an
		// image_timeout of a minute (one of 300ms failed on a loaded
		// machine, where a reply sent 100ms late arrived later than that).
		h.writeConfig("header_timeout = \"10ms\"\nimage_timeout = \"1m\"\n")
		h.gw.Enqueue(apitest.Reply{Delay: 200 * time.Millisecond})
		h.run(nil, "image", "-m", "gpt-image-1", "x").mustCode(t, 0)
		// image_timeout bounds that wait and the message names it. The
		// reply would come in an hour; it stops when parley hangs up.
		h.writeConfig("header_timeout = \"10ms\"\nimage_timeout = \"300ms\"\n")
		h.gw.Enqueue(apitest.Reply{Delay: time.Hour})
		r := h.run(nil, "image", "-m", "gpt-image-1", "x")
		r.mustCode(t, 1)
		if !strings.Contains(r.stderr, "300ms") || !strings.Contains(r.stderr, "image_timeout") {
			t.Fatalf("stderr %q", r.stderr)
		}
	})
	t.Run("connect_timeout", func(t *testing.T) {
		// A server that accepts TCP and never answers the TLS handshake:
		// the handshake is part of connecting.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var conns []net.Conn
		var mu sync.Mutex
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
		t.Cleanup(func() {
			l.Close()
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				c.Close()
			}
		})
		h := newHarness(t)
		h.env["OPENAI_BASE_URL"] = "https://" + l.Addr().String() + "/v1"
		h.writeConfig("connect_timeout = \"150ms\"\nmax_retries = 0\n")
		start := time.Now()
		r := h.run(nil, "ask", "-m", "gpt-4o", "q")
		r.mustCode(t, 1)
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("took %v with a 150ms connect limit", took)
		}
		if !strings.Contains(r.stderr, "150ms") || !strings.Contains(r.stderr, "connect_timeout") {
			t.Fatalf("stderr %q", r.stderr)
		}
	})
}

// TestRetriesFromTheConfig counts attempts in the fake gateway's log for
// max_retries unset (2), 0 and 1. The failing replies ask for a 5ms wait
// (retry-after-ms), which parley honours instead of its backoff, so the
// test does not sleep.
func TestRetriesFromTheConfig(t *testing.T) {
	busy := apitest.Reply{Status: 503, Header: map[string]string{"retry-after-ms": "5"}, ErrorMessage: "busy"}
	cases := []struct {
		config   string
		requests int
		code     int
	}{
		{"", 3, 0}, // two failures, then the default's third attempt succeeds
		{"max_retries = 0\n", 1, 1},
		{"max_retries = 1\n", 2, 1},
	}
	for _, c := range cases {
		h := newHarness(t)
		h.writeConfig(c.config)
		h.gw.Enqueue(busy, busy, apitest.Reply{Text: "finally"})
		r := h.run(nil, "ask", "-m", "gpt-4o", "q")
		r.mustCode(t, c.code)
		if n := len(h.gw.RequestsTo("/chat/completions")); n != c.requests {
			t.Errorf("%q: %d requests, want %d", c.config, n, c.requests)
		}
		if c.code != 0 && (!strings.Contains(r.stderr, "503") || !strings.Contains(r.stderr, "busy")) {
			t.Errorf("%q: stderr %q", c.config, r.stderr)
		}
		if c.code == 0 && r.stdout != "finally\n" {
			t.Errorf("%q: stdout %q", c.config, r.stdout)
		}
	}
	// Statuses that retrying cannot fix are sent once.
	for _, status := range []int{400, 401, 403, 404} {
		h := newHarness(t)
		h.gw.Enqueue(apitest.Reply{Status: status}, apitest.Reply{})
		h.run(nil, "ask", "-m", "gpt-4o", "q").mustCode(t, 1)
		if n := h.gw.RequestCount(); n != 1 {
			t.Errorf("%d: %d requests, want 1", status, n)
		}
	}
}

// TestStreamOptionsFollowTheConfig: a config that says gpt-4o does not
// report usage takes stream_options out of its requests.
func TestStreamOptionsFollowTheConfig(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("[[models]]\nname = \"gpt-4o\"\nstream_usage = false\n")
	h.run(nil, "ask", "-m", "gpt-4o", "q").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	if _, ok := req.JSON["stream_options"]; ok || req.JSON["stream"] != true {
		t.Fatalf("request %s", req.Body)
	}
}

// TestAttachReportsTheSizes: attach_max_side from the config makes parley
// scale an image down, and stderr says the size before and after.
func TestAttachReportsTheSizes(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("attach_max_side = 256\n")
	img := writePNG(t, t.TempDir(), "wide.png", 600, 400, false)
	r := h.run(nil, "ask", "-m", "gpt-4o", "-a", img, "what is this?")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "parley: Attached wide.png: 600x400 PNG, ") || !strings.Contains(r.stderr, "→ 256x171 ") {
		t.Fatalf("stderr %q", r.stderr)
	}
	req, _ := h.gw.LastRequest()
	if parts := req.Chat.Messages[0].Content.Parts; len(parts) != 2 || !strings.HasPrefix(parts[1].ImageURL.URL, "data:image/") {
		t.Fatalf("request %.200s", req.Body)
	}
	if r.stdout != "You said: what is this? (with 1 image)\n" {
		t.Fatalf("stdout %q", r.stdout)
	}
}

// TestLiteralKeyWarnsWhenOthersCanRead: a literal api_key reaches the
// gateway, and a file that group or others can read is warned about on
// stderr without showing the key.
func TestLiteralKeyWarnsWhenOthersCanRead(t *testing.T) {
	h := newHarness(t)
	delete(h.env, "OPENAI_API_KEY")
	delete(h.env, "OPENAI_BASE_URL") // the file's provider is the gateway
	path := h.writeConfig(fmt.Sprintf("default_model = \"gpt-4o\"\n[[providers]]\nname = \"local\"\nbase_url = %q\napi_key = %q\n", h.gw.RootURL(), apitest.DefaultAPIKey))
	r := h.run(nil, "ask", "q")
	r.mustCode(t, 0)
	if r.stderr != "" {
		t.Fatalf("a private file was warned about: %q", r.stderr)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	r = h.run(nil, "ask", "q")
	r.mustCode(t, 0)
	want := "parley: Warning: " + path + ":5:1: this file holds an api_key and other users can read it (mode 0644); run chmod 600 " + path + ", or use api_key_env or api_key_cmd instead.\n"
	if r.stderr != want {
		t.Fatalf("stderr %q, want %q", r.stderr, want)
	}
	if req, _ := h.gw.LastRequest(); req.Header.Get("Authorization") != "Bearer "+apitest.DefaultAPIKey {
		t.Fatalf("Authorization %q", req.Header.Get("Authorization"))
	}
}

// TestBadBaseURLNamesItsSource: a base URL that cannot work is a usage
// error naming where it came from.
func TestBadBaseURLNamesItsSource(t *testing.T) {
	h := newHarness(t)
	h.env["OPENAI_BASE_URL"] = "127.0.0.1:8080"
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 2)
	if !strings.HasPrefix(r.stderr, `parley: OPENAI_BASE_URL: the base URL "127.0.0.1:8080" has no scheme: write it with https://`) {
		t.Fatalf("stderr %q", r.stderr)
	}
}
