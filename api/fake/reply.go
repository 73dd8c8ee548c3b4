package fake

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Error shapes for Reply.ErrorShape: how a mid-stream error is written.
const (
	ErrorShapeOpenAI     = "openai"     // data: {"error":{"message","type","param","code"}}; no [DONE] follows
	ErrorShapeOpenRouter = "openrouter" // a chunk with "error":{"code":502,...} and finish_reason "error"; [DONE] follows
	ErrorShapeVLLM       = "vllm"       // data: {"object":"error","message",...,"code":400}; [DONE] follows
)

// How Reply.Reasoning is sent (Reply.ReasoningAs), the three ways real
// gateways send a reasoning model's thinking.
const (
	ReasoningContent = "reasoning_content" // delta.reasoning_content (DeepSeek, vLLM, llama.cpp); message.reasoning_content
	ReasoningField   = "reasoning"         // delta.reasoning (OpenRouter, recent vLLM); message.reasoning
	ReasoningThink   = "think"             // <think>...</think> before the answer in the content (Ollama, Qwen, R1 distills)
)

// DefaultDeltaRunes is how many runes each content delta carries when a
// reply's text is split automatically.
const DefaultDeltaRunes = 8

// Reply scripts how the fake answers one request. The zero Reply answers
// like an unscripted server. Fields that do not apply to an endpoint are
// ignored (chat fields on image endpoints and the other way round; Quirks,
// Interval, stalls and in-stream errors on non-streaming chat).
//
// A reply with Body, Drop or a Status of 300 or more is "explicit": it is
// written as is, after Delay, without looking at the request (no auth, no
// validation), the way a proxy or a failing gateway answers. Every other
// reply is a successful answer and the request must pass validation first.
type Reply struct {
	// Path limits the reply to requests for one endpoint, relative to /v1
	// ("/chat/completions", "/images/generations", "/images/edits",
	// "/models"). "" matches any endpoint.
	Path string

	Status        int               // response status; default 200
	Header        map[string]string // extra response headers (Retry-After, retry-after-ms, ...)
	Body          string            // written verbatim with Status; see the type comment
	NoContentType bool              // send no Content-Type header at all
	Delay         time.Duration     // wait before the response headers (ends early if the client goes away)
	Drop          bool              // close the connection without any response (after Delay)

	// Chat reply text. Text is split into deltas of DeltaRunes runes
	// (default DefaultDeltaRunes); Deltas, when non-nil, are used as they
	// are (an empty non-nil slice streams no content at all). With neither,
	// the fake answers "You said: <last user text>".
	Text         string
	Deltas       []string
	DeltaRunes   int
	Interval     time.Duration // pause before each content (and reasoning) chunk of a stream
	FinishReason string        // default "stop"
	Usage        *Usage        // replaces the computed usage

	// Reasoning is the model's thinking, sent before the answer the way
	// ReasoningAs says (default ReasoningContent), cut like Text into
	// deltas of DeltaRunes runes; with ReasoningThink it goes into the
	// content as "<think>" + Reasoning + "</think>\n\n" before the text.
	// The computed usage counts its deltas as reasoning_tokens
	// (completion_tokens_details). Faults count content deltas only.
	Reasoning   string
	ReasoningAs string

	Quirks Quirks // how the stream is framed (streaming only)

	// RawSSE replaces the generated stream body of a (valid) chat request;
	// it is written verbatim as text/event-stream.
	RawSSE string
	// WriteSize > 0 writes and flushes every response body in pieces of at
	// most WriteSize bytes, cut at arbitrary byte offsets (also inside a
	// multi-byte UTF-8 character or a line ending).
	WriteSize int

	// Faults, counted in content deltas. N larger than the number of deltas
	// acts after the last delta. Order at the same point: stall, error, cut.
	CutAfterDeltas   int           // > 0: drop the connection after N deltas (no final chunk, no [DONE]); non-streaming: half the body, then drop
	StallAfterDeltas int           // with Stall or alone: send nothing after N deltas (0 = right after the role chunk)
	Stall            time.Duration // how long the stall lasts; 0 with StallAfterDeltas > 0 = until the client goes away
	ErrorAfterDeltas int           // > 0, or ErrorShape set: write an in-stream error after N deltas and end the stream
	ErrorShape       string        // ErrorShapeOpenAI (default), ErrorShapeOpenRouter or ErrorShapeVLLM
	ErrorMessage     string        // message of in-stream errors and of explicit error statuses
	ErrorType        string        // "type" of the error; a per-shape/status default when empty
	ErrorCode        string        // "code" of the error; numeric for openrouter/vllm shapes

	// ToolCalls are tool calls the reply makes after its text (none by
	// default, and then no fallback text either): streamed as a first
	// piece naming the call and its arguments cut like Text into pieces of
	// DeltaRunes runes, each call's pieces after the one before; the finish
	// reason defaults to "tool_calls".
	ToolCalls []ToolCall

	// Image endpoints: these bytes are returned instead of generated PNGs
	// (non-nil empty = an empty data array), as b64_json or, with AsURL, as
	// URLs the fake serves under RootURL()/files/.
	Images [][]byte
	AsURL  bool

	// ReplyImages are image files a chat reply carries besides its text,
	// as data URIs in delta.images (a chunk of their own after the
	// content) or message.images, the way OpenRouter sends the images of
	// an image-output chat model.
	ReplyImages [][]byte
}

