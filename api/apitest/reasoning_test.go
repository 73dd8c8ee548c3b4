package apitest_test

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

// rawContent is contentChoice as the fake writes it: < and > unescaped.
func rawContent(s string) string {
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(contentChoice(s))
}

func reasoningChoice(field, s string) string {
	return `{"index":0,"delta":{"` + field + `":` + jsonString(s) + `},"finish_reason":null}`
}

// The three ways reasoning comes, byte for byte: its own delta member
// (reasoning_content or reasoning) before the content, or <think> at the
// start of the content; usage counts the reasoning deltas.
func TestStreamReasoning(t *testing.T) {
	usage := func(p, c, r int) string {
		return sprintf(`{"id":"chatcmpl-apitest-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"completion_tokens_details":{"reasoning_tokens":%d}}}`, p, c, p+c, r)
	}
	for _, tt := range []struct {
		as   string
		want string
	}{
		{apitest.ReasoningContent, events(chunkOf(roleChoice),
			chunkOf(reasoningChoice("reasoning_content", "Hmm, ")), chunkOf(reasoningChoice("reasoning_content", "sure.")),
			chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")), chunkOf(contentChoice("ld")),
			chunkOf(finalChoice), usage(2, 5, 2), "[DONE]")},
		{apitest.ReasoningField, events(chunkOf(roleChoice),
			chunkOf(reasoningChoice("reasoning", "Hmm, ")), chunkOf(reasoningChoice("reasoning", "sure.")),
			chunkOf(contentChoice("Hello")), chunkOf(contentChoice(", wor")), chunkOf(contentChoice("ld")),
			chunkOf(finalChoice), usage(2, 5, 2), "[DONE]")},
		{apitest.ReasoningThink, events(chunkOf(roleChoice),
			chunkOf(rawContent("<thin")), chunkOf(rawContent("k>Hmm")), chunkOf(rawContent(", sur")),
			chunkOf(rawContent("e.</t")), chunkOf(rawContent("hink>")), chunkOf(rawContent("\n\nHel")),
			chunkOf(rawContent("lo, w")), chunkOf(rawContent("orld")),
			chunkOf(finalChoice), strings.Replace(usage(2, 8, 0), `,"completion_tokens_details":{"reasoning_tokens":0}`, "", 1), "[DONE]")},
	} {
		gw := newGW(t)
		gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, Reasoning: "Hmm, sure.", ReasoningAs: tt.as})
		r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", true, true))
		if r.status != 200 || r.body != tt.want {
			t.Errorf("%s: status %d, body:\n%s\nwant:\n%s", tt.as, r.status, r.body, tt.want)
		}
	}
}

func TestCompleteReasoning(t *testing.T) {
	for _, tt := range []struct{ as, message string }{
		{"", `{"role":"assistant","content":"Hello, world","reasoning_content":"Hmm, sure."}`},
		{apitest.ReasoningField, `{"role":"assistant","content":"Hello, world","reasoning":"Hmm, sure."}`},
		{apitest.ReasoningThink, `{"role":"assistant","content":"<think>Hmm, sure.</think>\n\nHello, world"}`},
	} {
		gw := newGW(t)
		gw.Enqueue(apitest.Reply{Text: helloText, DeltaRunes: 5, Reasoning: "Hmm, sure.", ReasoningAs: tt.as})
		r := post(t, gw, "/chat/completions", chatJSON("gpt-4o", "say hi", false, false))
		if r.status != 200 || !strings.Contains(r.body, `"message":`+tt.message+`,`) {
			t.Errorf("%q: status %d, body %s\nwant message %s", tt.as, r.status, r.body, tt.message)
		}
	}
}

// A typo in ReasoningAs fails at Enqueue, not as a puzzling stream.
func TestReasoningAsChecked(t *testing.T) {
	gw := newGW(t)
	defer func() {
		if err, _ := recover().(error); err == nil || !strings.Contains(err.Error(), `Reply.ReasoningAs "thoughts" is not one of`) {
			t.Fatalf("recovered %v", err)
		}
	}()
	gw.Enqueue(apitest.Reply{Reasoning: "x", ReasoningAs: "thoughts"})
}
