package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"parley/termsafe"
)

// hostile bytes a gateway might put in a reason phrase or an error body:
// set the title (OSC 0 and 2), write the clipboard (OSC 52), clear the
// screen, an 8-bit CSI, a C1 CSI in UTF-8, and a bidi override.
const hostile = "\x1b]0;owned\x07\x1b]2;owned\x1b\\\x1b]52;c;cGFybGV5\x07\x1b[2J\x1b[H\x9b31m\u009b1m\u202e"

// jsonHostile is hostile as JSON escapes, for error bodies.
const jsonHostile = `\u001b]0;owned\u0007\u001b]52;c;cGFybGV5\u0007\u001b[2J\u009b1m\u202e`

// rawGateway answers each connection with the next scripted raw HTTP
// response, byte for byte (reason phrases and header values that net/http
// servers would never write).
func rawGateway(t *testing.T, responses ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	t.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				mu.Lock()
				resp := responses[min(next, len(responses)-1)]
				next++
				mu.Unlock()
				io.WriteString(conn, resp)
			}()
		}
	}()
	return "http://" + l.Addr().String() + "/v1"
}

// controlIn returns the first character of s that a terminal would act on
// (a C0 control other than newline and tab, DEL, a C1 control, an invalid
// byte, a bidi control), or "".
func controlIn(s string) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r < 0x20 && r != '\n' && r != '\t',
			r == 0x7f,
			r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return strings.ToValidUTF8(s[max(0, i-20):min(len(s), i+20)], "?")
		}
		i += size
	}
	return ""
}

func sseChunk(text string) string {
	return `data: {"choices":[{"index":0,"delta":{"content":"` + text + `"}}]}` + "\n\n"
}

// TestVerboseTraceIsInert drives every kind of trace line with gateway
// bytes in it: a status line whose reason phrase carries escape sequences,
// header values with C1 and bidi controls, retry lines quoting error bodies
// full of escapes, a stream that fails before any text with such an error
// event, and one that fails after text. Nothing a terminal acts on may
// reach the trace writer, while each line is still there to read.
func TestVerboseTraceIsInert(t *testing.T) {
	base := rawGateway(t,
		// 1: 503 with a hostile reason phrase, header value and body.
		"HTTP/1.1 503 Busy "+hostile+"\r\nContent-Type: application/json\r\nX-Note: a\u009b2J\x9b31m\u202eb\r\nConnection: close\r\n\r\n"+
			`{"error":{"message":"overloaded `+jsonHostile+`","type":"server_error"}}`,
		// 2: a stream whose first event is a retryable error.
		"HTTP/1.1 200 OK "+hostile+"\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"+
			`data: {"error":{"message":"try later `+jsonHostile+`","type":"server_error"}}`+"\n\n",
		// 3: text, then an error event, which ends the stream for good.
		"HTTP/1.1 200 "+hostile+"\r\nContent-Type: text/event-stream\r\nX-Title: \u009b2J\r\nConnection: close\r\n\r\n"+
			sseChunk("partial")+`data: {"error":{"message":"gone `+jsonHostile+`","type":"invalid_request_error"}}`+"\n\n",
	)
	var trace bytes.Buffer
	c, err := NewClient(ClientConfig{BaseURL: base, APIKey: secretKey, Verbose: &trace, Sanitize: termsafe.Sanitize})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	(&fakeClock{}).install(c)
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "llama3", Messages: userMsg("hi")})
	if err != nil {
		t.Fatal(err)
	}
	r := drain(t, s)
	var apiErr *APIError
	if r.text != "partial" || !errors.As(r.err, &apiErr) {
		t.Fatalf("text %q, err %v", r.text, r.err)
	}
	out := trace.String()
	if bad := controlIn(out); bad != "" {
		t.Fatalf("the trace carries a control character near %q:\n%s", bad, out)
	}
	for _, want := range []string{
		"< HTTP/1.1 503 Busy ␛]0;owned␇",          // the reason phrase, made visible
		"< X-Note: a⟨U+009B⟩2J⟨0x9B⟩31m⟨U+202E⟩b", // a header value
		"! retrying in ", // the retry line ...
		"503 service unavailable): the gateway answered 503 Busy ␛]0;owned␇", // ... quoting the error
		"! stream failed before any text (",
		"try later ␛]0;owned␇",
		"< stream failed (the gateway reported an error during the reply after 3 attempts: gone ␛]0;owned␇",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the trace lacks %q:\n%s", want, out)
		}
	}
	assertNoKey(t, out)
}

// TestVerboseNeedsSanitizer: a trace without a sanitiser is refused, so no
// caller can send gateway bytes to a terminal by forgetting it.
func TestVerboseNeedsSanitizer(t *testing.T) {
	_, err := NewClient(ClientConfig{BaseURL: "http://127.0.0.1:9/v1", Verbose: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "sanitiser") {
		t.Fatalf("err %v", err)
	}
}
