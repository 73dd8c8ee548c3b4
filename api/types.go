package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
)

// Roles used in chat messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Content part types.
const (
	PartText     = "text"
	PartImageURL = "image_url"
)

// ChatRequest is the body of POST /v1/chat/completions.
type ChatRequest struct {
	Model         string         `json:"model"`
	Messages      []Message      `json:"messages"`
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *StreamOptions `json:"stream_options,omitempty"`
	// Modalities asks a model that makes images in its replies for them
	// (["image","text"]); nil leaves it out.
	Modalities []string `json:"modalities,omitempty"`
	// Params are sent beside the messages; only what is set is sent.
	Params
	// Tools are the tools the model may call; none is sent when empty.
	Tools []Tool `json:"tools,omitempty"`
	// MaxTokensField is the name MaxTokens is sent under: "" or
	// "max_tokens", or MaxCompletionTokens for the models that take that
	// (Capabilities.MaxTokensField).
	MaxTokensField string `json:"-"`
	// ParamSources says where each parameter came from and how to clear
	// it (MergeParams), so a gateway's refusal of one can say so. Never
	// sent.
	ParamSources []ParamSetting `json:"-"`
}

// MarshalJSON writes the request with max_tokens under MaxTokensField: the
// bytes a request sends (chatBody), in one buffer of their size.
func (r ChatRequest) MarshalJSON() ([]byte, error) {
	head, tail, err := chatEnvelope(r)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, chatBodySize(head, tail, r.Messages))
	b := newChatBody(head, tail, r.Messages)
	for b.fill() {
		out = append(out, b.buf...)
	}
	return out, nil
}

// chatEnvelopeJSON is r encoded by reflection, with max_tokens under
// MaxTokensField; chatEnvelope takes the fields around the messages from
// it.
func chatEnvelopeJSON(r ChatRequest) ([]byte, error) {
	type plain ChatRequest // without MarshalJSON
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
	return json.Marshal(w)
}

// StreamOptions asks a streaming reply to report token usage in its final chunk.
// The spec requires it to be omitted for models that do not support it.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is one entry of a conversation. Content is either plain text or a
// list of parts (text and images together).
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
	// ToolCalls are the tools an assistant message called (its content may
	// then be empty, sent as null).
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// TextMessage returns a message whose content is a plain string.
func TextMessage(role, text string) Message {
	return Message{Role: role, Content: Content{Text: text}}
}

// Content is a message body: a string when Parts is nil, otherwise an array of
// parts. On the wire the two forms are distinguished by JSON type.
type Content struct {
	Text  string
	Parts []Part
}

// PlainText returns the text of the content, joining text parts with blank lines.
func (c Content) PlainText() string {
	if c.Parts == nil {
		return c.Text
	}
	var b bytes.Buffer
	for _, p := range c.Parts {
		if p.Type != PartText {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// MarshalJSON writes a string or an array of parts.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Parts != nil {
		return json.Marshal(c.Parts)
	}
	return json.Marshal(c.Text)
}

// UnmarshalJSON accepts a string, an array of parts, or null (an empty message).
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		*c = Content{}
		return nil
	case b[0] == '"':
		c.Parts = nil
		return json.Unmarshal(b, &c.Text)
	case b[0] == '[':
		var parts []Part
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		*c = Content{Parts: parts}
		return nil
	default:
		return fmt.Errorf("message content must be a string or an array of parts, got %.20s", b)
	}
}

// Part is one element of an array content: a text part or an image part.
type Part struct {
	Type     string    `json:"type"`
	Text     string    `json:"-"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// TextPart returns a text part.
func TextPart(s string) Part { return Part{Type: PartText, Text: s} }

// ImagePart returns an image part for a public URL or a data URI.
func ImagePart(url string) Part { return Part{Type: PartImageURL, ImageURL: &ImageURL{URL: url}} }

// MarshalJSON writes "text" for text parts (even when empty) and leaves it out
// of image parts, as the spec shapes them.
func (p Part) MarshalJSON() ([]byte, error) {
	if p.Type == PartText {
		return json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{p.Type, p.Text})
	}
	return json.Marshal(struct {
		Type     string    `json:"type"`
		ImageURL *ImageURL `json:"image_url,omitempty"`
	}{p.Type, p.ImageURL})
}

// UnmarshalJSON reads either variant.
func (p *Part) UnmarshalJSON(b []byte) error {
	var w struct {
		Type     string    `json:"type"`
		Text     string    `json:"text"`
		ImageURL *ImageURL `json:"image_url"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Part{Type: w.Type, Text: w.Text, ImageURL: w.ImageURL}
	return nil
}

// ImageURL is the image of an image part: a public http(s) URL or a data URI
// "data:<mime>;base64,<data>".
type ImageURL struct {
	URL string `json:"url"`
}

// Usage is the token accounting a gateway reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// CompletionTokensDetails breaks the completion down; reasoning models
	// report their thinking's tokens in it (nil: not reported).
	CompletionTokensDetails *TokensDetails `json:"completion_tokens_details,omitempty"`
}

// TokensDetails is usage.completion_tokens_details.
type TokensDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

