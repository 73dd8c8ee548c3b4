package fake

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// tokensPerImage is what one image part adds to the computed prompt tokens
// (OpenAI's base cost of a low-detail image).
const tokensPerImage = 85

// chatCompletion is the non-streaming reply.
type chatCompletion struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []replyChoice `json:"choices"`
	Usage   Usage         `json:"usage"`
}

type replyChoice struct {
	Index        int          `json:"index"`
	Message      replyMessage `json:"message"`
	FinishReason string       `json:"finish_reason"`
}

type replyMessage struct {
	Role             string          `json:"role"`
	Content          *string         `json:"content"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	Reasoning        *string         `json:"reasoning,omitempty"`
	ToolCalls        []replyToolCall `json:"tool_calls,omitempty"`
	Images           []imageEntry    `json:"images,omitempty"`
}

type replyToolCall struct {
	ID       string            `json:"id"`
	Type     string            `json:"type"`
	Function chunkToolFunction `json:"function"`
}

func (ex *exchange) handleChat() {
	call, err := ex.validateChat()
	if err != nil {
		ex.fail(err)
		return
	}
	if ex.consult(Call{Endpoint: ex.endpoint, Model: call.model, Chat: &call.req, Stream: call.stream}) {
		return
	}
	if ex.rep.RawSSE != "" {
		ex.writeRawSSE()
		return
	}
	deltas := ex.rep.deltas(defaultReplyText(call.req.Messages))
	usage := computeUsage(call, deltas, ex.rep.reasoningDeltas())
	if ex.rep.Usage != nil {
		usage = ex.rep.Usage.clone()
	}
	if call.stream {
		ex.stream(call, deltas, usage)
		return
	}
	ex.complete(call, deltas, usage)
}

func (ex *exchange) completionID() string { return "chatcmpl-apitest-" + strconv.Itoa(ex.seq) }

// complete writes the non-streaming reply. Usage is always included, as
// OpenAI does.
func (ex *exchange) complete(call *chatCall, deltas []string, usage Usage) {
	text := strings.Join(deltas, "")
	msg := replyMessage{Role: "assistant", Content: &text, Images: imageEntries(ex.rep.ReplyImages)}
	if len(ex.rep.ToolCalls) > 0 && text == "" {
		msg.Content = nil // null beside tool calls, as OpenAI writes it
	}
	for _, tc := range ex.rep.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, replyToolCall{ID: tc.ID, Type: "function", Function: chunkToolFunction{Name: tc.Name, Arguments: tc.Arguments}})
	}
	if r := ex.rep.reasoningDeltas(); r != nil {
		text := strings.Join(r, "")
		if ex.rep.reasoningField() == ReasoningField {
			msg.Reasoning = &text
		} else {
			msg.ReasoningContent = &text
		}
	}
	body := marshal(chatCompletion{
		ID:      ex.completionID(),
		Object:  "chat.completion",
		Created: ex.s.now().Unix(),
		Model:   call.model.ID,
		Choices: []replyChoice{{
			Message:      msg,
			FinishReason: ex.rep.finishReason(),
		}},
		Usage: usage,
	})
	if ex.rep.CutAfterDeltas > 0 {
		// Promise the whole body, send half of it, drop the connection.
		ex.setContentType("application/json")
		ex.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		ex.w.WriteHeader(ex.status(http.StatusOK))
		bw := newBodyWriter(ex.w, ex.rep.WriteSize)
		bw.write(body[:len(body)/2])
		bw.flush()
		panic(http.ErrAbortHandler)
	}
	ex.writeJSON(body)
}

// writeRawSSE writes Reply.RawSSE verbatim as an event stream.
func (ex *exchange) writeRawSSE() {
	ex.setContentType("text/event-stream; charset=utf-8")
	setIfAbsent(ex.w.Header(), "Cache-Control", "no-cache")
	ex.w.WriteHeader(ex.status(http.StatusOK))
	bw := newBodyWriter(ex.w, ex.rep.WriteSize)
	bw.write([]byte(ex.rep.RawSSE))
	bw.flush()
}

// defaultReplyText is the unscripted answer: it repeats the last user text,
// so end-to-end runs can see what reached the gateway.
func defaultReplyText(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		text := strings.TrimSpace(msgs[i].Content.PlainText())
		n := len(msgs[i].Content.ImageURLs())
		imgs := fmt.Sprintf("%d image", n)
		if n != 1 {
			imgs += "s"
		}
		switch {
		case n == 0:
			return "You said: " + text
		case text == "":
			return "You sent " + imgs + "."
		default:
			return "You said: " + text + " (with " + imgs + ")"
		}
	}
	return "Hello from the apitest fake gateway."
}

// computeUsage counts words of the prompt (plus a fixed cost per image) and
// one token per delta of the reply, its reasoning deltas included (and
// reported as reasoning_tokens).
func computeUsage(call *chatCall, deltas, reasoning []string) Usage {
	prompt := call.images * tokensPerImage
	for _, m := range call.req.Messages {
		prompt += len(strings.Fields(m.Content.PlainText()))
	}
	completion := len(deltas) + len(reasoning)
	u := Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	if len(reasoning) > 0 {
		u.CompletionTokensDetails = &TokensDetails{ReasoningTokens: len(reasoning)}
	}
	return u
}
