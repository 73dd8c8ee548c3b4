package apitest_test

import (
	"net/http"
	"strings"
	"testing"

	"parley/api/apitest"
)

func TestAuth(t *testing.T) {
	gw := newGW(t)
	body := chatJSON("gpt-4o", "x", false, false)
	cases := []struct {
		name, auth string
	}{
		{"missing", ""},
		{"wrong key", "Bearer sk-wrong-but-long-enough"},
		{"wrong scheme", "Basic " + apitest.DefaultAPIKey},
		{"no token", "Bearer "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hdr := map[string]string{"Authorization": c.auth}
			e := wantError(t, send(t, gw, http.MethodPost, "/chat/completions", body, hdr), 401, "invalid_api_key")
			if strings.Contains(e.Error.Message, "sk-wrong-but-long-enough") {
				t.Errorf("the message echoes the whole key: %s", e.Error.Message)
			}
		})
	}
	if r := send(t, gw, http.MethodPost, "/chat/completions", body, map[string]string{"Authorization": "bearer " + apitest.DefaultAPIKey}); r.status != 200 {
		t.Errorf("lower-case scheme: status %d, want 200 (the scheme is case-insensitive)", r.status)
	}
	if r := send(t, gw, http.MethodGet, "/models", "", map[string]string{"Authorization": ""}); r.status != 401 {
		t.Errorf("GET /models without a key: status %d, want 401", r.status)
	}

	open := newGW(t, apitest.WithAPIKey(""))
	if r := send(t, open, http.MethodPost, "/chat/completions", body, map[string]string{"Authorization": ""}); r.status != 200 {
		t.Errorf("WithAPIKey(\"\"): status %d, want 200 without a key", r.status)
	}
	custom := newGW(t, apitest.WithAPIKey("sk-custom"))
	if r := send(t, custom, http.MethodPost, "/chat/completions", body, map[string]string{"Authorization": "Bearer sk-custom"}); r.status != 200 {
		t.Errorf("custom key: status %d", r.status)
	}
}

