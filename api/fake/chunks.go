package fake

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
)

// Wire shapes of stream events. Field order is fixed so tests can compare
// bytes.

type chunk struct {
	ID                  string               `json:"id"`
	Object              string               `json:"object"`
	Created             int64                `json:"created"`
	Model               string               `json:"model"`
	PromptFilterResults []promptFilterResult `json:"prompt_filter_results,omitempty"`
	Choices             []chunkChoice        `json:"choices"`
	Usage               *Usage               `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int             `json:"index"`
	Delta        *chunkDelta     `json:"delta,omitempty"`
	FinishReason json.RawMessage `json:"finish_reason,omitempty"` // nil: key left out
}

type chunkDelta struct {
	Role             string          `json:"role,omitempty"`
	Content          *string         `json:"content,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	Reasoning        *string         `json:"reasoning,omitempty"`
	ToolCalls        []chunkToolCall `json:"tool_calls,omitempty"`
	Images           []imageEntry    `json:"images,omitempty"`
}

type chunkToolCall struct {
	Index    int               `json:"index"`
	ID       string            `json:"id,omitempty"`
	Type     string            `json:"type,omitempty"`
	Function chunkToolFunction `json:"function"`
}

type chunkToolFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// imageEntry is one image of a reply, as OpenRouter sends the images an
// image-output chat model makes: {"type":"image_url","image_url":{"url":
// "data:image/png;base64,…"}}.
type imageEntry struct {
	Type     string `json:"type"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// imageEntries turns image files into reply entries with data URIs.
func imageEntries(files [][]byte) []imageEntry {
	out := make([]imageEntry, len(files))
	for i, f := range files {
		out[i].Type = "image_url"
		out[i].ImageURL.URL = "data:" + http.DetectContentType(f) + ";base64," + base64.StdEncoding.EncodeToString(f)
	}
	return out
}

// images is a chunk carrying the reply's images in its delta.
func (c *chunker) images(files [][]byte) []byte {
	return marshal(c.base(chunkChoice{Delta: &chunkDelta{Images: imageEntries(files)}, FinishReason: c.unfinished()}))
}

type promptFilterResult struct {
	PromptIndex          int                     `json:"prompt_index"`
	ContentFilterResults map[string]filterResult `json:"content_filter_results"`
}

type filterResult struct {
	Filtered bool   `json:"filtered"`
	Severity string `json:"severity"`
}

// chunker builds the events of one stream.
type chunker struct {
	id      string
	created int64
	model   string
	q       Quirks
}

func (c *chunker) base(choices ...chunkChoice) chunk {
	if choices == nil {
		choices = []chunkChoice{}
	}
	return chunk{ID: c.id, Object: "chat.completion.chunk", Created: c.created, Model: c.model, Choices: choices}
}

// unfinished is finish_reason on a chunk that does not end the choice.
func (c *chunker) unfinished() json.RawMessage {
	switch {
	case c.q.NoFinishReason:
		return nil
	case c.q.EmptyFinishReason:
		return json.RawMessage(`""`)
	default:
		return json.RawMessage(`null`)
	}
}

func finished(reason string) json.RawMessage { return marshal(reason) }

// role is step 1 of the spec: role "assistant", empty content.
func (c *chunker) role() []byte {
	empty := ""
	return marshal(c.base(chunkChoice{Delta: &chunkDelta{Role: "assistant", Content: &empty}, FinishReason: c.unfinished()}))
}

// content is a step-2 chunk; withRole and finish bend it for the quirks.
func (c *chunker) content(text string, withRole bool, finish string, usage *Usage) []byte {
	d := &chunkDelta{Content: &text}
	if withRole {
		d.Role = "assistant"
	}
	fr := c.unfinished()
	if finish != "" {
		fr = finished(finish)
	}
	ch := c.base(chunkChoice{Delta: d, FinishReason: fr})
	ch.Usage = usage
	return marshal(ch)
}

// reasoning is a chunk of reasoning in the field field, no content.
func (c *chunker) reasoning(text, field string) []byte {
	d := &chunkDelta{}
	if field == ReasoningField {
		d.Reasoning = &text
	} else {
		d.ReasoningContent = &text
	}
	return marshal(c.base(chunkChoice{Delta: d, FinishReason: c.unfinished()}))
}

// toolCall is a piece of the tool call at index i: the first names it.
func (c *chunker) toolCall(i int, call ToolCall, args string, first bool) []byte {
	tc := chunkToolCall{Index: i, Function: chunkToolFunction{Arguments: args}}
	if first {
		tc.ID, tc.Type, tc.Function.Name = call.ID, "function", call.Name
	}
	return marshal(c.base(chunkChoice{Delta: &chunkDelta{ToolCalls: []chunkToolCall{tc}}, FinishReason: c.unfinished()}))
}

// final is step 3: an empty delta and the finish reason.
func (c *chunker) final(reason string, usage *Usage) []byte {
	choice := chunkChoice{FinishReason: finished(reason)}
	if !c.q.ChoiceWithoutDelta {
		choice.Delta = &chunkDelta{}
	}
	ch := c.base(choice)
	ch.Usage = usage
	return marshal(ch)
}

// noDelta is a chunk whose only choice has no delta at all.
func (c *chunker) noDelta() []byte {
	return marshal(c.base(chunkChoice{FinishReason: c.unfinished()}))
}

// usage is the usage-only chunk with an empty choices array.
func (c *chunker) usage(u Usage) []byte {
	ch := c.base()
	ch.Usage = &u
	return marshal(ch)
}

// promptFilter is Azure's first chunk: no id, no model, empty choices.
func (c *chunker) promptFilter() []byte {
	safe := filterResult{Severity: "safe"}
	return marshal(struct {
		ID                  string               `json:"id"`
		Object              string               `json:"object"`
		Created             int64                `json:"created"`
		Model               string               `json:"model"`
		PromptFilterResults []promptFilterResult `json:"prompt_filter_results"`
		Choices             []chunkChoice        `json:"choices"`
	}{
		PromptFilterResults: []promptFilterResult{{ContentFilterResults: map[string]filterResult{
			"hate": safe, "self_harm": safe, "sexual": safe, "violence": safe,
		}}},
		Choices: []chunkChoice{},
	})
}

// streamError is the in-stream error event in the reply's shape.
func (c *chunker) streamError(r *Reply) []byte {
	msg := r.ErrorMessage
	switch r.errorShape() {
	case ErrorShapeOpenRouter:
		if msg == "" {
			msg = "Provider returned error"
		}
		empty := ""
		return marshal(struct {
			ID      string        `json:"id"`
			Object  string        `json:"object"`
			Created int64         `json:"created"`
			Model   string        `json:"model"`
			Error   any           `json:"error"`
			Choices []chunkChoice `json:"choices"`
		}{
			ID: c.id, Object: "chat.completion.chunk", Created: c.created, Model: c.model,
			Error: struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}{numericCode(r.ErrorCode, 502), msg},
			Choices: []chunkChoice{{Delta: &chunkDelta{Content: &empty}, FinishReason: finished("error")}},
		})
	case ErrorShapeVLLM:
		if msg == "" {
			msg = "The model failed while generating the reply."
		}
		typ := r.ErrorType
		if typ == "" {
			typ = "BadRequestError"
		}
		return marshal(struct {
			Object  string  `json:"object"`
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    int     `json:"code"`
		}{"error", msg, typ, nil, numericCode(r.ErrorCode, 400)})
	default:
		if msg == "" {
			msg = "The server had an error while processing your request. Sorry about that!"
		}
		typ := r.ErrorType
		if typ == "" {
			typ = "server_error"
		}
		e := &apiError{message: msg, typ: typ, code: r.ErrorCode}
		return e.body()
	}
}

func numericCode(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}
