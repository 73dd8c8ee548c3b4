package apitest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"parley/api/apitest"
)

// Expected events of the first request to a newGW server, model gpt-4o.

func chunkOf(choices string) string {
	return `{"id":"chatcmpl-apitest-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[` + choices + `]}`
}

func chunkWithUsage(choices string, p, c int) string {
	return strings.TrimSuffix(chunkOf(choices), "}") +
		sprintf(`,"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, p, c, p+c)
}

const (
	roleChoice  = `{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}`
	finalChoice = `{"index":0,"delta":{},"finish_reason":"stop"}`
)

func contentChoice(s string) string {
	return `{"index":0,"delta":{"content":` + jsonString(s) + `},"finish_reason":null}`
}

func events(datas ...string) string {
	var b strings.Builder
	for _, d := range datas {
		b.WriteString("data: " + d + "\n\n")
	}
	return b.String()
}

// "say hi" is 2 prompt tokens; "Hello, world" in deltas of 5 runes is 3.
const helloText = "Hello, world"

func baseline() string {
	return events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
		chunkOf(contentChoice("ld")), chunkOf(finalChoice), "[DONE]")
}

func TestStreamFollowsSpecLifecycle(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5})
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
	if r.status != 200 || r.err != nil {
		t.Fatalf("status %d, err %v", r.status, r.err)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	if r.body != baseline() {
		t.Errorf("body:\n%q\nwant:\n%q", r.body, baseline())
	}
}

func TestStreamQuirksExactBytes(t *testing.T) {
	usage := func(p, c int) string { return chunkWithUsage("", p, c) }
	withFinish := func(choice, reason string) string {
		return strings.Replace(choice, `"finish_reason":null`, `"finish_reason":`+jsonString(reason), 1)
	}
	cases := []struct {
		name  string
		reply apitest.Reply
		usage bool // request include_usage
		want  string
	}{
		{"include_usage", apitest.Reply{}, true,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkOf(contentChoice("ld")), chunkOf(finalChoice), usage(2, 3), "[DONE]")},
		{"NoRoleChunk", apitest.Reply{Quirks: apitest.Quirks{NoRoleChunk: true}}, false,
			events(chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkOf(contentChoice("ld")), chunkOf(finalChoice), "[DONE]")},
		{"RoleWithFirstText", apitest.Reply{Quirks: apitest.Quirks{RoleWithFirstText: true}}, false,
			events(chunkOf(`{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}`),
				chunkOf(contentChoice(", wor")), chunkOf(contentChoice("ld")), chunkOf(finalChoice), "[DONE]")},
		{"FinishOnLastContent", apitest.Reply{Quirks: apitest.Quirks{FinishOnLastContent: true}}, false,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkOf(withFinish(contentChoice("ld"), "stop")), "[DONE]")},
		{"EmptyFinishReason", apitest.Reply{Quirks: apitest.Quirks{EmptyFinishReason: true}}, false,
			events(chunkOf(withFinish(roleChoice, "")), chunkOf(withFinish(contentChoice("Hello"), "")),
				chunkOf(withFinish(contentChoice(", wor"), "")), chunkOf(withFinish(contentChoice("ld"), "")),
				chunkOf(finalChoice), "[DONE]")},
		{"NoFinishReason", apitest.Reply{Quirks: apitest.Quirks{NoFinishReason: true}}, false,
			events(chunkOf(`{"index":0,"delta":{"role":"assistant","content":""}}`),
				chunkOf(`{"index":0,"delta":{"content":"Hello"}}`), chunkOf(`{"index":0,"delta":{"content":", wor"}}`),
				chunkOf(`{"index":0,"delta":{"content":"ld"}}`), "[DONE]")},
		{"PromptFilterFirst", apitest.Reply{Quirks: apitest.Quirks{PromptFilterFirst: true}}, false,
			events(`{"id":"","object":"","created":0,"model":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}}}],"choices":[]}`) +
				baseline()},
		{"ChoiceWithoutDelta", apitest.Reply{Quirks: apitest.Quirks{ChoiceWithoutDelta: true}}, false,
			events(chunkOf(roleChoice), chunkOf(`{"index":0,"finish_reason":null}`), chunkOf(contentChoice("Hello")),
				chunkOf(contentChoice(", wor")), chunkOf(contentChoice("ld")),
				chunkOf(`{"index":0,"finish_reason":"stop"}`), "[DONE]")},
		{"UsageChunkEmptyChoices unasked", apitest.Reply{Quirks: apitest.Quirks{UsageChunkEmptyChoices: true}}, false,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkOf(contentChoice("ld")), chunkOf(finalChoice), usage(2, 3), "[DONE]")},
		{"UsageInFinalChunk", apitest.Reply{Quirks: apitest.Quirks{UsageInFinalChunk: true}}, true,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkOf(contentChoice("ld")), chunkWithUsage(finalChoice, 2, 3), "[DONE]")},
		{"UsageInFinalChunk on last content", apitest.Reply{Quirks: apitest.Quirks{UsageInFinalChunk: true, FinishOnLastContent: true}}, true,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkWithUsage(withFinish(contentChoice("ld"), "stop"), 2, 3), "[DONE]")},
		{"usage override", apitest.Reply{Usage: &apitest.Usage{PromptTokens: 7, CompletionTokens: 9, TotalTokens: 16}}, true,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")),
				chunkOf(contentChoice("ld")), chunkOf(finalChoice), usage(7, 9), "[DONE]")},
		{"NoDone", apitest.Reply{Quirks: apitest.Quirks{NoDone: true}}, false,
			strings.TrimSuffix(baseline(), events("[DONE]"))},
		{"CommentsBefore", apitest.Reply{Quirks: apitest.Quirks{CommentsBefore: 3, CommentText: "OPENROUTER PROCESSING"}}, false,
			strings.Repeat(": OPENROUTER PROCESSING\n\n", 3) + baseline()},
		{"CommentEvery", apitest.Reply{Quirks: apitest.Quirks{CommentEvery: 2}}, false,
			events(chunkOf(roleChoice), chunkOf(contentChoice("Hello"))) + ": keep-alive\n\n" +
				events(chunkOf(contentChoice(", wor")), chunkOf(contentChoice("ld"))) + ": keep-alive\n\n" +
				events(chunkOf(finalChoice), "[DONE]")},
		{"CRLF", apitest.Reply{Quirks: apitest.Quirks{LineEnding: "\r\n"}}, false,
			strings.ReplaceAll(baseline(), "\n", "\r\n")},
		{"CR", apitest.Reply{Quirks: apitest.Quirks{LineEnding: "\r", CommentsBefore: 1}}, false,
			strings.ReplaceAll(": keep-alive\n\n"+baseline(), "\n", "\r")},
		{"BOM", apitest.Reply{Quirks: apitest.Quirks{BOM: true}}, false, "\xef\xbb\xbf" + baseline()},
		{"NoSpaceAfterData", apitest.Reply{Quirks: apitest.Quirks{NoSpaceAfterData: true}}, false,
			strings.ReplaceAll(baseline(), "data: ", "data:")},
		{"EventIDRetryLines", apitest.Reply{Quirks: apitest.Quirks{EventIDRetryLines: true}}, false,
			"retry: 3000\nid: 1\nevent: message\ndata: " + chunkOf(roleChoice) + "\n\n" +
				"id: 2\nevent: message\ndata: " + chunkOf(contentChoice("Hello")) + "\n\n" +
				"id: 3\nevent: message\ndata: " + chunkOf(contentChoice(", wor")) + "\n\n" +
				"id: 4\nevent: message\ndata: " + chunkOf(contentChoice("ld")) + "\n\n" +
				"id: 5\nevent: message\ndata: " + chunkOf(finalChoice) + "\n\n" +
				"id: 6\nevent: message\ndata: [DONE]\n\n"},
		{"explicit deltas, multi-byte", apitest.Reply{Deltas: []string{"é", "日本", ""}, FinishReason: "length"}, false,
			events(chunkOf(roleChoice), chunkOf(contentChoice("é")), chunkOf(contentChoice("日本")),
				chunkOf(contentChoice("")), chunkOf(`{"index":0,"delta":{},"finish_reason":"length"}`), "[DONE]")},
		{"no content at all", apitest.Reply{Deltas: []string{}}, true,
			events(chunkOf(roleChoice), chunkOf(finalChoice), usage(2, 0), "[DONE]")},
		{"RawSSE", apitest.Reply{RawSSE: "data: {\"choices\":[]}\r\n\r\n: x\rdata: [DONE]"}, false,
			"data: {\"choices\":[]}\r\n\r\n: x\rdata: [DONE]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gw := newGW(t)
			if c.reply.Text == "" && c.reply.Deltas == nil {
				c.reply.Text, c.reply.DeltaRunes = helloText, 5
			}
			gw.Enqueue(c.reply)
			r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, c.usage))
			if r.status != 200 || r.err != nil {
				t.Fatalf("status %d, err %v, body %s", r.status, r.err, r.body)
			}
			if r.body != c.want {
				t.Errorf("body:\n%q\nwant:\n%q", r.body, c.want)
			}
		})
	}
}

// MultiLineData: every JSON event spans several data: lines which, joined
// with "\n" as the SSE spec says, give back the normal event.
func TestStreamMultiLineData(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, Quirks: apitest.Quirks{MultiLineData: true}})
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
	wantFirst := "data: {\"id\":\"chatcmpl-apitest-1\",\n" +
		"data: \"object\":\"chat.completion.chunk\",\n" +
		"data: \"created\":1700000000,\n" +
		"data: \"model\":\"gpt-4o\",\n" +
		"data: \"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
	if !strings.HasPrefix(r.body, wantFirst) {
		t.Fatalf("first event:\n%q\nwant:\n%q", r.body[:min(len(r.body), len(wantFirst))], wantFirst)
	}
	var joined []string
	for _, ev := range strings.Split(strings.TrimSuffix(r.body, "\n\n"), "\n\n") {
		var datas []string
		for _, line := range strings.Split(ev, "\n") {
			d, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				t.Fatalf("line %q is not a data line", line)
			}
			datas = append(datas, d)
		}
		if len(datas) < 2 && datas[0] != "[DONE]" {
			t.Errorf("event %q is on one line", ev)
		}
		data := strings.Join(datas, "\n")
		if data != "[DONE]" {
			var v any
			if err := json.Unmarshal([]byte(data), &v); err != nil {
				t.Fatalf("joined event is not JSON: %v\n%s", err, data)
			}
			data = strings.ReplaceAll(data, ",\n", ",")
		}
		joined = append(joined, data)
	}
	if got := events(joined...); got != baseline() {
		t.Errorf("joined events:\n%q\nwant:\n%q", got, baseline())
	}
}

func TestStreamDefaultReplyEchoesUserText(t *testing.T) {
	gw := newGW(t)
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, false))
	want := events(chunkOf(roleChoice), chunkOf(contentChoice("You said")), chunkOf(contentChoice(": say hi")),
		chunkOf(finalChoice), "[DONE]")
	if r.body != want {
		t.Errorf("body:\n%q\nwant:\n%q", r.body, want)
	}
}

func TestNoContentTypeOnStream(t *testing.T) {
	gw := newGW(t)
	gw.Enqueue(apitest.Reply{NoContentType: true})
	r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "x", true, false))
	if _, ok := r.header["Content-Type"]; ok || r.status != 200 {
		t.Fatalf("status %d, Content-Type %q: want 200 and no Content-Type", r.status, r.header.Get("Content-Type"))
	}
	if !strings.HasSuffix(r.body, "data: [DONE]\n\n") {
		t.Errorf("body does not end with [DONE]: %q", r.body)
	}
}
