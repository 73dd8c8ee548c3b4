package api

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

func TestParseErrorBody(t *testing.T) {
	cases := []struct {
		name, body, ctype string
		want              errorBody
	}{
		{"openai", `{"error":{"message":"Invalid model","type":"invalid_request_error","param":"model","code":"model_not_found"}}`, "application/json",
			errorBody{Message: "Invalid model", Type: "invalid_request_error", Param: "model", Code: "model_not_found"}},
		{"numeric code", `{"error":{"message":"Rate limited","code":429}}`, "application/json",
			errorBody{Message: "Rate limited", Code: "429"}},
		{"null code and param", `{"error":{"message":"x","type":"server_error","param":null,"code":null}}`, "",
			errorBody{Message: "x", Type: "server_error"}},
		{"error string", `{"error":"model is loading"}`, "application/json", errorBody{Message: "model is loading"}},
		{"vllm", `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}`, "application/json",
			errorBody{Message: "max_tokens is too large", Type: "BadRequestError", Code: "400"}},
		{"openrouter metadata", `{"error":{"code":502,"message":"Provider returned error","metadata":{"raw":"upstream timed out","provider_name":"X"}}}`, "",
			errorBody{Message: "Provider returned error: upstream timed out", Code: "502"}},
		{"google list", `[{"error":{"code":400,"message":"API key not valid","status":"INVALID_ARGUMENT"}}]`, "",
			errorBody{Message: "API key not valid", Code: "400", Type: "INVALID_ARGUMENT"}},
		{"fastapi detail", `{"detail":"Not Found"}`, "application/json", errorBody{Message: "Not Found"}},
		{"fastapi detail list", `{"detail":[{"loc":["body","model"],"msg":"field required"}]}`, "", errorBody{Message: "field required"}},
		{"html title", "<!DOCTYPE html>\n<html><head><TITLE>502 Bad Gateway &amp; friends</TITLE></head><body>nginx</body></html>", "text/html",
			errorBody{Message: "502 Bad Gateway & friends"}},
		{"html without title", "<html><body>oops</body></html>", "text/html", errorBody{Message: "the gateway sent an HTML page instead of an API reply"}},
		{"plain text", "upstream connect error or disconnect/reset before headers\n", "text/plain",
			errorBody{Message: "upstream connect error or disconnect/reset before headers"}},
		{"json without error fields", `{"foo":1}`, "application/json", errorBody{Message: `{"foo":1}`}},
	}
	for _, tc := range cases {
		got, ok := parseErrorBody([]byte(tc.body), tc.ctype)
		if !ok || got != tc.want {
			t.Errorf("%s: got %+v (ok %v), want %+v", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := parseErrorBody([]byte("  \n"), "text/plain"); ok {
		t.Error("an empty body must report !ok")
	}
}

// TestErrorSentences checks each status gets one sentence with the status,
// the gateway's message and what to do.
func TestErrorSentences(t *testing.T) {
	cases := []struct {
		status  int
		body    string
		header  map[string]string
		wants   []string
		mutates func(*ClientConfig)
	}{
		{401, `{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}`, nil,
			[]string{"401 Unauthorized", "Incorrect API key provided", "check the API key in MY_KEY_VAR"},
			func(c *ClientConfig) { c.KeySource = "MY_KEY_VAR" }},
		{403, `{"error":{"message":"Project does not have access"}}`, nil, []string{"403 Forbidden", "Project does not have access", "permissions"}, nil},
		{404, `{"error":{"message":"The model does not exist","code":"model_not_found"}}`, nil,
			[]string{"404 Not Found", "does not exist", "`parley models`", `"llama3"`, "/v1)"}, nil},
		{400, `{"error":{"message":"This model's maximum context length is 8192 tokens","code":"context_length_exceeded"}}`, nil,
			[]string{"400 Bad Request", "maximum context length", "start a new one"}, nil},
		{429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`, nil,
			[]string{"429 Too Many Requests", "exceeded your current quota", "billing", "will not help"}, nil},
		{402, `{"error":{"message":"Insufficient credits","code":402}}`, nil, []string{"402 Payment Required", "Insufficient credits", "billing"}, nil},
		{429, `{"error":{"message":"Rate limit reached"}}`, map[string]string{"Retry-After": "600"},
			[]string{"429 Too Many Requests", "Rate limit reached", "wait 10m0s", "try again after "}, nil},
		{500, `{"error":{"message":"The server had an error","type":"server_error"}}`, nil,
			[]string{"500 Internal Server Error", "server had an error", "after 3 attempts", "try again later"}, nil},
		{502, "<html><head><title>502 Bad Gateway</title></head></html>", map[string]string{"Content-Type": "text/html"},
			[]string{"502 Bad Gateway after 3 attempts; the gateway or the model is having trouble: try again later"}, nil},
		{413, "", nil, []string{"413 Request Entity Too Large", "smaller images"}, nil},
	}
	for _, tc := range cases {
		gw := apitest.New(t)
		gw.SetDefault(apitest.Reply{Status: tc.status, Body: tc.body, Header: tc.header})
		mods := []func(*ClientConfig){}
		if tc.mutates != nil {
			mods = append(mods, tc.mutates)
		}
		c := newTestClient(t, gw, mods...)
		_, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status {
			t.Fatalf("%d: got %T %v", tc.status, err, err)
		}
		msg := err.Error()
		for _, w := range tc.wants {
			if !strings.Contains(msg, w) {
				t.Errorf("%d: %q lacks %q", tc.status, msg, w)
			}
		}
		if strings.Count(msg, ". ") > 0 || strings.HasSuffix(msg, ".") || strings.Contains(msg, "\n") {
			t.Errorf("%d: not one sentence: %q", tc.status, msg)
		}
	}
}

func TestErrorSentenceNoKey(t *testing.T) {
	e := &APIError{StatusCode: 401, Status: "401 Unauthorized", noKey: true}
	if !strings.Contains(e.Error(), "no API key was sent: set OPENAI_API_KEY") {
		t.Fatalf("%q", e.Error())
	}
}

func TestClockFormat(t *testing.T) {
	now := time.Now()
	if got := clock(now.Add(time.Minute)); len(got) != len("15:04:05") && now.Add(time.Minute).Day() == now.Day() {
		t.Fatalf("today's time should be a time of day, got %q", got)
	}
	if got := clock(now.Add(72 * time.Hour)); !strings.Contains(got, "-") {
		t.Fatalf("another day should carry the date, got %q", got)
	}
}

// A rate limit with Retry-After reads as one sentence: what happened,
// what the gateway said, when to try again (not "Retry after 1 second
// (...) after 3 attempts; the gateway asks to wait 1s, so try again after").
func TestRateLimitIsOneSentence(t *testing.T) {
	at := time.Date(2026, 11, 26, 9, 28, 7, 0, time.Local)
	e := &APIError{StatusCode: 429, Message: "Rate limit reached for demo-fail. Retry after 1 second.", Type: "rate_limit", RetryAfter: time.Second, RetryAt: at, Attempts: 3}
	want := "the gateway answered 429 Too Many Requests after 3 attempts: Rate limit reached for demo-fail (rate_limit); try again after "
	if got := e.Error(); !strings.HasPrefix(got, want) || strings.Count(got, "wait") > 0 || strings.Count(got, "after") != 2 {
		t.Fatalf("got  %q\nwant %q…", got, want)
	}
}

// A 429 names one time to try again: the gateway's own "Please try again
// in 20s." is dropped when parley says the moment, whether it comes from
// Retry-After or, without one, from the rate limit's reset headers.
func TestRateLimitNamesOneTime(t *testing.T) {
	body := `{"error":{"message":"Rate limit reached for requests. Please try again in 20s. Visit the dashboard to learn more.","code":"rate_limit_exceeded"}}`
	for name, hdr := range map[string]map[string]string{
		"Retry-After": {"Retry-After": "120"},
		"reset":       {"X-Ratelimit-Reset-Requests": "2m0s", "X-Ratelimit-Reset-Tokens": "1m30s"},
	} {
		gw := apitest.New(t)
		gw.SetDefault(apitest.Reply{Status: 429, Header: hdr, Body: body})
		c, fc := newClockedClient(t, gw)
		err := chatOnce(c)
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.RetryAfter != 2*time.Minute || !apiErr.RetryAt.Equal(fc.now().Add(2*time.Minute)) {
			t.Fatalf("%s: err %v (RetryAfter %v)", name, err, apiErr.RetryAfter)
		}
		msg := err.Error()
		want := "Rate limit reached for requests. Visit the dashboard to learn more (rate_limit_exceeded); try again after " + clock(apiErr.RetryAt)
		if !strings.Contains(msg, want) || strings.Contains(msg, "20s") {
			t.Fatalf("%s: got  %q\nwant …%q…", name, msg, want)
		}
	}
}
