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
	// EditOf is the id of the user message this one edits (0: a new
	// message at the end of the active path). The edit becomes an
	// alternative of that message (a child of its parent), the active path
	// goes through it, and the earlier path stays as another branch.
	EditOf int
	// Replace edits the last user message of the active path: the same as
	// EditOf with its id (an empty path: a plain new message).
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

// Begin checks the turn and starts it: with user set, the message is
// added first (at the end of the active path, or as an alternative of the
// message it edits); without, the last user message of the active path is
// answered again, the new reply an alternative of the one after it. An
// earlier reply that failed or was interrupted before any text or
// reasoning is replaced (it is noise); any other is kept as an
// alternative. Nothing changes when Begin refuses: a reply in flight, no
// model, images for a model without vision, a partial conversation, an
// edit of a message that is not the user's, a retry of a turn left out.
func (c *Conversation) Begin(user *UserInput, o TurnOptions) (*Turn, error) {
	if err := c.canTurn(o); err != nil {
		return nil, err
	}
	var p turnPlan
	var err error
	if user != nil {
		p, err = c.tree.planInput(user)
	} else {
		p, err = c.tree.planRetry()
	}
	if err != nil {
		return nil, err
	}
	return c.startPlanned(p, user, o)
}

// Regenerate asks for a new reply to the message the reply with the given
// id answers (anywhere in the tree): the new reply is an alternative of
// the old one, and the active path switches to it (what followed the old
// reply stays in the old branch). The old reply is replaced instead when
// it failed or was interrupted before any text or reasoning and nothing
// follows it.
func (c *Conversation) Regenerate(replyID int, o TurnOptions) (*Turn, error) {
	if err := c.canTurn(o); err != nil {
		return nil, err
	}
	n := c.tree.node(replyID)
	switch {
	case n == nil:
		return nil, fmt.Errorf("regenerate: %w", unknownMessage(replyID))
	case n.msg.Role != api.RoleAssistant:
		return nil, ErrNotAReply
	case excludedNode(n):
		return nil, ErrExcludedTurn
	}
	return c.startPlanned(turnPlan{base: n.parent, old: n}, nil, o)
}

// canTurn refuses to start a turn now.
func (c *Conversation) canTurn(o TurnOptions) error {
	if err := c.canBranch(); err != nil {
		return err
	}
	if o.Model == "" {
		return ErrNoModel
	}
	return nil
}

// turnPlan is where a turn goes: its first new message becomes a child of
// base (the root for a first message), beside old (nil: none).
type turnPlan struct {
	base, old *node
	// edit: the user message edits one; editing a first message makes the
	// title again.
	edit bool
}

// planInput places a new user message.
func (t *tree) planInput(user *UserInput) (turnPlan, error) {
	id := user.EditOf
	if id == 0 && user.Replace {
		if i := t.lastIndex(api.RoleUser); i >= 0 {
			id = t.path[i].msg.ID
		}
	}
	if id == 0 {
		return turnPlan{base: t.leaf()}, nil
	}
	x := t.node(id)
	switch {
	case x == nil:
		return turnPlan{}, fmt.Errorf("edit: %w", unknownMessage(id))
	case x.msg.Role != api.RoleUser:
		return turnPlan{}, ErrNotEditable
	}
	return turnPlan{base: x.parent, edit: true}, nil
}

// planRetry places a new reply to the last user message of the path.
func (t *tree) planRetry() (turnPlan, error) {
	i := t.lastIndex(api.RoleUser)
	if i < 0 {
		return turnPlan{}, ErrNothingToRetry
	}
	u := t.path[i]
	if u.excluded {
		return turnPlan{}, ErrExcludedTurn
	}
	p := turnPlan{base: u}
	if i+1 < len(t.path) {
		p.old = t.path[i+1]
	}
	return p, nil
}

// startPlanned checks the plan's request, then changes the tree and
// starts the reply.
func (c *Conversation) startPlanned(p turnPlan, user *UserInput, o TurnOptions) (*Turn, error) {
	ropts := o.requestOptions()
	if err := p.checkVision(user, o, ropts, c.system); err != nil {
		return nil, err
	}
	c.branchUnder(p.base, p.old)
	if user != nil {
		if p.edit && p.base == c.tree.root && !c.titled {
			c.title = "" // AddUser makes it from the edit
		}
		if _, err := c.AddUser(user.Text, user.Attachments); err != nil {
			return nil, err
		}
	}
	built := c.BuildRequest(ropts)
	id, err := c.StartReply(o.Model)
	if err != nil {
		return nil, err
	}
	return newTurn(id, built, o), nil
}

// newTurn is the turn of reply id, asking o's model with built.
func newTurn(id int, built Request, o TurnOptions) *Turn {
	t := &Turn{ReplyID: id, Built: built, Chat: api.ChatRequest{Model: o.Model, Messages: built.Messages, Params: o.Params, ParamSources: o.ParamSources}}
	if o.Catalog != nil {
		t.Chat.StreamOptions = o.Catalog.StreamOptionsFor(o.Model)
		caps := o.Catalog.Lookup(o.Model).Caps
		t.Chat.MaxTokensField = caps.MaxTokensField
		if caps.ImageOutput {
			// OpenRouter's image-output chat models answer with images
			// only when asked to.
			t.Chat.Modalities = []string{"image", "text"}
		}
	}
	return t
}

// requestOptions are what the request of a turn with o is built with.
func (o TurnOptions) requestOptions() RequestOptions {
	return RequestOptions{SystemPrompt: o.SystemPrompt, MaxHistory: o.MaxHistory, WithoutImages: o.WithoutImages}
}

// checkVision builds the request the turn would send, from the path it
// would follow (with the conversation's system prompt), and refuses images
// the model cannot see.
func (p turnPlan) checkVision(user *UserInput, o TurnOptions, ropts RequestOptions, system string) error {
	if o.Catalog == nil {
		return nil
	}
	own := user != nil && hasImages(user.Attachments)
	probe := pathTo(p.base)
	if !own && !pathHasImages(probe) {
		return nil
	}
	cause := o.Catalog.Require(o.Model, api.CapVision)
	if cause == nil {
		return nil
	}
	if own {
		return &VisionError{Model: o.Model, Cause: cause}
	}
	if user != nil {
		// Its own images were checked above: the message stands for its
		// text only.
		probe = append(probe, &node{msg: &Message{Role: api.RoleUser, Text: user.Text}})
	}
	if buildRequest(probe, system, ropts).HasImages {
		return &VisionError{Model: o.Model, Earlier: user != nil || !lastHasImages(probe), Cause: cause}
	}
	return nil
}

// pathHasImages reports whether a message of p holds an image (a text
// file is no image; an image turn's pictures and a reply's are never
// sent).
func pathHasImages(p []*node) bool {
	for _, n := range p {
		if n.msg.Role == api.RoleUser && hasImages(n.msg.Attachments) {
			return true
		}
	}
	return false
}

func lastHasImages(p []*node) bool {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].msg.Role == api.RoleUser {
			return hasImages(p[i].msg.Attachments)
		}
	}
	return false
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
