package demo

import (
	"fmt"
	"strings"

	"parley/api/fake"
)

// thinkReply is demo-think's reply: reasoning streamed in
// delta.reasoning_content, as DeepSeek and vLLM send it, then the answer,
// so the chat's "Thinking" block and its folded line can be seen.
func (g *Gateway) thinkReply(req *fake.ChatRequest) fake.Reply {
	r := g.stream(thinkAnswer(lastUserText(req)))
	r.Reasoning = thinkReasoning(lastUserText(req))
	r.ReasoningAs = fake.ReasoningContent
	return r
}

// thinkReasoning is what demo-think "thinks": a few steps about the
// question, long enough to watch it stream.
func thinkReasoning(prompt string) string {
	var b strings.Builder
	if q := quote(prompt); q != "" {
		fmt.Fprintf(&b, "The user asks: \"%s\".\n\n", q)
	} else {
		b.WriteString("The message is empty, so there is no question to think about.\n\n")
	}
	b.WriteString("First, what kind of question is it? It is a message to the demo, so the honest answer " +
		"is about the demo itself rather than about the world.\n\n" +
		"Second, what would help? Showing that a reasoning model's thinking arrives apart from its answer: " +
		"parley shows it dim while it streams and folds it to one line once the answer is done.\n\n" +
		"Third, keep the answer short: the thinking was the long part. I will say what happened and how to see it again.")
	return b.String()
}

// thinkAnswer is demo-think's answer, after its reasoning.
func thinkAnswer(prompt string) string {
	var b strings.Builder
	b.WriteString("I thought before answering, and my reasoning came **apart from this answer** " +
		"(as `reasoning_content`, the way DeepSeek and vLLM send it).\n\n")
	if q := quote(prompt); q != "" {
		fmt.Fprintf(&b, "You asked: *%s*. I am a demo, so my answer is about the demo: ", q)
	}
	b.WriteString("the reasoning is kept with the reply and in the history, shown folded as " +
		"\"Thought for … s\", and never sent back to the model with your next message.\n\n" +
		"- **ctrl+t** or `/thinking` folds and unfolds it\n" +
		"- `parley ask --demo -m demo-think \"why?\"` prints the answer on stdout and the thinking, dim, on stderr\n")
	return b.String()
}
