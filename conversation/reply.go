package conversation

import (
	"context"
	"errors"
	"fmt"

	"parley/api"
	"parley/termsafe"
)

// This file is the one turn path the chat and `parley ask` share: Begin
// checks a turn against the model and starts it, Receive applies what the
// gateway streams, Close ends it. The callers differ only in how they wait
// for the stream (the chat in a command, ask in a loop).

// UserInput is a new user message for Begin.
type UserInput struct {
	Text        string
	Attachments []api.Attachment
	// Replace swaps the last user message (and its reply) for this one.
	Replace bool
}

// TurnOptions say who answers and what the request may carry.
type TurnOptions struct {
	Model   string
	Catalog *api.Catalog
	// SystemPrompt and MaxHistory as in RequestOptions.
	SystemPrompt string
	MaxHistory   int
	// WithoutImages sends earlier turns without their images (the user
	// agreed to that for a model without vision).
	WithoutImages bool
	// Params are sent with the request (api.MergeParams of the config's,
	// the role's, /set and --param), and ParamSources say where each came
	// from, for the hint of a gateway that refuses one. max_tokens goes
	// under the name the catalog gives the model (MaxTokensField).
	Params       api.Params
	ParamSources []api.ParamSetting
}

// Turn is one reply on its way: the request to send and what closes it.
type Turn struct {
	// ReplyID is the id of the reply in the conversation.
	ReplyID int
	// Chat is the request for the gateway.
	Chat api.ChatRequest
	// Built is what BuildRequest made of the conversation (trimmed and
	// dropped messages, images).
	Built  Request
	usage  *api.Usage
	finish string
}

// VisionError refuses a turn whose request carries images the model cannot
// see. Earlier says the images are only in earlier messages, so the turn
// can go without them (TurnOptions.WithoutImages).
type VisionError struct {
	Model   string
	Earlier bool
	// Cause is the catalog's refusal, naming the models that can see.
	Cause error
}

func (e *VisionError) Error() string {
	if e.Earlier {
		return fmt.Sprintf("%s cannot see the images of earlier messages: send again to leave the images out (their text stays), or choose a model with vision", termsafe.Sanitize(e.Model))
	}
	return e.Cause.Error()
}

func (e *VisionError) Unwrap() error { return e.Cause }

// ErrNoModel refuses a turn without a model.
var ErrNoModel = errors.New("no model is chosen: pass --model or set default_model in the config")

// Begin checks the turn and starts it: with user set, the message is added
// first (or replaces the last one). Nothing changes when Begin refuses: a
// reply in flight, no model, or images for a model without vision.
func (c *Conversation) Begin(user *UserInput, o TurnOptions) (*Turn, error) {
	if c.Streaming() != 0 {
		return nil, ErrBusy
	}
	if o.Model == "" {
		return nil, ErrNoModel
	}
	if user == nil {
		if _, ok := c.LastUser(); !ok {
			return nil, ErrNothingToRetry
		}
	}
	ropts := RequestOptions{SystemPrompt: o.SystemPrompt, MaxHistory: o.MaxHistory, WithoutImages: o.WithoutImages}
	if err := c.checkVision(user, o, ropts); err != nil {
		return nil, err
	}
	switch {
	case user != nil && user.Replace:
		if _, err := c.ReplaceLastUser(user.Text, user.Attachments); err != nil {
			return nil, err
		}
	case user != nil:
		if _, err := c.AddUser(user.Text, user.Attachments); err != nil {
			return nil, err
		}
	default:
		if _, err := c.PrepareRetry(); err != nil {
			return nil, err
		}
	}
	built := c.BuildRequest(ropts)
	id, err := c.StartReply(o.Model)
	if err != nil {
		return nil, err
	}
	t := &Turn{ReplyID: id, Built: built, Chat: api.ChatRequest{Model: o.Model, Messages: built.Messages, Params: o.Params, ParamSources: o.ParamSources}}
	if o.Catalog != nil {
		t.Chat.StreamOptions = o.Catalog.StreamOptionsFor(o.Model)
		t.Chat.MaxTokensField = o.Catalog.Lookup(o.Model).Caps.MaxTokensField
	}
	return t, nil
}

