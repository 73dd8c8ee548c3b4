package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"parley/api/apitest"
)

// marshalledBefore is how a chat request was encoded before the body was
// written as it is sent: json.Marshal over the request, its messages by
// reflection and Content's and Part's MarshalJSON. The body must stay
// these bytes exactly.
func marshalledBefore(t testing.TB, r ChatRequest) []byte {
	t.Helper()
	type plain ChatRequest
	w := struct {
		plain
		MaxTokens           *int `json:"max_tokens,omitempty"`
		MaxCompletionTokens *int `json:"max_completion_tokens,omitempty"`
	}{plain: plain(r)}
	if r.MaxTokensField == MaxCompletionTokens {
		w.MaxCompletionTokens = r.MaxTokens
	} else {
		w.MaxTokens = r.MaxTokens
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// awkwardText holds everything json.Marshal escapes: quotes, backslashes,
// every control character, HTML, invalid UTF-8 (a stray continuation
// byte, a cut sequence, an overlong form, a surrogate), U+2028, U+2029,
// DEL, and wide characters.
func awkwardText() string {
	var b strings.Builder
	b.WriteString(`He said "hi" \ <b>&amp;</b> `)
	for c := range 0x20 {
		b.WriteByte(byte(c))
	}
	b.WriteString("\x7f\x80 \xe2\x82 \xc0\xaf \xed\xa0\x80 \u2028\u2029 é 日本 🙂 \xff")
	return b.String()
}

// longText is n bytes and more of text whose multi-byte characters and
// escapes fall on every offset, so the body's pieces are cut inside runs
// of them.
func longText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("Ünïcødé 日本語 🙂 <tag> \"q\" \n\t")
		b.WriteString(strings.Repeat("x", i%7))
		if i%50 == 0 {
			b.WriteString("\x80\x80\x80\x80\x80 \u2028")
		}
	}
	return b.String()
}

func chatBodyCases() map[string]ChatRequest {
	temp, topP, seed, maxTok := 0.7, 0.9, int64(1)<<60, 256
	params := Params{Temperature: &temp, TopP: &topP, MaxTokens: &maxTok, Seed: &seed, Stop: []string{"</s>", "\n\n"}, ReasoningEffort: "low"}
	long := longText(3*bodyChunk + 17)
	return map[string]ChatRequest{
		"no messages":       {Model: "m"},
		"empty messages":    {Model: "m", Messages: []Message{}},
		"text":              {Model: "gpt-4o", Messages: []Message{TextMessage(RoleSystem, "Be brief."), TextMessage(RoleUser, "Hello")}},
		"empty text":        {Model: "m", Messages: []Message{TextMessage(RoleUser, ""), TextMessage(RoleAssistant, "")}},
		"escapes":           {Model: "m<&>\"\\\u2028", Messages: []Message{TextMessage(RoleUser, awkwardText())}},
		"stream with usage": {Model: "m", Messages: userMsg("hi"), Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}},
		"params":            {Model: "m", Messages: userMsg("hi"), Params: params, ParamSources: []ParamSetting{{Name: ParamTemperature}}},
		"max_completion_tokens": {Model: "o3", Messages: userMsg("hi"), Params: params, MaxTokensField: MaxCompletionTokens,
			Stream: true},
		"parts": {Model: "gpt-4o", Messages: []Message{{Role: RoleUser, Content: Content{Parts: []Part{
			TextPart("What is <this>?"), ImagePart("data:image/png;base64,iVBORw0KGgo="), ImagePart("https://example.com/a?b=1&c=2"),
			TextPart(""), {Type: PartImageURL}, {Type: "input_audio"},
		}}}, {Role: RoleAssistant, Content: Content{Parts: []Part{}}}}},
		"tool calls": {Model: "m", Messages: []Message{userMsg("weather?")[0],
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Type: ToolTypeFunction, Function: FunctionCall{Name: "get_weather", Arguments: `{"city": "Montréal <&>"}`}},
				{ID: "c\"2", Type: ToolTypeFunction, Function: FunctionCall{Name: "read", Arguments: awkwardText()}}}},
			{Role: RoleTool, ToolCallID: "call_1", Content: Content{Text: "snow"}},
			{Role: RoleTool, ToolCallID: "c\"2", Content: Content{Text: ""}},
			{Role: RoleAssistant, Content: Content{Text: "Let me look."}, ToolCalls: []ToolCall{{ID: "call_3", Type: ToolTypeFunction, Function: FunctionCall{Name: "x"}}}},
			{Role: RoleTool, ToolCallID: "call_3", Content: Content{Parts: []Part{TextPart("part")}}},
		}, Tools: []Tool{{Type: ToolTypeFunction, Function: ToolFunction{Name: "get_weather", Description: "the weather", Parameters: []byte(`{"type":"object"}`)}}}},
		"long strings": {Model: "m", Messages: []Message{TextMessage(RoleUser, long), {Role: RoleUser, Content: Content{Parts: []Part{
			TextPart(long), ImagePart("data:image/png;base64," + strings.Repeat("QUJD", bodyChunk)),
		}}}}},
	}
}

