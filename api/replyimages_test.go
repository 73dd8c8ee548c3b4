package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/media"
)

// replyPNG encodes a w×h PNG filled with one colour.
func replyPNG(t testing.TB, w, h int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestStreamReplyImages reads the images an image-output chat model sends
// in delta.images (OpenRouter's shape), streamed in odd-sized pieces, and
// asks for them with modalities.
func TestStreamReplyImages(t *testing.T) {
	red := replyPNG(t, 40, 30, color.RGBA{255, 0, 0, 255})
	blue := replyPNG(t, 20, 20, color.RGBA{0, 0, 255, 255})
	for _, ws := range []int{0, 7} {
		gw := apitest.New(t)
		gw.Enqueue(apitest.Reply{Text: "Here you go.", ReplyImages: [][]byte{red, blue}, WriteSize: ws})
		c := newTestClient(t, gw)
		s, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("draw"), Modalities: []string{"image", "text"}})
		if err != nil {
			t.Fatal(err)
		}
		r := drain(t, s)
		if r.err != io.EOF || r.text != "Here you go." {
			t.Fatalf("write %d: text %q, end %v", ws, r.text, r.err)
		}
		if len(r.images) != 2 || !bytes.Equal(r.images[0].Data, red) || !bytes.Equal(r.images[1].Data, blue) {
			t.Fatalf("write %d: %d images, want the two sent", ws, len(r.images))
		}
		if r.images[0].Info.Width != 40 || r.images[0].Info.Height != 30 || r.images[0].Info.Format != media.PNG {
			t.Fatalf("first image's header read as %+v", r.images[0].Info)
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(gw.Requests()[0].Body, &body); err != nil {
			t.Fatal(err)
		}
		if got := string(body["modalities"]); got != `["image","text"]` {
			t.Fatalf("modalities sent as %s", got)
		}
	}
}

// TestChatReplyImages reads message.images of a reply that was not streamed.
func TestChatReplyImages(t *testing.T) {
	img := replyPNG(t, 8, 8, color.RGBA{0, 255, 0, 255})
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "one", ReplyImages: [][]byte{img}})
	c := newTestClient(t, gw)
	resp, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("draw")})
	if err != nil {
		t.Fatal(err)
	}
	got := resp.ReplyImages()
	if len(got) != 1 || !bytes.Equal(got[0].Data, img) {
		t.Fatalf("images %+v", got)
	}
}

// TestReplyImageShapes takes the shapes gateways use and refuses what is
// no image, without failing the reply: the bounds are checked from the
// Base64's length before anything is decoded.
func TestReplyImageShapes(t *testing.T) {
	img := replyPNG(t, 4, 4, color.RGBA{1, 2, 3, 255})
	b := base64.StdEncoding.EncodeToString(img)
	uri := "data:image/png;base64," + b
	huge := "data:image/png;base64," + strings.Repeat("A", maxReplyImageBytes/3*4+8)
	wide := replyPNG(t, 1, 1, color.RGBA{})
	// A header claiming 100000×100000 pixels: over the decode budget.
	copy(wide[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0})
	binary.BigEndian.PutUint32(wide[29:33], crc32.ChecksumIEEE(wide[12:29]))
	cases := []struct {
		name, entry string
		want        []byte
		refused     string
	}{
		{"openrouter", `{"type":"image_url","image_url":{"url":"` + uri + `"}}`, img, ""},
		{"url string", `{"image_url":"` + uri + `"}`, img, ""},
		{"url at the top", `{"url":"` + uri + `"}`, img, ""},
		{"b64_json", `{"b64_json":"` + b + `"}`, img, ""},
		{"bare string", `"` + uri + `"`, img, ""},
		{"link", `{"image_url":{"url":"https://example.com/a.png"}}`, nil, "came as a link"},
		{"not an image", `"data:image/png;base64,` + base64.StdEncoding.EncodeToString([]byte("<html>hello</html>")) + `"`, nil, "is not an image"},
		{"too large", `"` + huge + `"`, nil, "is larger than parley keeps"},
		{"over the pixel budget", `"data:image/png;base64,` + base64.StdEncoding.EncodeToString(wide) + `"`, nil, "more than parley decodes"},
		{"empty", `{"image_url":{}}`, nil, "has no data"},
	}
	for _, tc := range cases {
		var budget replyImageBudget
		got := budget.decode(json.RawMessage("[" + tc.entry + "]"))
		if len(got) != 1 {
			t.Fatalf("%s: %d images", tc.name, len(got))
		}
		if tc.want != nil && (!bytes.Equal(got[0].Data, tc.want) || got[0].Refused != "") {
			t.Fatalf("%s: got %d bytes, refused %q", tc.name, len(got[0].Data), got[0].Refused)
		}
		if tc.refused != "" && (got[0].Data != nil || !strings.Contains(got[0].Refused, tc.refused)) {
			t.Fatalf("%s: refused %q, want it to say %q", tc.name, got[0].Refused, tc.refused)
		}
	}
	var budget replyImageBudget
	if got := budget.decode(json.RawMessage(`{"not":"a list"}`)); got != nil {
		t.Fatalf("an object instead of a list gave %+v", got)
	}
	entries := strings.TrimSuffix(strings.Repeat(`"`+uri+`",`, MaxReplyImages+2), ",")
	got := budget.decode(json.RawMessage("[" + entries + "]"))
	if len(got) != MaxReplyImages+2 || got[MaxReplyImages-1].Data == nil || got[MaxReplyImages].Data != nil || !strings.Contains(got[MaxReplyImages].Refused, "at most 8") {
		t.Fatalf("the count cap: %d entries, the one past the cap refused %q", len(got), got[min(len(got)-1, MaxReplyImages)].Refused)
	}
}