// Quirks are the ways real gateways bend the stream lifecycle of the spec.
// The zero value follows the spec to the letter.
type Quirks struct {
	NoRoleChunk         bool // no first chunk with delta.role
	RoleWithFirstText   bool // role and the first text in the same chunk
	FinishOnLastContent bool // finish_reason on the last content chunk, no empty final chunk
	EmptyFinishReason   bool // "finish_reason":"" instead of null on unfinished chunks
	NoFinishReason      bool // no final chunk and no finish_reason key anywhere
	PromptFilterFirst   bool // a first chunk with empty choices carrying prompt_filter_results (Azure)
	ChoiceWithoutDelta  bool // an extra chunk whose choice has no delta before the content, and a final chunk without delta
	// UsageChunkEmptyChoices sends the usage-only chunk ("choices":[]) even
	// when the request did not ask for usage. When it did ask, that chunk is
	// sent anyway: it is the normal shape.
	UsageChunkEmptyChoices bool
	UsageInFinalChunk      bool // usage (when asked for) rides on the final chunk instead of a chunk of its own
	NoDone                 bool // no data: [DONE]

	CommentsBefore int    // comment lines before the first event
	CommentEvery   int    // a comment line before every event after each K events
	CommentText    string // default ": keep-alive"; a leading ": " is added when missing

	LineEnding        string // "\n" (default), "\r\n" or "\r"
	BOM               bool   // a UTF-8 byte order mark before everything
	NoSpaceAfterData  bool   // "data:{...}" instead of "data: {...}"
	MultiLineData     bool   // every JSON event split over several data: lines (after each top-level comma)
	EventIDRetryLines bool   // "retry: 3000" before the first event, "id: N" and "event: message" on every event
}

func (q Quirks) eol() string {
	if q.LineEnding == "" {
		return "\n"
	}
	return q.LineEnding
}

func (q Quirks) comment() string {
	switch {
	case q.CommentText == "":
		return ": keep-alive"
	case strings.HasPrefix(q.CommentText, ":"):
		return q.CommentText
	default:
		return ": " + q.CommentText
	}
}

// check rejects replies that cannot mean anything, so a typo in a test fails
// loudly at Enqueue instead of producing a confusing stream.
func (r Reply) check() error {
	switch r.Quirks.LineEnding {
	case "", "\n", "\r\n", "\r":
	default:
		return fmt.Errorf("fake: Quirks.LineEnding %q is not one of \\n, \\r\\n, \\r", r.Quirks.LineEnding)
	}
	switch r.ReasoningAs {
	case "", ReasoningContent, ReasoningField, ReasoningThink:
	default:
		return fmt.Errorf("fake: Reply.ReasoningAs %q is not one of %q, %q, %q", r.ReasoningAs, ReasoningContent, ReasoningField, ReasoningThink)
	}
	switch r.ErrorShape {
	case "", ErrorShapeOpenAI, ErrorShapeOpenRouter, ErrorShapeVLLM:
	default:
		return fmt.Errorf("fake: Reply.ErrorShape %q is not one of %q, %q, %q",
			r.ErrorShape, ErrorShapeOpenAI, ErrorShapeOpenRouter, ErrorShapeVLLM)
	}
	if strings.ContainsAny(r.Quirks.CommentText, "\r\n") {
		return fmt.Errorf("fake: Quirks.CommentText must be a single line")
	}
	if r.Status != 0 && (r.Status < 100 || r.Status > 999) {
		return fmt.Errorf("fake: Reply.Status %d is not an HTTP status", r.Status)
	}
	return nil
}

