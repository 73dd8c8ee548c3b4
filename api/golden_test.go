package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// updateGolden is -update. Another package in the test binary (such as
// charmbracelet/x/exp/golden) may have defined it already; reuse theirs.
var updateGolden = lookupOrDefineBool("update", "rewrite golden files under testdata/golden")

func lookupOrDefineBool(name, usage string) func() bool {
	if f := flag.Lookup(name); f != nil {
		return func() bool { return f.Value.String() == "true" }
	}
	p := flag.Bool(name, false, usage)
	return func() bool { return *p }
}

// checkGolden compares got with testdata/golden/<name>, or rewrites it.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if updateGolden() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("request %s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// jsonGolden indents a request body without reordering or dropping
// anything, so an absent field stays visibly absent.
func jsonGolden(t *testing.T, body []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// multipartGolden lists a multipart body's parts in order: field values as
// they are, files by name, type, size and hash.
func multipartGolden(t *testing.T, contentType string, body []byte) []byte {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("Content-Type %q", contentType)
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var out strings.Builder
	fmt.Fprintf(&out, "Content-Type: %s\n", mt)
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		if p.FileName() != "" {
			fmt.Fprintf(&out, "file %s: filename=%q type=%q %d bytes sha256:%x\n",
				p.FormName(), p.FileName(), p.Header.Get("Content-Type"), len(data), sha256.Sum256(data))
		} else {
			fmt.Fprintf(&out, "field %s: %q\n", p.FormName(), data)
		}
	}
	return []byte(out.String())
}

// Fixed PNGs (made once with image/png) so golden hashes do not depend on
// the encoder of the Go version running the tests: 4x4 opaque, 4x4 with a
// transparent left half (a mask), 3x3 opaque.
const (
	png4x4     = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAG0lEQVR4nGJhYDihwcAAQSwgAgZwcwABAAD//0jcAcnlttlJAAAAAElFTkSuQmCC"
	png4x4Mask = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAH0lEQVR4nGJhYDjBoMHAAML/QTQLmIcECAsAAgAA//+YJALIH10qCgAAAABJRU5ErkJggg=="
	png3x3     = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAADCAIAAADZSiLoAAAAHElEQVR4nGJhYDihwcCgwcDAAiLAAMECBAAA//8h3gF14WPzlwAAAABJRU5ErkJggg=="
)

func fixedPNG(t testing.TB, b64 string) []byte {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestGoldenRequests pins the exact body of every request shape; the fake
// gateway also validates each one strictly, so a golden file cannot bless a
// request the spec forbids.
func TestGoldenRequests(t *testing.T) {
	ctx := context.Background()
	pic := fixedPNG(t, png4x4)
	dataURI := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pic)
	cases := []struct {
		name string
		run  func(c *Client) error
	}{
		{"chat_text.json", func(c *Client) error {
			_, err := c.Chat(ctx, ChatRequest{Model: "llama3", Messages: []Message{
				TextMessage(RoleSystem, "Be brief."), TextMessage(RoleUser, "Hello"),
				TextMessage(RoleAssistant, "Hi!"), TextMessage(RoleUser, "What is 2+2?"),
			}})
			return err
		}},
		{"chat_parts_image.json", func(c *Client) error {
			_, err := c.Chat(ctx, ChatRequest{Model: "gpt-4o", Messages: []Message{{Role: RoleUser, Content: Content{Parts: []Part{
				TextPart("What is in this picture?"), ImagePart(dataURI), ImagePart("https://example.com/cat.jpg"),
			}}}}})
			return err
		}},
		{"chat_stream_usage.json", func(c *Client) error {
			s, err := c.ChatStream(ctx, ChatRequest{Model: "gpt-4o", Messages: userMsg("Stream please"), StreamOptions: &StreamOptions{IncludeUsage: true}})
			if err == nil {
				drain(t, s)
			}
			return err
		}},
		{"chat_stream_plain.json", func(c *Client) error {
			s, err := c.ChatStream(ctx, ChatRequest{Model: "llama3", Messages: userMsg("Stream please")})
			if err == nil {
				drain(t, s)
			}
			return err
		}},
		{"image_generate_full.json", func(c *Client) error {
			_, err := c.GenerateImages(ctx, ImageRequest{Model: "dall-e-2", Prompt: "a red fox", N: 2, Size: "256x256", ResponseFormat: "b64_json"})
			return err
		}},
		{"image_generate_minimal.json", func(c *Client) error {
			_, err := c.GenerateImages(ctx, ImageRequest{Model: "gpt-image-1", Prompt: "a red fox"})
			return err
		}},
		{"image_edit_single.txt", func(c *Client) error {
			_, err := c.EditImages(ctx, EditRequest{Model: "dall-e-2", Prompt: "add a hat",
				Images: []ImageFile{{Name: "/home/u/photo.png", Data: pic, MIME: "image/png"}},
				Mask:   &ImageFile{Name: "mask.png", Data: fixedPNG(t, png4x4Mask)},
				N:      2, Size: "256x256", ResponseFormat: "b64_json"})
			return err
		}},
		{"image_edit_multi.txt", func(c *Client) error {
			_, err := c.EditImages(ctx, EditRequest{Model: "gpt-image-1", Prompt: "combine them",
				Images: []ImageFile{{Name: "a.png", Data: pic}, {Data: fixedPNG(t, png3x3)}}})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gw := apitest.New(t)
			c := newTestClient(t, gw)
			if err := tc.run(c); err != nil {
				t.Fatalf("the fake gateway refused the request: %v", err)
			}
			reqs := gw.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			var got []byte
			if strings.HasSuffix(tc.name, ".json") {
				if ct := r.Header.Get("Content-Type"); ct != "application/json" {
					t.Fatalf("Content-Type %q", ct)
				}
				got = jsonGolden(t, r.Body)
			} else {
				got = multipartGolden(t, r.Header.Get("Content-Type"), r.Body)
			}
			checkGolden(t, tc.name, append([]byte(r.Method+" "+r.Path+"\n"), got...))
		})
	}
}
