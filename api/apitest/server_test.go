package apitest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"parley/api/apitest"
)

func TestNonStreamingReplyShape(t *testing.T) {
	gw := newGW(t)
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", false, false))
	want := `{"id":"chatcmpl-apitest-1","object":"chat.completion","created":1700000000,"model":"gpt-4o",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"You said: say hi"},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":2,"completion_tokens":2,"total_tokens":4}}`
	if r.status != 200 || r.body != want || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("status %d, %s\nbody %s\nwant %s", r.status, r.header.Get("Content-Type"), r.body, want)
	}

	gw.Enqueue(apitest.Reply{Deltas: []string{"a", "b", "c"}, FinishReason: "length"})
	r = post(t, gw, "/chat/completions", chatWithImage("gpt-4o", "https://example.com/a.png"))
	var resp struct {
		Choices []struct {
			Message      struct{ Content string }
			FinishReason string `json:"finish_reason"`
		}
		Usage apitest.Usage
	}
	if err := json.Unmarshal([]byte(r.body), &resp); err != nil {
		t.Fatal(err)
	}
	// "what is this" is 3 words, the image 85 tokens, the reply 3 deltas.
	if resp.Choices[0].Message.Content != "abc" || resp.Choices[0].FinishReason != "length" ||
		resp.Usage != (apitest.Usage{PromptTokens: 88, CompletionTokens: 3, TotalTokens: 91}) {
		t.Errorf("scripted reply: %s", r.body)
	}
}

func TestExplicitReplies(t *testing.T) {
	gw := newGW(t)
	html := "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
	gw.Enqueue(
		apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "2", "retry-after-ms": "1500"}},
		apitest.Reply{Status: 502, Body: html},
		apitest.Reply{Status: 500, Body: `{"error":"text only"}`},
		apitest.Reply{Status: 400, Body: `{"object":"error","message":"vllm says no","type":"BadRequestError","param":null,"code":400}`},
		apitest.Reply{Status: 429, ErrorCode: "insufficient_quota", ErrorType: "insufficient_quota", ErrorMessage: "You exceeded your current quota."},
		apitest.Reply{Status: 503, Body: "upstream down", NoContentType: true},
		apitest.Reply{Status: 307, Header: map[string]string{"Location": "http://elsewhere.example/v1/chat/completions"}},
	)
	// Explicit replies answer whatever the request: no key, no JSON.
	noAuth := map[string]string{"Authorization": "", "Content-Type": "text/plain"}
	r := send(t, gw, http.MethodPost, "/chat/completions", "not json", noAuth)
	e := wantError(t, r, 429, "rate_limit_exceeded")
	if r.header.Get("Retry-After") != "2" || r.header.Get("Retry-After-Ms") != "1500" || e.Error.Type != "requests" {
		t.Errorf("429 headers %v, type %q", r.header, e.Error.Type)
	}
	r = send(t, gw, http.MethodPost, "/chat/completions", "x", noAuth)
	if r.status != 502 || r.body != html || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("HTML page: %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
	}
	r = send(t, gw, http.MethodPost, "/chat/completions", "x", noAuth)
	if r.status != 500 || r.body != `{"error":"text only"}` || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("string error: %d %q", r.status, r.body)
	}
	r = send(t, gw, http.MethodPost, "/chat/completions", "x", noAuth)
	if r.status != 400 || !strings.Contains(r.body, `"message":"vllm says no"`) {
		t.Errorf("vLLM error: %d %q", r.status, r.body)
	}
	e = wantError(t, send(t, gw, http.MethodPost, "/chat/completions", "x", noAuth), 429, "insufficient_quota")
	if e.Error.Message != "You exceeded your current quota." {
		t.Errorf("message %q", e.Error.Message)
	}
	r = send(t, gw, http.MethodPost, "/chat/completions", "x", noAuth)
	if _, has := r.header["Content-Type"]; has || r.status != 503 || r.body != "upstream down" {
		t.Errorf("NoContentType: %d %v %q", r.status, r.header, r.body)
	}

	client := gw.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, _ := http.NewRequest(http.MethodPost, gw.URL()+"/chat/completions", strings.NewReader("{}"))
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 307 || resp.Header.Get("Location") != "http://elsewhere.example/v1/chat/completions" {
		t.Errorf("redirect: %s %q", resp.Status, resp.Header.Get("Location"))
	}
	if gw.Pending() != 0 {
		t.Errorf("Pending = %d after using every reply", gw.Pending())
	}
}

