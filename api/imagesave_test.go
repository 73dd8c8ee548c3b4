package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"parley/media"
	"parley/media/mediatest"
)

// replyOf encodes a reply as a gateway sends it and reads it back the way
// the client does.
func replyOf(t *testing.T, resp any, want int) (*ImageReply, error) {
	t.Helper()
	body, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	reply, _, err := readImageReply(bytes.NewReader(body), want, maxImageReply, int64(len(body)))
	return reply, err
}

func TestImageReplyDecodesEveryForm(t *testing.T) {
	png1 := mediatest.PNG(t, mediatest.LineArt(16, 16))
	png2 := mediatest.PNG(t, mediatest.Photo(16, 8))
	wrapped := func(s string) string { // a 76-column MIME-style wrap
		var b strings.Builder
		for len(s) > 76 {
			b.WriteString(s[:76] + "\r\n")
			s = s[76:]
		}
		return b.String() + s
	}
	var asked []string
	download := func(ctx context.Context, url string) ([]byte, error) {
		asked = append(asked, url)
		return png2, nil
	}
	reply, err := replyOf(t, &ImageResponse{Created: 1735689600, Data: []ImageData{
		{B64JSON: b64(png1), RevisedPrompt: "a \"fox\" — in snow\n"},
		{B64JSON: strings.TrimRight(base64.URLEncoding.EncodeToString(png2), "=")},
		{B64JSON: wrapped(b64(png1))},
		{URL: "https://img.example/out.png?sig=a%2Fb&x=1"},
		{URL: "data:image/png;base64," + b64(png2)},
		{B64JSON: b64(png1), URL: "https://ignored.example/when-b64-is-there.png"},
	}}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Created != 1735689600 || reply.Dropped != 0 || reply.Data[0].RevisedPrompt != "a \"fox\" — in snow\n" {
		t.Fatalf("reply = created %d, dropped %d, revised %q", reply.Created, reply.Dropped, reply.Data[0].RevisedPrompt)
	}
	if reply.Data[3].URL != "https://img.example/out.png?sig=a%2Fb&x=1" || reply.Data[3].File != nil {
		t.Fatalf("link entry = %+v", reply.Data[3])
	}
	got, err := VerifyImages(context.Background(), reply, download, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{png1, png2, png1, png2, png2, png1}
	if len(got) != len(want) {
		t.Fatalf("got %d images", len(got))
	}
	for i := range want {
		if !bytes.Equal(got[i].Data, want[i]) || got[i].Info.Format != media.PNG {
			t.Errorf("image %d differs", i+1)
		}
	}
	if len(asked) != 1 || asked[0] != "https://img.example/out.png?sig=a%2Fb&x=1" {
		t.Errorf("downloads: %v", asked)
	}
}

// TestImageReplyJSONEscapes: encoders may escape '/' and anything else in a
// string; the streamed decoding sees the unescaped text.
func TestImageReplyJSONEscapes(t *testing.T) {
	png1 := mediatest.PNG(t, mediatest.Photo(20, 20))
	enc := b64(png1)
	escaped := strings.NewReplacer("/", `\/`, "A", `\u0041`, "+", `\u002B`).Replace(enc)
	body := `{"created": 17e8, "object": {"nested": [1, true, null, "x\"y"]}, "data": [ {"revised_prompt": "caf\u00e9 \ud83e\udd8a", "b64_json": "` + escaped + `\n"} ] }` + " \r\n"
	reply, _, err := readImageReply(strings.NewReader(body), 1, maxImageReply, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(reply.Data[0].File, png1) || reply.Data[0].RevisedPrompt != "café 🦊" {
		t.Fatalf("decoded %d bytes, revised %q", len(reply.Data[0].File), reply.Data[0].RevisedPrompt)
	}
}

// TestImageReplyKeepsAtMostN: a gateway that returns 50 images for n = 2
// gets two kept; the rest are read past without being decoded.
func TestImageReplyKeepsAtMostN(t *testing.T) {
	png1 := mediatest.PNG(t, mediatest.LineArt(8, 8))
	resp := &ImageResponse{}
	for range 50 {
		resp.Data = append(resp.Data, ImageData{B64JSON: b64(png1)})
	}
	resp.Data[40].B64JSON = "!!! broken, but never read !!!"
	for _, c := range []struct{ want, kept int }{{2, 2}, {0, 1}, {60, 50}} {
		reply, err := replyOf(t, resp, c.want)
		if err != nil {
			if c.want < 40 {
				t.Fatalf("n=%d: %v", c.want, err)
			}
			if !strings.Contains(err.Error(), "image 41 of 50 from the gateway is not valid Base64") {
				t.Fatalf("n=%d: %v", c.want, err)
			}
			continue
		}
		if len(reply.Data) != c.kept || reply.Dropped != 50-c.kept {
			t.Fatalf("n=%d: kept %d, dropped %d", c.want, len(reply.Data), reply.Dropped)
		}
	}
}

func TestImageReplyErrors(t *testing.T) {
	png1 := mediatest.PNG(t, mediatest.LineArt(16, 16))
	syntax := []string{
		`<html><body>Bad gateway</body></html>`,
		`{"data":[{"b64_json":"` + b64(png1),
		`{"data":[{"b64_json":"AAAA"}]} trailing`,
		`{"data":{"b64_json":"AAAA"}}`,
		`{"data":["AAAA"]}`,
		`{"data":[{"b64_json":"AA` + "\x01" + `AA"}]}`,
		`{"data":[{"b64_json":"\q"}]}`,
		strings.Repeat("[", 100) + strings.Repeat("]", 100),
		`{"created": 123456789012345678901234567890123456789012345678901234567890123456789}`,
		`{"data":[],}`,
	}
	for _, body := range syntax {
		_, _, err := readImageReply(strings.NewReader(body), 1, maxImageReply, -1)
		var se *replySyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%.60q: %v, want a syntax error", body, err)
		}
	}

	bad := []struct {
		name     string
		resp     *ImageResponse
		download func(context.Context, string) ([]byte, error)
		want     string
	}{
		{"nil", nil, nil, "without any image"},
		{"empty", &ImageResponse{Data: []ImageData{}}, nil, "empty data array"},
		{"invalid base64", &ImageResponse{Data: []ImageData{{B64JSON: b64(png1)}, {B64JSON: "not*base64!"}}}, nil, "image 2 of 2 from the gateway is not valid Base64 (illegal character '*')"},
		{"mixed alphabets", &ImageResponse{Data: []ImageData{{B64JSON: "ab+c-d__"}}}, nil, "mixes the standard and the URL-safe alphabet"},
		{"cut base64", &ImageResponse{Data: []ImageData{{B64JSON: "QUJD" + "Q"}}}, nil, "the data is cut short"},
		{"bad padding", &ImageResponse{Data: []ImageData{{B64JSON: "QUJD=="}}}, nil, "wrong padding"},
		{"data after padding", &ImageResponse{Data: []ImageData{{B64JSON: "QQ==QUJD"}}}, nil, "data after the padding"},
		{"data uri not base64", &ImageResponse{Data: []ImageData{{URL: "data:image/png,rawbytes"}}}, nil, "is a data URI that is not Base64"},
		{"data uri bad base64", &ImageResponse{Data: []ImageData{{URL: "data:image/png;base64,%%%"}}}, nil, "is a data URI with invalid Base64"},
		{"data uri without comma", &ImageResponse{Data: []ImageData{{URL: "data:" + strings.Repeat("x", 300)}}}, nil, "without a comma"},
		{"very long link", &ImageResponse{Data: []ImageData{{URL: "https://x.example/" + strings.Repeat("a", 70<<10)}}}, nil, "longer than 66 KB"},
		{"not an image", &ImageResponse{Data: []ImageData{{B64JSON: b64([]byte("<html><body>oops"))}}}, nil, "is not an image (it looks like an HTML page)"},
		{"truncated", &ImageResponse{Data: []ImageData{{B64JSON: b64(png1[:len(png1)-20])}}}, nil, "damaged PNG"},
		{"neither", &ImageResponse{Data: []ImageData{{RevisedPrompt: "x"}}}, nil, "neither b64_json nor url"},
		{"url without download", &ImageResponse{Data: []ImageData{{URL: "https://x.example/a.png"}}}, nil, "downloading is not enabled"},
		{"download fails", &ImageResponse{Data: []ImageData{{URL: "https://x.example/a.png"}}},
			func(context.Context, string) ([]byte, error) { return nil, errors.New("HTTP 404") }, "HTTP 404"},
		{"download is a bomb", &ImageResponse{Data: []ImageData{{URL: "https://x.example/a.png"}}},
			func(context.Context, string) ([]byte, error) {
				return mediatest.ClaimPNG(t, 100000, 100000, 8, mediatest.RGBA), nil
			}, "the gateway's image 1 of 1 is 100000x100000 pixels (40.0 GB decoded), more than parley decodes (256.0 MB), so nothing was saved; ask for a smaller size"},
	}
	for _, c := range bad {
		var reply *ImageReply
		var err error
		if c.resp != nil {
			reply, err = replyOf(t, c.resp, 5)
		}
		var imgs []media.Verified
		if err == nil {
			imgs, err = VerifyImages(context.Background(), reply, c.download, nil, nil)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || imgs != nil {
			t.Errorf("%s: got %d images, err %v; want error with %q", c.name, len(imgs), err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: not one line: %q", c.name, err)
		}
	}
}

func TestDecodeBase64(t *testing.T) {
	for in, want := range map[string]string{
		"QUJD": "ABC", "QUI=": "AB", "QUI": "AB", "QQ==": "A", "QQ": "A", " Q U\nJ D\r\n": "ABC",
		"-_8": "\xfb\xff", "+/8=": "\xfb\xff",
	} {
		got, err := decodeBase64(in)
		if err != nil || string(got) != want {
			t.Errorf("decodeBase64(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "  ", "Q", "QR==", "QUJD=", "Q===", "QU*D", "é"} {
		if got, err := decodeBase64(in); err == nil {
			t.Errorf("decodeBase64(%q) = %q, want an error", in, got)
		}
	}
}
