package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"parley/api/apitest"
	"parley/termsafe"
)

const secretKey = "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901Vwx234Yz_wxyz"

// recorder is a server that logs what it received.
type recorder struct {
	mu   sync.Mutex
	auth []string
	srv  *httptest.Server
}

func newRecorder(t *testing.T, tlsServer bool, h http.HandlerFunc) *recorder {
	r := &recorder{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization")+"|"+req.Header.Get("Api-Key"))
		r.mu.Unlock()
		h(w, req)
	})
	if tlsServer {
		r.srv = httptest.NewTLSServer(handler)
	} else {
		r.srv = httptest.NewServer(handler)
	}
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auth...)
}

// TestRedirectToOtherHostRefused: the key never follows a redirect to
// another host; the error names only the target's scheme and host.
func TestRedirectToOtherHostRefused(t *testing.T) {
	other := newRecorder(t, false, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"data":[]}`) })
	// Same machine, another host name: localhost vs 127.0.0.1.
	target := strings.Replace(other.srv.URL, "127.0.0.1", "localhost", 1) + "/steal/models?token=abc"
	gw := apitest.New(t)
	gw.SetDefault(apitest.Reply{Status: 307, Header: map[string]string{"Location": target}})
	c := newTestClient(t, gw, func(c *ClientConfig) {
		c.APIKey = secretKey
		c.Headers = map[string]string{"Api-Key": secretKey}
	})
	_, err := c.ListModels(context.Background())
	var re *RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("err %T %v, want *RedirectError", err, err)
	}
	host := strings.Replace(other.srv.URL, "127.0.0.1", "localhost", 1)
	if re.To != host || !strings.Contains(err.Error(), host) {
		t.Fatalf("error %q should name %s", err, host)
	}
	if strings.Contains(err.Error(), "steal") || strings.Contains(err.Error(), "token=") {
		t.Fatalf("error shows more than scheme and host: %q", err)
	}
	if got := other.requests(); len(got) != 0 {
		t.Fatalf("the other host received %d requests: %v", len(got), got)
	}
	if len(gw.Requests()) != 1 {
		t.Fatalf("a refused redirect must not be retried (%d requests)", len(gw.Requests()))
	}
}

// TestRedirectToPlainHTTPRefused: https -> http on the same host name is
// refused too.
func TestRedirectToPlainHTTPRefused(t *testing.T) {
	plain := newRecorder(t, false, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"data":[]}`) })
	secure := newRecorder(t, true, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.srv.URL+"/v1/models", http.StatusMovedPermanently)
	})
	c, err := NewClient(ClientConfig{BaseURL: secure.srv.URL + "/v1", APIKey: secretKey})
	if err != nil {
		t.Fatal(err)
	}
	c.transport.TLSClientConfig = secure.srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	_, err = c.ListModels(context.Background())
	var re *RedirectError
	if !errors.As(err, &re) || !strings.HasPrefix(re.To, "http://") {
		t.Fatalf("err %v", err)
	}
	if len(plain.requests()) != 0 {
		t.Fatal("the key went over plain http")
	}
}

// TestRedirectSameHostFollowed: a redirect within the gateway is followed
// and keeps the key.
func TestRedirectSameHostFollowed(t *testing.T) {
	rec := newRecorder(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			http.Redirect(w, r, "/v2/models", http.StatusTemporaryRedirect)
			return
		}
		fmt.Fprint(w, `{"data":[{"id":"m1"}]}`)
	})
	c, err := NewClient(ClientConfig{BaseURL: rec.srv.URL + "/v1", APIKey: secretKey})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := c.ListModels(context.Background())
	if err != nil || len(ids) != 1 {
		t.Fatalf("ids %v, err %v", ids, err)
	}
	if got := rec.requests(); len(got) != 2 || got[1] != "Bearer "+secretKey+"|" {
		t.Fatalf("requests %q", got)
	}
}