func TestRawSSEStillValidatesTheRequest(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{RawSSE: "data: [DONE]\n\n"})
	wantError(t, send(t, gw, http.MethodPost, "/chat/completions", chatJSON("gpt-4o", "x", true, false),
		map[string]string{"Authorization": "Bearer nope"}), 401, "invalid_api_key")
}

func TestQueueOrderPathsAndDefault(t *testing.T) {
	gw := newGW(t)
	gw.SetDefault(apitest.Reply{Path: "/chat/completions", Text: "default"})
	gw.Enqueue(
		apitest.Reply{Path: "/images/generations", Status: 500},
		apitest.Reply{Text: "first"},
		apitest.Reply{Path: "/v1/chat/completions", Text: "second"},
	)
	text := func() string {
		var resp struct {
			Choices []struct{ Message struct{ Content string } }
		}
		r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "x", false, false))
		if err := json.Unmarshal([]byte(r.body), &resp); err != nil || len(resp.Choices) == 0 {
			t.Fatalf("status %d body %s", r.status, r.body)
		}
		return resp.Choices[0].Message.Content
	}
	// A reply for another endpoint does not block the queue.
	if got := []string{text(), text(), text()}; fmt.Sprint(got) != "[first second default]" {
		t.Errorf("chat replies %v, want [first second default]", got)
	}
	if gw.Pending() != 1 {
		t.Errorf("Pending = %d, want the images reply left", gw.Pending())
	}
	// GET /models is unaffected by a default limited to chat.
	if r := send(t, gw, http.MethodGet, "/models", "", nil); r.status != 200 {
		t.Errorf("models: %d", r.status)
	}
	wantError(t, post(t, gw, "/images/generations", `{"model":"dall-e-2","prompt":"x"}`), 500, "")

	// Enqueue copies the reply: changing it afterwards changes nothing.
	hdr := map[string]string{"X-Test": "before"}
	deltas := []string{"a", "b"}
	gw.Enqueue(apitest.Reply{Header: hdr, Deltas: deltas})
	hdr["X-Test"], deltas[0] = "after", "z"
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "x", false, false))
	if r.header.Get("X-Test") != "before" || !strings.Contains(r.body, `"content":"ab"`) {
		t.Errorf("queued reply changed after Enqueue: %v %s", r.header.Get("X-Test"), r.body)
	}
}

func TestEnqueueRejectsNonsense(t *testing.T) {
	gw := newGW(t)
	for _, r := range []apitest.Reply{
		{ErrorShape: "azure"},
		{Quirks: apitest.Quirks{LineEnding: "\n\n"}},
		{Quirks: apitest.Quirks{CommentText: "two\nlines"}},
		{Status: 42},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Enqueue(%+v) did not panic", r)
				}
			}()
			gw.Enqueue(r)
		}()
	}
}