func TestChatValidation(t *testing.T) {
	png := encodePNG(t, 8, 8)
	jpg := encodeJPEG(t, 8, 8)
	cases := []struct {
		name   string
		body   string
		hdr    map[string]string
		status int
		code   string
		param  string
	}{
		{"no content type", chatJSON("gpt-4o", "x", false, false), map[string]string{"Content-Type": ""}, 400, "", ""},
		{"text/plain", chatJSON("gpt-4o", "x", false, false), map[string]string{"Content-Type": "text/plain"}, 400, "", ""},
		{"malformed JSON", `{"model":"gpt-4o",`, nil, 400, "", ""},
		{"trailing data", `{"model":"gpt-4o","messages":[{"role":"user","content":"x"}]} {}`, nil, 400, "", ""},
		{"array body", `[1]`, nil, 400, "", ""},
		{"missing model", `{"messages":[{"role":"user","content":"x"}]}`, nil, 400, "missing_required_parameter", "model"},
		{"model not a string", `{"model":4,"messages":[{"role":"user","content":"x"}]}`, nil, 400, "invalid_type", "model"},
		{"missing messages", `{"model":"gpt-4o"}`, nil, 400, "missing_required_parameter", "messages"},
		{"empty messages", `{"model":"gpt-4o","messages":[]}`, nil, 400, "empty_array", "messages"},
		{"unknown member", `{"model":"gpt-4o","messages":[{"role":"user","content":"x"}],"foo":1}`, nil, 400, "unknown_parameter", "foo"},
		{"bad role", `{"model":"gpt-4o","messages":[{"role":"robot","content":"x"}]}`, nil, 400, "invalid_value", "messages[0].role"},
		{"user without content", `{"model":"gpt-4o","messages":[{"role":"user"}]}`, nil, 400, "missing_required_parameter", "messages[0].content"},
		{"content number", `{"model":"gpt-4o","messages":[{"role":"user","content":3}]}`, nil, 400, "invalid_type", "messages[0].content"},
		{"empty parts", `{"model":"gpt-4o","messages":[{"role":"user","content":[]}]}`, nil, 400, "empty_array", "messages[0].content"},
		{"unknown part type", `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"video"}]}]}`, nil, 400, "invalid_value", "messages[0].content[0].type"},
		{"text part without text", `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text"}]}]}`, nil, 400, "missing_required_parameter", "messages[0].content[0].text"},
		{"image part without url", `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"image_url","image_url":{}}]}]}`, nil, 400, "missing_required_parameter", "messages[0].content[0].image_url.url"},
		{"stream not boolean", `{"model":"gpt-4o","messages":[{"role":"user","content":"x"}],"stream":"yes"}`, nil, 400, "invalid_type", "stream"},
		{"unknown model", chatJSON("gpt-9", "x", false, false), nil, 404, "model_not_found", "model"},
		{"image model", chatJSON("dall-e-3", "x", false, false), nil, 404, "", "model"},
		{"image to a model without vision", chatWithImage("llama3", dataURI("image/png", png)), nil, 400, "image_input_not_supported", "messages[0].content[1].image_url.url"},
		{"declared png, bytes jpeg", chatWithImage("gpt-4o", dataURI("image/png", jpg)), nil, 400, "invalid_image_format", "messages[0].content[1].image_url.url"},
		{"image/jpg is not a media type", chatWithImage("gpt-4o", dataURI("image/jpg", jpg)), nil, 400, "invalid_image_format", ""},
		{"not an image", chatWithImage("gpt-4o", dataURI("image/png", []byte("hello world, not a png"))), nil, 400, "invalid_image_format", ""},
		{"bad base64", chatWithImage("gpt-4o", "data:image/png;base64,iVBOR*w0K"), nil, 400, "invalid_base64", ""},
		{"data URI without base64", chatWithImage("gpt-4o", "data:image/png,abc"), nil, 400, "invalid_image_url", ""},
		{"text/plain data URI", chatWithImage("gpt-4o", dataURI("text/plain", png)), nil, 400, "invalid_image_format", ""},
		{"ftp URL", chatWithImage("gpt-4o", "ftp://example.com/a.png"), nil, 400, "invalid_image_url", ""},
		{"truncated png", chatWithImage("gpt-4o", dataURI("image/png", png[:20])), nil, 400, "invalid_image", ""},
		{"animated gif", chatWithImage("gpt-4o", dataURI("image/gif", encodeGIF(t, 2))), nil, 400, "invalid_image", ""},
		{"image in an assistant message", `{"model":"gpt-4o","messages":[{"role":"assistant","content":[{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`, nil, 400, "invalid_value", ""},
		{"stream_options to a model without usage", chatJSON("llama3", "x", true, true), nil, 400, "unsupported_parameter", "stream_options"},
		{"null stream_options to a model without usage", `{"model":"llava","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":null}`, nil, 400, "unsupported_parameter", "stream_options"},
		{"stream_options without stream", chatJSON("gpt-4o", "x", false, true), nil, 400, "invalid_value", "stream_options"},
		{"include_usage not boolean", `{"model":"gpt-4o","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":1}}`, nil, 400, "invalid_type", "stream_options.include_usage"},
	}
	gw := newGW(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := wantError(t, send(t, gw, http.MethodPost, "/chat/completions", c.body, c.hdr), c.status, c.code)
			if c.param != "" && (e.Error.Param == nil || *e.Error.Param != c.param) {
				t.Errorf("param = %v, want %q", e.Error.Param, c.param)
			}
		})
	}
}

func TestChatAcceptsValidImages(t *testing.T) {
	gw := newGW(t)
	images := map[string]string{
		"png":  dataURI("image/png", encodePNG(t, 8, 8)),
		"jpeg": dataURI("image/jpeg", encodeJPEG(t, 8, 8)),
		"gif":  dataURI("image/gif", encodeGIF(t, 1)),
		"webp": dataURI("image/webp", []byte(webp1x1)),
		"url":  "https://example.com/cat.png",
	}
	for name, url := range images {
		t.Run(name, func(t *testing.T) {
			r := post(t, gw, "/chat/completions", chatWithImage("llava", url))
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			if !strings.Contains(r.body, `"content":"You said: what is this (with 1 image)"`) {
				t.Errorf("reply does not describe the image: %s", r.body)
			}
		})
	}
}

func TestChatImageSizeLimit(t *testing.T) {
	gw := newGW(t, apitest.WithMaxImageBytes(100))
	wantError(t, post(t, gw, "/chat/completions", chatWithImage("gpt-4o", dataURI("image/png", encodePNG(t, 32, 32)))), 400, "image_too_large")
}

func TestRouting(t *testing.T) {
	gw := newGW(t)
	wantError(t, send(t, gw, http.MethodGet, "/chat/completions", "", nil), 405, "")
	wantError(t, post(t, gw, "/models", "{}"), 405, "")
	wantError(t, post(t, gw, "/completions", "{}"), 404, "")
	// Without /v1 (a base URL missing its prefix) nothing matches.
	req, _ := http.NewRequest(http.MethodPost, gw.RootURL()+"/chat/completions", strings.NewReader(chatJSON("gpt-4o", "x", false, false)))
	req.Header.Set("Authorization", "Bearer "+apitest.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := gw.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("POST /chat/completions without /v1: status %d, want 404", resp.StatusCode)
	}
}
