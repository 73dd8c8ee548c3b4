package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// This file mirrors the request shapes of the spec. This package does not import
// parley's api package on purpose: it is a second, independent reading of the
// spec, so a misreading in one shows up as a failing test in the other.

// ChatRequest is the typed decode of a POST /v1/chat/completions body.
type ChatRequest struct {
	Model         string         `json:"model"`
	Messages      []Message      `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *StreamOptions `json:"stream_options"`

	// The sampling parameters, nil when absent (Stop is a string or a
	// list on the wire; both decode to a list here).
	Temperature         *float64 `json:"temperature"`
	TopP                *float64 `json:"top_p"`
	MaxTokens           *int     `json:"max_tokens"`
	MaxCompletionTokens *int     `json:"max_completion_tokens"`
	Seed                *int64   `json:"seed"`
	Stop                StopList `json:"stop"`
	PresencePenalty     *float64 `json:"presence_penalty"`
	FrequencyPenalty    *float64 `json:"frequency_penalty"`
	ReasoningEffort     string   `json:"reasoning_effort"`

	Tools []WireTool `json:"tools"`
}

// StopList is the stop member: one string or a list of them.
type StopList []string

// UnmarshalJSON accepts a string, a list of strings, or null.
func (s *StopList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*s = nil
		return nil
	case len(b) > 0 && b[0] == '"':
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*s = StopList{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*s = list
	return nil
}

// StreamOptions is the stream_options object of a chat request.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is one message of a chat request.
type Message struct {
	Role       string     `json:"role"`
	Content    Content    `json:"content"`
	ToolCalls  []WireCall `json:"tool_calls"`
	ToolCallID string     `json:"tool_call_id"`
}

// WireCall is a tool call of an assistant message in a request.
type WireCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// WireTool is one tool a request offers.
type WireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Content is a message body: a JSON string (Text, Parts nil) or an array of
// parts (Parts non-nil, possibly empty).
type Content struct {
	Text  string
	Parts []Part
}

// UnmarshalJSON accepts a string, an array of parts or null.
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*c = Content{}
		return nil
	case b[0] == '"':
		*c = Content{}
		return json.Unmarshal(b, &c.Text)
	case b[0] == '[':
		parts := []Part{}
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		*c = Content{Parts: parts}
		return nil
	default:
		return fmt.Errorf("content must be a string or an array of parts, got %.20s", b)
	}
}

// PlainText is the text of the content; text parts are joined with a space.
func (c Content) PlainText() string {
	if c.Parts == nil {
		return c.Text
	}
	var texts []string
	for _, p := range c.Parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, " ")
}

// ImageURLs lists the url of every image part, in order.
func (c Content) ImageURLs() []string {
	var urls []string
	for _, p := range c.Parts {
		if p.Type == "image_url" && p.ImageURL != nil {
			urls = append(urls, p.ImageURL.URL)
		}
	}
	return urls
}

// Part is one element of an array content.
type Part struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// ImageURL is the image of an image part: an http(s) URL or a data URI.
type ImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// Usage is the token accounting the fake reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// CompletionTokensDetails is sent when the reply had reasoning.
	CompletionTokensDetails *TokensDetails `json:"completion_tokens_details,omitempty"`
}

// TokensDetails breaks completion tokens down, as OpenAI does.
type TokensDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

func (u Usage) clone() Usage {
	if u.CompletionTokensDetails != nil {
		d := *u.CompletionTokensDetails
		u.CompletionTokensDetails = &d
	}
	return u
}

// ImageRequest is the typed decode of a POST /v1/images/generations body.
// Absent fields decode as zero values; use Request.JSON to tell "absent" from
// "zero".
type ImageRequest struct {
	Model          string `json:"model"`
	Prompt         string `json:"prompt"`
	N              int    `json:"n"`
	Size           string `json:"size"`
	ResponseFormat string `json:"response_format"`
}

// EditForm is the parsed multipart/form-data body of an image edit.
type EditForm struct {
	Fields map[string][]string // every non-file field, by name
	Files  []FormFile          // every file part, in order

	// Convenience views of the fields above.
	Model, Prompt, Size, ResponseFormat string
	N                                   int        // 0 when absent or not an integer
	Images                              []FormFile // parts named "image" or "image[]"
	Mask                                *FormFile
}

// FormFile is one file part of a multipart body.
type FormFile struct {
	Field       string // form field name ("image", "image[]", "mask")
	Filename    string
	ContentType string // as declared in the part header
	Data        []byte
}

// Value returns the first value of a non-file field ("" when absent).
func (f *EditForm) Value(name string) string {
	if v := f.Fields[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}