func TestRequestLog(t *testing.T) {
	gw := newGW(t)
	// Logged before validation: this one fails auth.
	send(t, gw, http.MethodPost, "/chat/completions?x=1", chatJSON("llama3", "hello there", true, false),
		map[string]string{"Authorization": "", "X-Title": "parley"})
	post(t, gw, "/chat/completions", chatWithImage("gpt-4o", "https://example.com/a.png"))
	post(t, gw, "/images/generations", `{"model":"dall-e-2","prompt":"a cat","n":2,"size":"256x256"}`)

	reqs := gw.Requests()
	if len(reqs) != 3 || gw.RequestCount() != 3 {
		t.Fatalf("%d requests logged, want 3", len(reqs))
	}
	first := reqs[0]
	if first.Method != "POST" || first.Path != "/v1/chat/completions" || first.RawQuery != "x=1" ||
		first.Header.Get("X-Title") != "parley" || first.Header.Get("Authorization") != "" {
		t.Errorf("first request: %+v", first)
	}
	if _, has := first.JSON["stream_options"]; has || first.JSON["stream"] != true {
		t.Errorf("JSON map: %v", first.JSON)
	}
	if c := first.Chat; c == nil || c.Model != "llama3" || !c.Stream || c.StreamOptions != nil ||
		c.Messages[0].Content.Text != "hello there" || c.Messages[0].Content.Parts != nil {
		t.Errorf("typed chat: %+v", first.Chat)
	}
	parts := reqs[1].Chat.Messages[0].Content
	if parts.Parts == nil || parts.PlainText() != "what is this" || fmt.Sprint(parts.ImageURLs()) != "[https://example.com/a.png]" {
		t.Errorf("array content: %+v", parts)
	}
	if im := reqs[2].Image; im == nil || *im != (apitest.ImageRequest{Model: "dall-e-2", Prompt: "a cat", N: 2, Size: "256x256"}) {
		t.Errorf("typed image request: %+v", reqs[2].Image)
	}
	if !reqs[0].Time.Before(reqs[2].Time) && !reqs[0].Time.Equal(reqs[2].Time) {
		t.Error("times are not in arrival order")
	}
	if n := len(gw.RequestsTo("/chat/completions")); n != 2 {
		t.Errorf("RequestsTo chat = %d", n)
	}
	if last, ok := gw.LastRequest(); !ok || last.Path != "/v1/images/generations" {
		t.Errorf("LastRequest: %v %v", last.Path, ok)
	}

	// Copies: scribbling over one answer leaves the log alone.
	reqs[0].Body[0] = 'X'
	reqs[0].Header.Set("X-Title", "changed")
	reqs[0].JSON["model"] = "changed"
	reqs[0].Chat.Messages[0].Role = "changed"
	again := gw.Requests()[0]
	if again.Body[0] != '{' || again.Header.Get("X-Title") != "parley" || again.JSON["model"] != "llama3" || again.Chat.Messages[0].Role != "user" {
		t.Error("Requests returned shared state")
	}
}

// Many clients at once, while the test enqueues and reads the log: run with -race.
func TestConcurrentUse(t *testing.T) {
	gw := newGW(t)
	const workers, each = 12, 6
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				var body, path string
				switch (w + i) % 3 {
				case 0:
					path, body = "/chat/completions", chatJSON("gpt-4o", fmt.Sprintf("w%d i%d", w, i), true, true)
				case 1:
					path, body = "/chat/completions", chatJSON("llama3", "plain", false, false)
				default:
					path, body = "/images/generations", `{"model":"dall-e-2","prompt":"x","size":"256x256","n":2}`
				}
				req, _ := http.NewRequest(http.MethodPost, gw.URL()+path, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+apitest.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := gw.Client().Do(req)
				if err != nil {
					errs <- err
					continue
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || err != nil {
					errs <- fmt.Errorf("%s: %d %v %s", path, resp.StatusCode, err, b)
				}
				if strings.Contains(body, `"stream":true`) && !strings.HasSuffix(string(b), "data: [DONE]\n\n") {
					errs <- errors.New("a concurrent stream did not end with [DONE]")
				}
			}
		}()
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				_ = gw.Requests()
				if i < 50 {
					gw.Enqueue(apitest.Reply{Path: "/nowhere"})
				}
				_ = gw.Pending()
				_ = gw.InFlight()
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := gw.RequestCount(); n != workers*each {
		t.Errorf("RequestCount = %d, want %d", n, workers*each)
	}
}
