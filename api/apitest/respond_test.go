package apitest_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"parley/api/apitest"
)

// calls records what a Responder saw.
type calls struct {
	mu   sync.Mutex
	seen []apitest.Call
}

func (c *calls) add(call apitest.Call) {
	c.mu.Lock()
	c.seen = append(c.seen, call)
	c.mu.Unlock()
}

func (c *calls) all() []apitest.Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]apitest.Call(nil), c.seen...)
}

// TestResponderScriptsValidChat: the Responder sees the decoded request
// and its reply is streamed like a queued one.
func TestResponderScriptsValidChat(t *testing.T) {
	var rec calls
	gw := newGW(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		rec.add(c)
		return apitest.Reply{Deltas: []string{"Hi ", c.Chat.Messages[0].Content.PlainText()}}
	}))
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "there", true, false))
	if r.status != 200 || !strings.Contains(r.body, `"content":"Hi "`) || !strings.Contains(r.body, `"content":"there"`) || !strings.HasSuffix(r.body, "data: [DONE]\n\n") {
		t.Fatalf("stream = %d %q", r.status, r.body)
	}
	seen := rec.all()
	if len(seen) != 1 {
		t.Fatalf("%d calls, want 1", len(seen))
	}
	c := seen[0]
	if c.Endpoint != "/chat/completions" || c.Model.ID != "gpt-4o" || !c.Stream || c.Chat == nil || c.Chat.Model != "gpt-4o" {
		t.Errorf("call = %+v", c)
	}

	// Non-streaming: the same text as one message.
	r = post(t, gw, "/chat/completions", chatJSON("gpt-4o", "you", false, false))
	if r.status != 200 || !strings.Contains(r.body, `"content":"Hi you"`) {
		t.Fatalf("reply = %d %q", r.status, r.body)
	}
}

// TestResponderNeverSeesInvalidRequests: validation runs first and is the
// same with a Responder; queued replies win over it.
func TestResponderNeverSeesInvalidRequests(t *testing.T) {
	var rec calls
	gw := newGW(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		rec.add(c)
		return apitest.Reply{Text: "from the responder"}
	}))
	wantError(t, post(t, gw, "/chat/completions", chatJSON("no-such-model", "x", false, false)), 404, "model_not_found")
	wantError(t, post(t, gw, "/chat/completions", chatWithImage("llama3", dataURI("image/png", encodePNG(t, 2, 2)))), 400, "image_input_not_supported")
	wantError(t, send(t, gw, "POST", "/chat/completions", chatJSON("gpt-4o", "x", false, false), map[string]string{"Authorization": ""}), 401, "invalid_api_key")
	wantError(t, post(t, gw, "/images/generations", `{"model":"dall-e-3","prompt":"x","size":"5x5"}`), 400, "invalid_value")
	if n := len(rec.all()); n != 0 {
		t.Fatalf("the responder saw %d invalid requests", n)
	}

	gw.Enqueue(apitest.Reply{Text: "queued"})
	if r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "x", false, false)); !strings.Contains(r.body, `"content":"queued"`) {
		t.Fatalf("a queued reply did not win: %q", r.body)
	}
	if n := len(rec.all()); n != 0 {
		t.Fatalf("the responder was asked although a reply was queued")
	}
	if r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "x", false, false)); !strings.Contains(r.body, `"content":"from the responder"`) {
		t.Fatalf("responder reply = %q", r.body)
	}
}