// TestChatBodyMatchesMarshal: the body a chat request sends, and
// MarshalJSON, are the bytes json.Marshal made before, however the
// transport reads them.
func TestChatBodyMatchesMarshal(t *testing.T) {
	for name, r := range chatBodyCases() {
		t.Run(name, func(t *testing.T) {
			want := marshalledBefore(t, r)
			got, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("json.Marshal:\n got %.300q\nwant %.300q", got, want)
			}
			head, tail, err := chatEnvelope(r)
			if err != nil {
				t.Fatal(err)
			}
			if size := chatBodySize(head, tail, r.Messages); size != int64(len(want)) {
				t.Fatalf("counted %d bytes, the body has %d", size, len(want))
			}
			if err := iotest.TestReader(newChatBody(head, tail, r.Messages), want); err != nil {
				t.Fatal(err)
			}
			one, err := io.ReadAll(iotest.OneByteReader(newChatBody(head, tail, r.Messages)))
			if err != nil || !bytes.Equal(one, want) {
				t.Fatalf("read a byte at a time: %v\n got %.300q\nwant %.300q", err, one, want)
			}
		})
	}
}

// TestChatBodyBounded: writing a long conversation's body never holds
// more than a few pieces of it, however long the messages are.
func TestChatBodyBounded(t *testing.T) {
	r := chatBodyCases()["long strings"]
	for range 20 {
		r.Messages = append(r.Messages, r.Messages[:2]...)
	}
	head, tail, err := chatEnvelope(r)
	if err != nil {
		t.Fatal(err)
	}
	b := newChatBody(head, tail, r.Messages)
	total := 0
	for b.fill() {
		total += len(b.buf)
		// A piece is cut at bodyChunk bytes of text, which escape to at
		// most six bytes each.
		if len(b.buf) > 7*bodyChunk {
			t.Fatalf("a stretch of %d bytes", len(b.buf))
		}
	}
	if cap(b.buf) > 7*bodyChunk || total < 40*bodyChunk {
		t.Fatalf("buffer of %d bytes for a body of %d", cap(b.buf), total)
	}
}

// TestChatBodyKnowsEveryField: the body writes Message, Content, Part and
// ImageURL by hand; a field added to one of them must be added there too
// (queueMessage), or it would never be sent.
func TestChatBodyKnowsEveryField(t *testing.T) {
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[Message]():  `Role json:"role"|Content json:"content"|ToolCalls json:"tool_calls,omitempty"|ToolCallID json:"tool_call_id,omitempty"`,
		reflect.TypeFor[Content]():  `Text |Parts `,
		reflect.TypeFor[Part]():     `Type json:"type"|Text json:"-"|ImageURL json:"image_url,omitempty"`,
		reflect.TypeFor[ImageURL](): `URL json:"url"`,
	} {
		var fields []string
		for f := range typ.Fields() {
			fields = append(fields, f.Name+" "+string(f.Tag))
		}
		if got := strings.Join(fields, "|"); got != want {
			t.Errorf("%s has the fields %q; queueMessage writes %q: write the new field in the body too", typ, got, want)
		}
	}
}