// ReasoningTokens is completion_tokens_details.reasoning_tokens, 0 when
// the gateway did not report it.
func (u *Usage) ReasoningTokens() int {
	if u == nil || u.CompletionTokensDetails == nil {
		return 0
	}
	return u.CompletionTokensDetails.ReasoningTokens
}

// Clone copies u with its details (nil for nil).
func (u *Usage) Clone() *Usage {
	if u == nil {
		return nil
	}
	c := *u
	if u.CompletionTokensDetails != nil {
		d := *u.CompletionTokensDetails
		c.CompletionTokensDetails = &d
	}
	return &c
}

// ChatResponse is the non-streaming reply. Only choices[0].message.content is
// promised by the spec; the rest is read when present.
type ChatResponse struct {
	ID      string       `json:"id,omitempty"`
	Object  string       `json:"object,omitempty"`
	Model   string       `json:"model,omitempty"`
	Choices []ChatChoice `json:"choices"`
	Usage   *Usage       `json:"usage,omitempty"`
}

// ChatChoice is one choice of a non-streaming reply.
type ChatChoice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason,omitempty"`
	// Reasoning is the model's thinking, apart from the answer in
	// Message: message.reasoning_content (DeepSeek, vLLM, llama.cpp),
	// message.reasoning (OpenRouter), or a <think>...</think> that opened
	// the content (which Chat takes out of Message). Never sent.
	Reasoning string `json:"-"`
	// Images is message.images as the gateway sent it (see ReplyImage).
	Images json.RawMessage `json:"-"`
}

// UnmarshalJSON reads the choice with the reasoning gateways put beside
// the message's content.
func (c *ChatChoice) UnmarshalJSON(b []byte) error {
	type plain ChatChoice // without this method
	var w struct {
		plain
		Message struct {
			Message
			ReasoningContent string          `json:"reasoning_content"`
			Reasoning        string          `json:"reasoning"`
			Images           json.RawMessage `json:"images"`
		} `json:"message"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*c = ChatChoice(w.plain)
	c.Message = w.Message.Message
	// A gateway moving from one name to the other may send both.
	c.Reasoning = cmp.Or(w.Message.ReasoningContent, w.Message.Reasoning)
	c.Images = w.Message.Images
	return nil
}

// separateThinking takes a <think>...</think> that opens a plain-text
// content out into Reasoning, after the reasoning the fields carried.
func (c *ChatChoice) separateThinking() {
	if c.Message.Content.Parts != nil {
		return
	}
	var t thinkSplitter
	r1, a1 := t.write(c.Message.Content.Text)
	r2, a2 := t.flush()
	if r := r1 + r2; r != "" {
		if c.Reasoning != "" {
			c.Reasoning += "\n\n"
		}
		c.Reasoning += r
	}
	c.Message.Content.Text = a1 + a2
}

// Text returns choices[0].message.content as text ("" when there is no choice).
func (r *ChatResponse) Text() string {
	if r == nil || len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].Message.Content.PlainText()
}

// Reasoning returns the reasoning of choices[0] ("" when there is none).
func (r *ChatResponse) Reasoning() string {
	if r == nil || len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].Reasoning
}

// ChatChunk is one server-sent event of a streamed reply.
type ChatChunk struct {
	ID      string        `json:"id,omitempty"`
	Object  string        `json:"object,omitempty"`
	Model   string        `json:"model,omitempty"`
	Choices []ChunkChoice `json:"choices"`
	Usage   *Usage        `json:"usage,omitempty"`
}

// ChunkChoice is one choice of a chunk. Delta may be missing, and
// FinishReason is null (nil) until the choice ends.
type ChunkChoice struct {
	Index        int     `json:"index"`
	Delta        *Delta  `json:"delta,omitempty"`
	FinishReason *string `json:"finish_reason"`
}

// Delta is the incremental part of a chunk choice. Reasoning models send
// their thinking in reasoning_content (DeepSeek, vLLM, llama.cpp) or
// reasoning (OpenRouter, recent vLLM), apart from the content.
type Delta struct {
	Role             string          `json:"role,omitempty"`
	Content          string          `json:"content,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	Reasoning        string          `json:"reasoning,omitempty"`
	ToolCalls        []ToolCallDelta `json:"tool_calls,omitempty"`
	// Images are the images the model makes with its reply (see
	// ReplyImage), read as raw JSON so an unexpected shape costs the
	// images, never the stream.
	Images json.RawMessage `json:"images,omitempty"`
}

// ImageRequest is the body of POST /v1/images/generations. Zero values are
// left out: n, size and response_format are sent only where the model takes them.
type ImageRequest struct {
	Model          string `json:"model"`
	Prompt         string `json:"prompt"`
	N              int    `json:"n,omitempty"`
	Size           string `json:"size,omitempty"`
	ResponseFormat string `json:"response_format,omitempty"`
}

// ImageResponse is the reply of image generation and editing.
type ImageResponse struct {
	Created int64       `json:"created,omitempty"`
	Data    []ImageData `json:"data"`
}

// ImageData is one generated image: Base64 bytes, or a URL for gateways that
// answer with one.
type ImageData struct {
	B64JSON       string `json:"b64_json,omitempty"`
	URL           string `json:"url,omitempty"`
	RevisedPrompt string `json:"revised_prompt,omitempty"`
}