// checkVision builds the request the turn would send, on a copy of the
// messages, and refuses images the model cannot see.
func (c *Conversation) checkVision(user *UserInput, o TurnOptions, ropts RequestOptions) error {
	if o.Catalog == nil {
		return nil
	}
	own := user != nil && hasImages(user.Attachments)
	if !own && !c.hasImages() {
		return nil
	}
	cause := o.Catalog.Require(o.Model, api.CapVision)
	if cause == nil {
		return nil
	}
	if own {
		return &VisionError{Model: o.Model, Cause: cause}
	}
	probe := &Conversation{messages: c.messages, system: c.system}
	switch {
	case user != nil && user.Replace:
		if i := probe.lastIndex(api.RoleUser); i >= 0 {
			probe.messages = probe.messages[:i:i]
		}
		probe.messages = append(probe.messages, Message{Role: api.RoleUser, Text: user.Text})
	case user != nil:
		probe.messages = append(probe.messages[:len(probe.messages):len(probe.messages)], Message{Role: api.RoleUser, Text: user.Text})
	default:
		if i := probe.lastIndex(api.RoleUser); i >= 0 {
			probe.messages = probe.messages[: i+1 : i+1]
		}
	}
	if probe.BuildRequest(ropts).HasImages {
		return &VisionError{Model: o.Model, Earlier: user != nil || !probe.lastHasImages(), Cause: cause}
	}
	return nil
}

// hasImages reports whether a message holds an image (a text file is no
// image; an image turn's pictures are never sent).
func (c *Conversation) hasImages() bool {
	for i := range c.messages {
		if c.messages[i].Role != RoleImages && hasImages(c.messages[i].Attachments) {
			return true
		}
	}
	return false
}

func (c *Conversation) lastHasImages() bool {
	i := c.lastIndex(api.RoleUser)
	return i >= 0 && hasImages(c.messages[i].Attachments)
}

// Receive applies one batch of what the gateway streamed: text, usage, the
// finish reason. A batch with reasoning goes through ReceiveReasoning
// first (or ReceiveEvent, which does both).
func (c *Conversation) Receive(t *Turn, text string, usage *api.Usage, finish string) {
	if text != "" {
		c.AppendDelta(t.ReplyID, text)
	}
	if usage != nil {
		t.usage = usage.Clone()
	}
	if finish != "" {
		t.finish = finish
	}
}

// ReceiveReasoning applies reasoning the gateway streamed
// (api.StreamEvent.Reasoning): it grows the reply's Reasoning, never its
// Text.
func (c *Conversation) ReceiveReasoning(t *Turn, reasoning string) {
	if reasoning != "" {
		c.AppendReasoning(t.ReplyID, reasoning)
	}
}

// ReceiveEvent applies one stream event: its reasoning, then its text,
// usage and finish reason.
func (c *Conversation) ReceiveEvent(t *Turn, ev api.StreamEvent) {
	c.ReceiveReasoning(t, ev.Reasoning)
	c.Receive(t, ev.Text, ev.Usage, ev.FinishReason)
}

// Close ends the turn: done when err is nil, interrupted when the caller
// cancelled it, failed (with err's sanitised text) otherwise.
func (c *Conversation) Close(t *Turn, err error) error {
	switch {
	case err == nil:
		return c.Finish(t.ReplyID, t.finish, t.usage)
	case errors.Is(err, context.Canceled):
		return c.Interrupt(t.ReplyID)
	}
	return c.Fail(t.ReplyID, termsafe.Sanitize(err.Error()))
}

// Usage is the usage the gateway reported for the turn (nil: none).
func (t *Turn) Usage() *api.Usage { return t.usage }