// clone copies everything a test could still mutate after Enqueue.
func (r Reply) clone() Reply {
	r.Header = maps.Clone(r.Header)
	if r.Deltas != nil {
		r.Deltas = slices.Clone(r.Deltas)
	}
	if r.Usage != nil {
		u := r.Usage.clone()
		r.Usage = &u
	}
	if r.Images != nil {
		imgs := make([][]byte, len(r.Images))
		for i, b := range r.Images {
			imgs[i] = slices.Clone(b)
		}
		r.Images = imgs
	}
	return r
}

// explicit reports whether the reply is written without looking at the request.
func (r *Reply) explicit() bool {
	return r.Body != "" || r.Drop || r.Status >= 300
}

// matches reports whether the reply may answer a request for path (the path
// relative to /v1, e.g. "/chat/completions").
func (r *Reply) matches(path string) bool {
	if r.Path == "" {
		return true
	}
	return strings.TrimPrefix(r.Path, "/v1") == path
}

// deltas returns the content deltas of a chat reply; fallback is the text
// used when the reply scripts none. With ReasoningThink the reasoning
// comes first, in its tags.
func (r *Reply) deltas(fallback string) []string {
	think := ""
	if r.Reasoning != "" && r.ReasoningAs == ReasoningThink {
		think = thinkOpen + r.Reasoning + thinkClose + "\n\n"
	}
	if r.Deltas != nil {
		if think == "" {
			return r.Deltas
		}
		return append(splitRunes(think, r.deltaRunes()), r.Deltas...)
	}
	text := r.Text
	if text == "" && len(r.ToolCalls) == 0 {
		text = fallback
	}
	return splitRunes(think+text, r.deltaRunes())
}

// Tags of reasoning sent in the content.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

func (r *Reply) deltaRunes() int {
	if r.DeltaRunes <= 0 {
		return DefaultDeltaRunes
	}
	return r.DeltaRunes
}

// reasoningDeltas are the deltas of the reasoning sent in fields of its
// own (none with ReasoningThink: it is in the content).
func (r *Reply) reasoningDeltas() []string {
	if r.Reasoning == "" || r.ReasoningAs == ReasoningThink {
		return nil
	}
	return splitRunes(r.Reasoning, r.deltaRunes())
}

// reasoningField is the JSON member the reasoning goes in.
func (r *Reply) reasoningField() string {
	if r.ReasoningAs == ReasoningField {
		return ReasoningField
	}
	return ReasoningContent
}

func (r *Reply) finishReason() string {
	if r.FinishReason == "" && len(r.ToolCalls) > 0 {
		return "tool_calls"
	}
	if r.FinishReason == "" {
		return "stop"
	}
	return r.FinishReason
}

func (r *Reply) errorShape() string {
	if r.ErrorShape == "" {
		return ErrorShapeOpenAI
	}
	return r.ErrorShape
}

func (r *Reply) hasStreamError() bool { return r.ErrorAfterDeltas > 0 || r.ErrorShape != "" }
func (r *Reply) hasStall() bool       { return r.StallAfterDeltas > 0 || r.Stall > 0 }

// splitRunes cuts s into pieces of n runes (the last may be shorter).
func splitRunes(s string, n int) []string {
	out := []string{}
	rs := []rune(s)
	for len(rs) > 0 {
		k := min(n, len(rs))
		out = append(out, string(rs[:k]))
		rs = rs[k:]
	}
	return out
}

// ToolCall is one tool call a Reply makes.
type ToolCall struct {
	ID, Name, Arguments string
}
