package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// Chat sends a non-streamed chat completion and returns the whole reply,
// the model's reasoning apart from the answer (ChatChoice.Reasoning).
// Stream and StreamOptions are cleared: they only apply to ChatStream. A
// reply whose text passes MaxReplyBytes comes back cut to it together
// with a *ReplyTooLargeError (the response is nil only when nothing of
// the text could be read).
func (c *Client) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	req.Stream = false
	req.StreamOptions = nil
	r, err := c.chatRequest(req)
	if err != nil {
		return nil, err
	}
	rctx, cancel := c.withReplyDeadline(ctx)
	defer cancel(nil)
	data, over, err := c.roundTripBody(rctx, r, replyBodyLimit(c.maxReply))
	if err != nil {
		return nil, c.replyTimedOut(rctx, err)
	}
	reply, tooLarge, ok := capReply(data, over, c.maxReply)
	switch {
	case tooLarge != nil && !tooLarge.Kept:
		return nil, tooLarge
	case !ok:
		return nil, c.notAChatReply(data, req.Model)
	}
	for i := range reply.Choices {
		maskContent(&reply.Choices[i].Message.Content, c.key)
		reasoning := Content{Text: reply.Choices[i].Reasoning}
		maskContent(&reasoning, c.key)
		reply.Choices[i].Reasoning = reasoning.Text
	}
	if tooLarge != nil {
		return &reply, tooLarge
	}
	return &reply, nil
}

// notAChatReply explains a 2xx body that holds no chat reply: an error
// object (some gateways send one with status 200) or something else.
func (c *Client) notAChatReply(data []byte, model string) error {
	if eb, ok := parseJSONError(bytes.TrimSpace(data)); ok {
		e := &APIError{StatusCode: 200, Status: "200 OK"}
		c.fill(e, eb)
		c.annotate(e, model)
		return e
	}
	var reply ChatResponse
	if err := json.Unmarshal(data, &reply); err != nil {
		return fmt.Errorf("the gateway's chat reply is not valid JSON (%w): check the base URL %s", err, c.baseStr)
	}
	return fmt.Errorf("the gateway's chat reply has no choices: check the base URL %s and the model %q", c.baseStr, model)
}

// maskContent masks the key in a whole reply's text, should it echo it.
func maskContent(content *Content, key string) {
	m := newReplyMask(key)
	if !m.active() {
		return
	}
	content.Text = m.write(content.Text) + m.flush()
	for i := range content.Parts {
		content.Parts[i].Text = m.write(content.Parts[i].Text) + m.flush()
	}
}

// chatRequest is the POST of req to /chat/completions, asking for an event
// stream when req.Stream is set and for one JSON reply otherwise.
func (c *Client) chatRequest(req ChatRequest) (*apiRequest, error) {
	head, tail, err := chatEnvelope(req)
	if err != nil {
		return nil, fmt.Errorf("encoding the chat request: %w", err)
	}
	accept := "application/json"
	if req.Stream {
		accept = "text/event-stream"
	}
	return &apiRequest{
		method:       "POST",
		url:          c.endpoint("/chat/completions"),
		chat:         &chatSource{head: head, tail: tail, msgs: req.Messages, size: chatBodySize(head, tail, req.Messages)},
		contentType:  "application/json",
		accept:       accept,
		credentials:  true,
		model:        req.Model,
		stream:       req.Stream,
		params:       req.Params,
		paramSources: req.ParamSources,
		// max_tokens goes under this name (see ChatRequest.MarshalJSON).
		maxTokensField: req.MaxTokensField,
	}, nil
}