// TestJSONStringMatchesEncodingJSON: escaping a string whole, and in
// pieces cut anywhere by jsonCut, writes what json.Marshal writes.
func TestJSONStringMatchesEncodingJSON(t *testing.T) {
	var all strings.Builder
	for b := range 256 {
		all.WriteByte(byte(b))
	}
	for _, s := range []string{"", "plain", awkwardText(), all.String(), longText(5000), "\xe2\x80\xa8\xe2\x80", "\xf0\x9f\x99"} {
		checkJSONString(t, s)
	}
}

func FuzzJSONString(f *testing.F) {
	f.Add(awkwardText(), 3)
	f.Add("\xf0\x9f\x99\x82\x80\x80\x80\x80", 1)
	f.Add(longText(200), 7)
	f.Fuzz(func(t *testing.T, s string, n int) {
		checkJSONString(t, s, n)
	})
}

// checkJSONString compares appendJSONString with json.Marshal, whole and
// cut into pieces of every size in sizes (1 to 9 when none is given).
func checkJSONString(t *testing.T, s string, sizes ...int) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := `"` + string(appendJSONString(nil, s)) + `"`; got != string(want) {
		t.Fatalf("%q:\n got %q\nwant %q", s, got, want)
	}
	if len(sizes) == 0 {
		sizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9}
	}
	for _, n := range sizes {
		got := []byte(`"`)
		for pos := 0; pos < len(s); {
			end := jsonCut(s, pos, n)
			if end <= pos || end > len(s) || end-pos > max(n, 1)+utf8.UTFMax-1 {
				t.Fatalf("%q: a piece of about %d bytes from %d ends at %d", s, n, pos, end)
			}
			got = appendJSONString(got, s[pos:end])
			pos = end
		}
		if got = append(got, '"'); !bytes.Equal(got, want) {
			t.Fatalf("%q in pieces of %d:\n got %q\nwant %q", s, n, got, want)
		}
	}
}

// TestChatStreamRetryResendsTheBody: a stream refused with a 500 is asked
// again with the same body, made anew from the request; both attempts
// carry a Content-Length (no chunked encoding) and the bytes json.Marshal
// made.
func TestChatStreamRetryResendsTheBody(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Status: 500}, apitest.Reply{Text: "fine"})
	c := newTestClient(t, gw)
	long := longText(3 * bodyChunk)
	picture := "data:image/png;base64," + png4x4
	r := ChatRequest{Model: "gpt-4o", Messages: []Message{
		TextMessage(RoleUser, long), TextMessage(RoleAssistant, awkwardText()),
		{Role: RoleUser, Content: Content{Parts: []Part{TextPart(long), ImagePart(picture)}}},
	}}
	s, err := c.ChatStream(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, s); !errors.Is(got.err, io.EOF) || got.text != "fine" {
		t.Fatalf("the retried stream: %q, %v", got.text, got.err)
	}
	r.Stream = true
	want := marshalledBefore(t, r)
	reqs := gw.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (a 500, then the stream)", len(reqs))
	}
	for i, req := range reqs {
		if !bytes.Equal(req.Body, want) {
			t.Fatalf("attempt %d sent %d bytes, not the %d of the request", i+1, len(req.Body), len(want))
		}
		if cl := req.Header.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
			t.Fatalf("attempt %d: Content-Length %q, want %d", i+1, cl, len(want))
		}
	}
}

// TestChatRedirectResendsTheBody: a redirect within the gateway that keeps
// the method (307) sends the whole body again, read anew (GetBody).
func TestChatRedirectResendsTheBody(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Status: http.StatusTemporaryRedirect, Header: map[string]string{"Location": gw.URL() + "/chat/completions"}}, apitest.Reply{Text: "moved"})
	c := newTestClient(t, gw)
	r := ChatRequest{Model: "llama3", Messages: []Message{TextMessage(RoleUser, longText(2*bodyChunk))}}
	reply, err := c.Chat(context.Background(), r)
	if err != nil || reply.Text() != "moved" {
		t.Fatalf("the redirected request: %v", err)
	}
	want := marshalledBefore(t, r)
	reqs := gw.Requests()
	if len(reqs) != 2 || !bytes.Equal(reqs[0].Body, want) || !bytes.Equal(reqs[1].Body, want) {
		t.Fatalf("%d requests; the body must go whole both times", len(reqs))
	}
}