// TestResponderExplicitAndFaults: an explicit reply is written as is, a
// stream fault works as in a queued reply, and a reply that cannot mean
// anything is a 500 naming the Responder.
func TestResponderExplicitAndFaults(t *testing.T) {
	gw := newGW(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		switch c.Chat.Messages[0].Content.PlainText() {
		case "500":
			return apitest.Reply{Status: 500, ErrorMessage: "it broke"}
		case "mid":
			return apitest.Reply{Deltas: []string{"part"}, ErrorAfterDeltas: 1, ErrorMessage: "mid-stream failure"}
		default:
			return apitest.Reply{ErrorShape: "bogus"}
		}
	}))
	e := wantError(t, post(t, gw, "/chat/completions", chatJSON("gpt-4o", "500", false, false)), 500, "")
	if e.Error.Message != "it broke" || e.Error.Type != "server_error" {
		t.Errorf("500 body = %+v", e.Error)
	}
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "mid", true, false))
	if r.status != 200 || !strings.Contains(r.body, `"content":"part"`) || !strings.Contains(r.body, `"message":"mid-stream failure"`) || strings.Contains(r.body, "[DONE]") {
		t.Fatalf("mid-stream error stream = %q", r.body)
	}
	e = wantError(t, post(t, gw, "/chat/completions", chatJSON("gpt-4o", "other", false, false)), 500, "")
	if !strings.Contains(e.Error.Message, "Responder") {
		t.Errorf("invalid reply message = %q", e.Error.Message)
	}
}

// TestResponderImages: generations and edits give the Responder the prompt,
// n, the size to answer with and the edit's form; its Images are returned.
func TestResponderImages(t *testing.T) {
	var rec calls
	out := encodePNG(t, 3, 3)
	gw := newGW(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		rec.add(c)
		return apitest.Reply{Images: [][]byte{out}}
	}))
	ir := parseImages(t, post(t, gw, "/images/generations", `{"model":"gpt-image-1","prompt":"a cat","n":2,"size":"1536x1024"}`))
	if len(ir.Data) != 1 || !bytes.Equal(b64(t, ir.Data[0].B64JSON), out) {
		t.Fatalf("images = %+v", ir.Data)
	}
	in := encodePNG(t, 40, 30)
	ir = parseImages(t, sendEdit(t, gw, field("model", "gpt-image-1"), field("prompt", "add a hat"), part{"image", "cat.png", "image/png", in}))
	if len(ir.Data) != 1 {
		t.Fatalf("edit images = %+v", ir.Data)
	}
	seen := rec.all()
	if len(seen) != 2 {
		t.Fatalf("%d calls, want 2", len(seen))
	}
	g, e := seen[0], seen[1]
	if g.Endpoint != "/images/generations" || g.Prompt != "a cat" || g.N != 2 || g.Width != 1536 || g.Height != 1024 || g.Edit != nil {
		t.Errorf("generation call = %+v", g)
	}
	if e.Endpoint != "/images/edits" || e.Prompt != "add a hat" || e.N != 1 || e.Width != 40 || e.Height != 30 ||
		e.Edit == nil || len(e.Edit.Images) != 1 || !bytes.Equal(e.Edit.Images[0].Data, in) {
		t.Errorf("edit call = %+v", e)
	}
}

// TestMaxSide: a model with MaxSide refuses larger sizes, and one with
// MaxEditSide larger edit inputs, with a 400 that says the limit.
func TestMaxSide(t *testing.T) {
	gw := newGW(t, apitest.WithModels(apitest.ModelSpec{ID: "small", ImageGeneration: true, ImageEdit: true, MaxSide: 64, MaxEditSide: 64, MaxN: 2}))
	ir := parseImages(t, post(t, gw, "/images/generations", `{"model":"small","prompt":"x","size":"64x32"}`))
	if _, cfg := decodeImage(t, b64(t, ir.Data[0].B64JSON)); cfg.Width != 64 || cfg.Height != 32 {
		t.Errorf("64x32 gave %dx%d", cfg.Width, cfg.Height)
	}
	e := wantError(t, post(t, gw, "/images/generations", `{"model":"small","prompt":"x","size":"65x10"}`), 400, "invalid_value")
	if !strings.Contains(e.Error.Message, "up to 64x64") {
		t.Errorf("message = %q", e.Error.Message)
	}
	e = wantError(t, sendEdit(t, gw, field("model", "small"), field("prompt", "x"), part{"image", "big.png", "image/png", encodePNG(t, 65, 8)}), 400, "image_too_large")
	if !strings.Contains(e.Error.Message, "65x8") || !strings.Contains(e.Error.Message, "64 pixels per side") {
		t.Errorf("message = %q", e.Error.Message)
	}
	parseImages(t, sendEdit(t, gw, field("model", "small"), field("prompt", "x"), part{"image", "ok.png", "image/png", encodePNG(t, 64, 8)}))
}
