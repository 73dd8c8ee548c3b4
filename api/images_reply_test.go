package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/media/mediatest"
)

// hugeReplyServer answers every request with {"data":[{"b64_json":"AAAA…"}]}
// carrying b64Len Base64 characters, written from one reused buffer so the
// server itself allocates next to nothing; with length it sends a
// Content-Length, else the body is chunked.
func hugeReplyServer(t *testing.T, b64Len int, length bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		head, tail := `{"created":1,"data":[{"b64_json":"`, `"}]}`
		w.Header().Set("Content-Type", "application/json")
		if length {
			w.Header().Set("Content-Length", strconv.Itoa(len(head)+b64Len+len(tail)))
		}
		w.Write([]byte(head))
		chunk := bytes.Repeat([]byte("AAAA"), 16<<10)
		for left := b64Len; left > 0; left -= len(chunk) {
			if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
				return
			}
		}
		w.Write([]byte(tail))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func hugeReplyClient(t *testing.T, srv *httptest.Server) *Client {
	t.Helper()
	c, err := NewClient(ClientConfig{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Retry: RetryPolicy{MaxRetries: 0}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestImageReplyOf200MBIsRefusedAtTheCap: a 200 MB Base64 reply used to
// peak at 601 MB (the body, its string, a copy without white space and the
// decoded bytes at once). It is now decoded as it arrives and refused when
// the body passes maxImageReply, having held at most what it decoded so far:
// 96 MiB in a buffer sized from Content-Length, or in one that doubles (and
// briefly holds 1.5 times as much) when the length is not known.
func TestImageReplyOf200MBIsRefusedAtTheCap(t *testing.T) {
	if raceDetector {
		t.Skip("streams 200 MB through the race detector; run go test ./api without -race")
	}
	for _, c := range []struct {
		length bool
		peak   uint64
	}{{true, 120 << 20}, {false, 180 << 20}} {
		cl := hugeReplyClient(t, hugeReplyServer(t, 200_000_000, c.length))
		var err error
		m := mediatest.Measure(func() {
			_, err = cl.GenerateImages(context.Background(), ImageRequest{Model: "m", Prompt: "p"})
		})
		if err == nil || !strings.Contains(err.Error(), "is larger than 134.2 MB, more than parley reads; ask for fewer or smaller images") {
			t.Fatalf("Content-Length %v: err = %v", c.length, err)
		}
		if m.Peak > c.peak {
			t.Errorf("Content-Length %v: peak heap %d MB, want at most %d MB", c.length, m.Peak>>20, c.peak>>20)
		}
		t.Logf("Content-Length %v: refused after a peak of %d MB (%d MB allocated in all)", c.length, m.Peak>>20, m.Total>>20)
	}
}

// TestImageReplyOfNearlyTheCapIsRead: a reply just under the cap is read,
// its image decoded on the way into one buffer of its size.
func TestImageReplyOfNearlyTheCapIsRead(t *testing.T) {
	if raceDetector {
		t.Skip("streams 120 MB through the race detector; run go test ./api without -race")
	}
	const b64Len = 120_000_000
	c := hugeReplyClient(t, hugeReplyServer(t, b64Len, true))
	var (
		reply *ImageReply
		err   error
	)
	m := mediatest.Measure(func() {
		reply, err = c.GenerateImages(context.Background(), ImageRequest{Model: "m", Prompt: "p"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Data) != 1 || len(reply.Data[0].File) != b64Len/4*3 {
		t.Fatalf("got %d images", len(reply.Data))
	}
	if decoded := uint64(b64Len / 4 * 3); m.Peak > decoded+decoded/8 {
		t.Errorf("peak heap %d MB for %d MB decoded", m.Peak>>20, decoded>>20)
	}
	t.Logf("read with a peak of %d MB (%d MB allocated in all)", m.Peak>>20, m.Total>>20)
}

// TestImageReplyStatus200WithAnError: a gateway that reports an error with
// status 200 gets an APIError with its message, not "no images".
func TestImageReplyStatus200WithAnError(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	for _, body := range []string{
		`{"error":{"message":"Your request was rejected by the safety system.","type":"invalid_request_error","code":"content_policy_violation"}}`,
		`[{"error":{"message":"Your request was rejected by the safety system.","code":400}}]`,
	} {
		gw.Enqueue(apitest.Reply{Body: body})
		_, err := c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "x"})
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 200 || !strings.Contains(err.Error(), "rejected by the safety system") {
			t.Fatalf("%s: err = %v", body, err)
		}
	}
	gw.Enqueue(apitest.Reply{Body: `{"created":1}`})
	reply, err := c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "x"})
	if err != nil || reply.Data != nil {
		t.Fatalf("a reply without data: %+v, %v", reply, err)
	}
	if _, err := VerifyImages(context.Background(), reply, nil, nil, nil); err == nil || !strings.Contains(err.Error(), "without any image") {
		t.Fatalf("VerifyImages: %v", err)
	}
}

// TestImageReplyFromTheWire: a reply written in pieces cut anywhere is
// read whole; a page instead of JSON, a body cut short, and one that stops
// arriving each end in one sentence.
func TestImageReplyFromTheWire(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	gw.Enqueue(apitest.Reply{WriteSize: 7})
	reply, err := c.GenerateImages(context.Background(), ImageRequest{Model: "dall-e-2", Prompt: "x", N: 2, Size: "256x256", ResponseFormat: "b64_json"})
	if err != nil || len(reply.Data) != 2 {
		t.Fatalf("written in 7-byte pieces: %+v, %v", reply, err)
	}
	if _, err := VerifyImages(context.Background(), reply, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	gw.Enqueue(apitest.Reply{Body: "<html><title>Gateway</title></html>"})
	_, err = c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "x"})
	if err == nil || !strings.Contains(err.Error(), "the gateway's image reply is not valid JSON") || !strings.Contains(err.Error(), "check the base URL") {
		t.Fatalf("html: %v", err)
	}

	half := `{"data":[{"b64_json":"iVBORw0KGgo`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(half))
		if r.URL.Query().Get("stall") == "" {
			return // the connection ends 1000-len(half) bytes early
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	for _, stall := range []bool{false, true} {
		base := srv.URL + "/v1"
		cc, err := NewClient(ClientConfig{BaseURL: base, APIKey: "sk-test", Retry: RetryPolicy{MaxRetries: 0},
			Timeouts: Timeouts{StreamIdle: 300 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		start := time.Now()
		req := &apiRequest{method: "POST", url: base + "/images/generations", body: []byte("{}"), contentType: "application/json"}
		if stall {
			req.url += "?stall=1"
		}
		_, err = cc.imageCall(ctx, req, "m", 1, false)
		var te *TimeoutError
		switch {
		case stall && (!errors.As(err, &te) || te.Phase != PhaseStreamIdle || time.Since(start) > 10*time.Second):
			t.Errorf("stalled: %v after %s", err, time.Since(start))
		case !stall && (err == nil || !strings.Contains(err.Error(), "reading the reply from") || !strings.Contains(err.Error(), "try again")):
			t.Errorf("cut short: %v", err)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("not one line: %q", err)
		}
		cc.CloseIdleConnections()
	}
}

// TestImageTooLargeAdvice: a 413 for an image request advises on the
// image request, not on attachments, and still unwraps to the APIError.
func TestImageTooLargeAdvice(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	body := `{"error":{"message":"Request Entity Too Large","type":"invalid_request_error"}}`
	gw.Enqueue(apitest.Reply{Status: 413, Body: body})
	_, err := c.GenerateImages(context.Background(), ImageRequest{Model: "gpt-image-1", Prompt: "x"})
	var apiErr *APIError
	var big *ImageTooLargeError
	if !errors.As(err, &big) || !errors.As(err, &apiErr) || apiErr.StatusCode != 413 || big.Edit {
		t.Fatalf("err = %#v", err)
	}
	if got, want := err.Error(), "the gateway refused the request as too large (413 Request Entity Too Large: Request Entity Too Large); ask for a smaller size or fewer images"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	gw.Enqueue(apitest.Reply{Status: 413, Body: body})
	_, err = c.EditImages(context.Background(), EditRequest{Model: "gpt-image-1", Prompt: "x", Images: []ImageFile{{Data: fixedPNG(t, png4x4)}}})
	if err == nil || !strings.HasSuffix(err.Error(), "; upload smaller images to edit, or ask for a smaller size or fewer images") {
		t.Fatalf("edit: %v", err)
	}
}

// BenchmarkImageReplyDecode reads a reply carrying one 12 MB image: parley's
// streamed decoding against encoding/json plus base64 on the whole body, the
// way replies were read before.
func BenchmarkImageReplyDecode(b *testing.B) {
	img := bytes.Repeat([]byte("parley image bytes \x00\x01\x02\xff"), 12<<20/23)
	body, err := json.Marshal(&ImageResponse{Created: 1, Data: []ImageData{{B64JSON: base64.StdEncoding.EncodeToString(img)}}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("streamed", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			reply, _, err := readImageReply(bytes.NewReader(body), 1, maxImageReply, int64(len(body)))
			if err != nil || len(reply.Data[0].File) != len(img) {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json-then-base64", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			var r ImageResponse
			if err := json.Unmarshal(body, &r); err != nil {
				b.Fatal(err)
			}
			data, err := base64.StdEncoding.DecodeString(r.Data[0].B64JSON)
			if err != nil || len(data) != len(img) {
				b.Fatal(err)
			}
		}
	})
}