// TestDownloadOnlyFromTheGateway: Download fetches from the gateway's own
// host (with its credentials); a link to another host, or the gateway
// redirecting to one, is refused before that host gets any request.
func TestDownloadOnlyFromTheGateway(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	cdn := newRecorder(t, false, func(w http.ResponseWriter, _ *http.Request) { w.Write(png) })
	gw := apitest.New(t)
	c := newTestClient(t, gw, func(c *ClientConfig) { c.Headers = map[string]string{"Api-Key": "extra"} })
	_, err := c.Download(context.Background(), strings.Replace(cdn.srv.URL, "127.0.0.1", "localhost", 1)+"/img.png")
	if err == nil || !strings.Contains(err.Error(), "only from the gateway's own host") || !strings.Contains(err.Error(), "b64_json") {
		t.Fatalf("a link to another host: %v", err)
	}
	if got := cdn.requests(); len(got) != 0 {
		t.Fatalf("the other host was asked: %q", got)
	}

	gw.Enqueue(apitest.Reply{AsURL: true})
	resp, err := c.GenerateImages(context.Background(), ImageRequest{Model: "dall-e-2", Prompt: "x", ResponseFormat: "url"})
	if err != nil || len(resp.Data) != 1 || resp.Data[0].URL == "" {
		t.Fatalf("generate: %+v, %v", resp, err)
	}
	img, err := c.Download(context.Background(), resp.Data[0].URL)
	if err != nil || !bytes.HasPrefix(img, []byte("\x89PNG")) {
		t.Fatalf("download from the gateway: %v", err)
	}
	last, _ := gw.LastRequest()
	if last.Header.Get("Authorization") != "Bearer "+apitest.DefaultAPIKey || last.Header.Get("Api-Key") != "extra" {
		t.Fatalf("same-origin download without credentials: %v", last.Header)
	}

	// The gateway's own URL redirecting to storage elsewhere: refused, and
	// the storage host is never asked.
	storage := strings.Replace(cdn.srv.URL, "127.0.0.1", "localhost", 1) + "/signed.png"
	home := newRecorder(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, storage, http.StatusFound)
	})
	hc, err := NewClient(ClientConfig{BaseURL: home.srv.URL + "/v1", APIKey: secretKey, Headers: map[string]string{"Api-Key": "extra"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hc.Download(context.Background(), home.srv.URL+"/files/img.png"); err == nil {
		t.Fatal("a redirect to another host was followed")
	}
	if got := cdn.requests(); len(got) != 0 {
		t.Fatalf("the storage host was asked after a redirect: %q", got)
	}

	data, err := c.Download(context.Background(), "data:image/png;base64,iVBORw0KGgo=")
	if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("data URI: %v", err)
	}
	if _, err := c.Download(context.Background(), gw.RootURL()+"/files/expired.png"); err == nil || !strings.Contains(err.Error(), "no longer works") {
		t.Fatalf("a dead image URL: %v", err)
	}
	if _, err := c.Download(context.Background(), "file:///etc/passwd"); err == nil {
		t.Fatal("a file URL must be refused")
	}
}

// TestKeyNeverShown: an error body that echoes the key, whole or in the
// masked forms gateways print, never reaches the error text; verbose output
// masks it too.
func TestKeyNeverShown(t *testing.T) {
	echoes := []string{
		"Incorrect API key provided: " + secretKey + ".",
		"Incorrect API key provided: sk-proj-********************************************wxyz. You can find your API key at https://platform.openai.com/account/api-keys.",
		"Incorrect API key provided: sk-proj-Abc1***************wxyz",
		"key sk-proj-A...wxyz is invalid",
		"key …_wxyz is invalid",
		"bad key Ghi789Jkl012Mno345 (truncated)",
		"Bearer " + secretKey,
	}
	for _, echo := range echoes {
		body := fmt.Sprintf(`{"error":{"message":%q,"code":"invalid_api_key","param":%q}}`, echo, secretKey)
		gw := apitest.New(t)
		gw.SetDefault(apitest.Reply{Status: 401, Body: body, Header: map[string]string{"X-Echo": secretKey}})
		var verbose bytes.Buffer
		c := newTestClient(t, gw, func(c *ClientConfig) {
			c.APIKey = secretKey
			c.Verbose, c.Sanitize = &verbose, termsafe.Sanitize
			c.Headers = map[string]string{"X-Title": "parley", "X-Custom-Token": "tok-123456"}
		})
		err := chatOnce(c)
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("err %v", err)
		}
		for _, shown := range []string{err.Error(), apiErr.Message, apiErr.Param, fmt.Sprintf("%+v", apiErr), verbose.String()} {
			assertNoKey(t, shown)
		}
		if !strings.Contains(apiErr.Message, redactedKey) {
			t.Errorf("echo %q was not masked: %q", echo, apiErr.Message)
		}
		v := verbose.String()
		for _, want := range []string{"> POST " + gw.URL() + "/chat/completions", "Authorization: Bearer " + redactedKey,
			"X-Title: parley", "X-Custom-Token: " + redactedKey, "< HTTP/1.1 401 Unauthorized", "User-Agent: parley/dev"} {
			if !strings.Contains(v, want) {
				t.Errorf("verbose output lacks %q:\n%s", want, v)
			}
		}
		if strings.Contains(v, "tok-123456") {
			t.Error("verbose output shows a secret-looking header")
		}
	}
}

