package apitest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// created is the fixed clock of servers made by newGW.
const created = 1700000000

// webp1x1 is a real 1x1 lossless WEBP image (x/image has no encoder).
const webp1x1 = "RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"

func newGW(t *testing.T, opts ...apitest.Option) *apitest.Server {
	t.Helper()
	clock := apitest.WithClock(func() time.Time { return time.Unix(created, 0) })
	return apitest.New(t, append([]apitest.Option{clock}, opts...)...)
}

// result is a finished HTTP exchange.
type result struct {
	status int
	header http.Header
	body   string
	err    error // error reading the body (a cut connection)
}

// send makes a request with the default key and a JSON content type unless
// hdr overrides them ("" deletes a header).
func send(t *testing.T, gw *apitest.Server, method, path, body string, hdr map[string]string) result {
	t.Helper()
	return sendCtx(context.Background(), t, gw, method, path, body, hdr)
}

func sendCtx(ctx context.Context, t *testing.T, gw *apitest.Server, method, path, body string, hdr map[string]string) result {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, gw.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apitest.DefaultAPIKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := gw.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, rerr := io.ReadAll(resp.Body)
	return result{status: resp.StatusCode, header: resp.Header, body: string(b), err: rerr}
}

func post(t *testing.T, gw *apitest.Server, path, body string) result {
	t.Helper()
	return send(t, gw, http.MethodPost, path, body, nil)
}

// chatJSON builds a chat request body for one user message.
func chatJSON(model, text string, stream, usage bool) string {
	m := map[string]any{"model": model, "messages": []any{map[string]any{"role": "user", "content": text}}}
	if stream {
		m["stream"] = true
	}
	if usage {
		m["stream_options"] = map[string]any{"include_usage": true}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// chatWithImage builds a chat request whose user message carries one image URL.
func chatWithImage(model, url string) string {
	b, _ := json.Marshal(map[string]any{"model": model, "messages": []any{map[string]any{
		"role": "user",
		"content": []any{
			map[string]any{"type": "text", "text": "what is this"},
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": url}},
		},
	}}})
	return string(b)
}

// apiErr is the OpenAI error shape.
type apiErr struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// wantError asserts an OpenAI-shaped error with status and code ("" = null).
func wantError(t *testing.T, r result, status int, code string) apiErr {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var e apiErr
	dec := json.NewDecoder(strings.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("error body %q is not the OpenAI shape: %v", r.body, err)
	}
	got := ""
	if e.Error.Code != nil {
		got = *e.Error.Code
	}
	if got != code {
		t.Errorf("code = %q, want %q; body %s", got, code, r.body)
	}
	if e.Error.Message == "" || e.Error.Type == "" {
		t.Errorf("error without message or type: %s", r.body)
	}
	return e
}

func encodePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeGIF(t *testing.T, frames int) []byte {
	t.Helper()
	pal := color.Palette{color.Black, color.White}
	g := &gif.GIF{}
	for range frames {
		g.Image = append(g.Image, image.NewPaletted(image.Rect(0, 0, 4, 4), pal))
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func dataURI(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

func decodeImage(t *testing.T, b []byte) (string, image.Config) {
	t.Helper()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not an image (%d bytes): %v", len(b), err)
	}
	return format, cfg
}

// waitFor polls cond for up to 3 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