func assertNoKey(t *testing.T, s string) {
	t.Helper()
	for _, piece := range []string{secretKey, secretKey[8:20], secretKey[len(secretKey)-20:], "Abc1***"} {
		if strings.Contains(s, piece) {
			t.Fatalf("text shows the key (%q): %q", piece, s)
		}
	}
}

func TestConfigPrintsNoKey(t *testing.T) {
	cfg := ClientConfig{BaseURL: "https://x/v1", APIKey: secretKey, Proxy: "http://user:pw@proxy:3128"}
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		s := fmt.Sprintf(f, cfg)
		assertNoKey(t, s)
		if strings.Contains(s, "pw@") {
			t.Fatalf("%s shows the proxy password: %s", f, s)
		}
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	assertNoKey(t, fmt.Sprintf("%v %+v %v %+v %#v %s", c.Warnings(), c.BaseURL(), c, c, c, c))
}

func TestRedactor(t *testing.T) {
	r := newRedactor(secretKey)
	cases := map[string]string{
		"plain text stays":                       "plain text stays",
		"sk-proj- alone is fine":                 "sk-proj- alone is fine",
		"x " + secretKey + " y " + secretKey:     "x [redacted] y [redacted]",
		"sk-proj-****wxyz.":                      "[redacted].",
		"(sk-pr…wxyz)":                           "([redacted])",
		"...and so on...":                        "...and so on...",
		"tail: " + secretKey[len(secretKey)-14:]: "tail: [redacted]",
		"sk-other-****abcd":                      "sk-other-****abcd",
		"numbers 1.2.3 and wxyz***":              "numbers 1.2.3 and wxyz***",
		// The visible head is a run of the key, the rest an echo: one mask.
		"key " + secretKey[:14] + "****************wxyz here": "key [redacted] here",
	}
	for in, want := range cases {
		if got := r.mask(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
	short := newRedactor("abc")
	if got := short.mask("key abc here, abcd (abc) x-abc"); got != "key [redacted] here, abcd ([redacted]) x-abc" {
		t.Errorf("short key: %q", got)
	}
	if got := (redactor{}).mask("anything"); got != "anything" {
		t.Errorf("empty key masks: %q", got)
	}
}

// TestPlainHTTPWarning: plain http to a remote host warns; to this machine
// it does not.
func TestPlainHTTPWarning(t *testing.T) {
	for base, warn := range map[string]bool{
		"http://gateway.example.com/v1": true,
		"http://192.168.1.5:8080":       true,
		"http://localhost:11434/v1":     false,
		"http://127.0.0.1:8000":         false,
		"http://[::1]:8000/v1":          false,
		"http://foo.localhost/v1":       false,
		"https://api.openai.com/v1":     false,
	} {
		c, err := NewClient(ClientConfig{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		w := c.Warnings()
		if (len(w) == 1) != warn {
			t.Errorf("%s: warnings %q, want warning=%v", base, w, warn)
		}
		if warn && !strings.Contains(w[0], "plain http") {
			t.Errorf("%s: unclear warning %q", base, w[0])
		}
	}
}

// TestReplyMaskSplits: however a reply is cut into deltas, the masked
// result is the same as masking it whole, the key never shows, and text
// without any key character passes at once.
func TestReplyMaskSplits(t *testing.T) {
	texts := []string{
		"your key is " + secretKey + ", keep it safe",
		"config:\n  api_key: \"" + secretKey + "\"\n",
		"tail " + secretKey[len(secretKey)-20:] + " and head " + secretKey[:20] + ".",
		secretKey,
		"no secret here at all, just words.",
		"世界你好" + secretKey + "。",
	}
	for _, text := range texts {
		whole := newReplyMask(secretKey)
		want := whole.write(text) + whole.flush()
		assertNoKey(t, want)
		for cut := 0; cut <= len(text); cut++ {
			m := newReplyMask(secretKey)
			got := m.write(text[:cut]) + m.write(text[cut:]) + m.flush()
			if got != want {
				t.Fatalf("cut at %d of %q:\n got %q\nwant %q", cut, text, got, want)
			}
		}
		m := newReplyMask(secretKey)
		var b strings.Builder
		for _, r := range text {
			b.WriteString(m.write(string(r)))
		}
		if got := b.String() + m.flush(); got != want {
			t.Fatalf("rune by rune %q:\n got %q\nwant %q", text, got, want)
		}
	}
	m := newReplyMask(secretKey)
	if got := m.write("世界你好。 "); got != "世界你好。 " {
		t.Fatalf("text that cannot be part of the key was held: %q", got)
	}
	if got := m.write("partial word"); got != "partial " {
		t.Fatalf("got %q: only the unfinished word may wait", got)
	}
	// A run of key characters longer than twice the key is let go in part.
	long := strings.Repeat("a", 10*len(secretKey))
	if got := m.write(long); len(got) < len(long)-2*len(secretKey)-64 {
		t.Fatalf("a long token was held whole (%d of %d bytes shown)", len(got), len(long))
	}
}

// TestReplyMaskShortKeys: placeholder keys of local gateways are words,
// not secrets, and stay visible in answers.
func TestReplyMaskShortKeys(t *testing.T) {
	for _, key := range []string{"", "ollama", "lm-studio", "sk-no-key-req"} {
		m := newReplyMask(key)
		text := "run " + key + " with " + key
		if got := m.write(text) + m.flush(); got != text {
			t.Errorf("key %q: %q became %q", key, text, got)
		}
	}
}

// TestReplyEchoesKey: a reply that echoes the configured key shows it
// masked, streamed (in small deltas) or whole, and the rest of the text is
// kept.
func TestReplyEchoesKey(t *testing.T) {
	text := "Found it: OPENAI_API_KEY=" + secretKey + " in your .env file."
	want := "Found it: OPENAI_API_KEY=" + redactedKey + " in your .env file."
	gw := apitest.New(t, apitest.WithAPIKey(secretKey))
	gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: 3}, apitest.Reply{Text: text}, apitest.Reply{Text: text, FinishReason: "length"})
	c := newTestClient(t, gw, func(c *ClientConfig) { c.APIKey = secretKey })
	r := drain(t, startStream(t, c, "llama3"))
	if r.text != want || r.err != io.EOF {
		t.Fatalf("streamed: %q (%v)", r.text, r.err)
	}
	for _, d := range r.deltas {
		assertNoKey(t, d)
	}
	reply, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if err != nil || reply.Text() != want {
		t.Fatalf("whole: %q (%v)", reply.Text(), err)
	}
	// The held tail rides on the event that finishes the reply.
	r = drain(t, startStream(t, c, "llama3"))
	if r.text != want || r.finish != "length" {
		t.Fatalf("finish %q, text %q", r.finish, r.text)
	}
}

// A short dummy key (local servers take any) is masked only where it
// stands alone: with the key "k", the gateway's "Incorrect API key
// provided" reads as it was written, not "Incorrect API [redacted]ey".
func TestShortKeyLeavesWordsWhole(t *testing.T) {
	gw := apitest.New(t, apitest.WithAPIKey("sk-the-real-key-0123456789"))
	c := newTestClient(t, gw, func(cfg *ClientConfig) { cfg.APIKey = "k" })
	_, err := c.ListModels(context.Background())
	if err == nil {
		t.Fatal("a wrong key was accepted")
	}
	msg := err.Error()
	if !strings.Contains(msg, "Incorrect API key provided") || !strings.Contains(msg, "invalid_api_key") || strings.Contains(msg, "[redacted]ey") {
		t.Fatalf("the gateway's words were masked: %q", msg)
	}
}
