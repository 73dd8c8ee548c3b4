package chat

import (
	"context"
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"parley/api"
	"parley/conversation"
)

// ErrBusy refuses a turn while another is in flight.
var ErrBusy = errors.New("a reply is still streaming")

// ErrNoClient refuses a turn whose model's client is not built yet: the
// owner builds it (Clients.Get, off its goroutine) and tries again.
var ErrNoClient = errors.New("the gateway client is not ready yet")

// Options are what an engine is made with.
type Options struct {
	// Clients builds the gateway clients (nil: no gateway configured).
	Clients *Clients
	// Now is the engine's clock (nil: time.Now); tests pass a fake one.
	Now func() time.Time
	// Flush writes what the store has not written yet, before a request
	// goes out (nil: no store).
	Flush func(context.Context) error
	// FlushWait bounds that wait (0: flushBeforeSend).
	FlushWait time.Duration
	// Mask hides secrets in a failure's text before it is kept in the
	// conversation (nil: kept as the error says).
	Mask func(string) string
	// SystemPrompt and Role are what a new conversation starts with (the
	// run's --system, else its role's, else the config's; its --role).
	SystemPrompt, Role string
	// SystemOverride, when set, replaces a reopened session's own system
	// prompt (--system says this run's, a reopened session's included).
	SystemOverride string
	// Model is the model of the first turn; Catalog is what parley knows
	// of the models (the config's, and the gateway's list as cached).
	Model   string
	Catalog *api.Catalog
	// MaxHistory is max_history_messages (0: every message is sent);
	// ParamLayers are the layers of parameters for conv's next reply
	// from model, lowest first (nil: none).
	MaxHistory  int
	ParamLayers func(model string, conv *conversation.Conversation) []api.ParamLayer
	// Tools configure the tool loop; the zero value offers no tools.
	Tools ToolOptions
	// ImageDir is where the images a model sends with its reply are
	// saved (image_dir; ask's --save-dir); "" keeps them with the
	// conversation only.
	ImageDir string
}

// Engine runs one chat's turns: see the package comment.
type Engine struct {
	base      context.Context
	opts      Options
	conv      *conversation.Conversation
	listeners []conversation.Listener

	models models
	// withoutImages names the model told it cannot see the images of
	// earlier messages: its next turn goes without them.
	withoutImages string

	// replies are the replies in flight, in the order they started: one,
	// or a compare's (siblings of one question, sharing one ID). group is
	// every reply of the last turn, in flight or ended: a compare's
	// columns.
	replies []*Reply
	group   []*Reply
	images  *ImageRun
	nextID  int
	last    Last
	waiting Wait
	gate    *toolGate
	// refusedTold: a refusal of tools waits to be told (ToolsRefusedNow).
	refusedTold bool
}

// Last is what the last finished reply left for the status: its usage,
// its rate, and how many earlier messages its request left out.
type Last struct {
	Usage *api.Usage
	// Rate is tokens per second (0: unknown).
	Rate float64
	// Trimmed counts the messages max_history_messages left out of the
	// request.
	Trimmed int
}

// New is an engine over a new, empty conversation (Fresh); base is the context every
// reply and image run derives from.
func New(base context.Context, o Options) *Engine {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.FlushWait <= 0 {
		o.FlushWait = flushBeforeSend
	}
	if o.Clients == nil {
		o.Clients = NewClients(nil)
	}
	e := &Engine{base: base, opts: o, models: models{current: o.Model, catalog: o.Catalog}, gate: &toolGate{allow: append([]string(nil), o.Tools.Allow...)}}
	e.conv = e.Fresh()
	return e
}

// Conv is the conversation the engine runs.
func (e *Engine) Conv() *conversation.Conversation { return e.conv }

// Clients is the pool of gateway clients.
func (e *Engine) Clients() *Clients { return e.opts.Clients }

// SetClients replaces the pool (the setup screen chose another gateway).
func (e *Engine) SetClients(c *Clients) { e.opts.Clients = c }

// SetFlush sets the store's flush (nil: no store).
func (e *Engine) SetFlush(f func(context.Context) error) { e.opts.Flush = f }

// Listen adds a listener of the conversation and of every conversation
// after it (Replace): the list lives in the engine, not in one
// conversation.
func (e *Engine) Listen(l conversation.Listener) {
	e.listeners = append(e.listeners, l)
	e.conv.Listen(l)
}

// ConversationOptions are the options of a conversation the engine will
// run: every listener hears it, and it keeps the engine's clock.
func (e *Engine) ConversationOptions() conversation.Options {
	ls := append([]conversation.Listener(nil), e.listeners...)
	return conversation.Options{Listeners: ls, Now: e.opts.Now}
}

// Fresh is a new, empty conversation with the run's system prompt and
// role; Replace runs it.
func (e *Engine) Fresh() *conversation.Conversation {
	o := e.ConversationOptions()
	o.SystemPrompt = e.opts.SystemPrompt
	c := conversation.New(o)
	if e.opts.Role != "" {
		c.SetRole(e.opts.Role)
	}
	return c
}

// Restore is the conversation of a stored session, id, rebuilt from
// snap (SystemOverride, when set, replaces the session's system prompt).
// The conversation takes snap's messages (conversation.RestoreTaking): a
// session just read is not copied whole; the caller must not use or
// change snap.Messages afterwards.
func (e *Engine) Restore(id string, snap conversation.Snapshot) *conversation.Conversation {
	o := e.ConversationOptions()
	o.ID = id
	if e.opts.SystemOverride != "" {
		snap.SystemPrompt = e.opts.SystemOverride
	}
	return conversation.RestoreTaking(o, snap)
}

// Replace runs another conversation (a new one, a session opened): the
// turn in flight is stopped first, and the last reply's figures are
// forgotten.
func (e *Engine) Replace(c *conversation.Conversation) {
	e.Stop()
	e.StopImages()
	e.conv = c
	e.last = Last{}
	e.waiting = WaitNone
	e.withoutImages = ""
}

// Reply is the reply in flight (nil when none): the first of a compare's
// still in flight. Every reply of one compare has the same ID.
func (e *Engine) Reply() *Reply {
	if len(e.replies) == 0 {
		return nil
	}
	return e.replies[0]
}

// Replies are the replies in flight, in the order they started.
func (e *Engine) Replies() []*Reply { return append([]*Reply(nil), e.replies...) }

// Group is every reply of the last turn, in flight or ended, in the order
// they started: one, or a compare's, one per model.
func (e *Engine) Group() []*Reply { return append([]*Reply(nil), e.group...) }

// Busy reports a turn in flight: a reply or an image run.
func (e *Engine) Busy() bool { return len(e.replies) > 0 || e.images != nil }

// Last is what the last finished reply left.
func (e *Engine) Last() Last { return e.last }

// Begin checks the turn and starts it: with in, a new user message (or
// the edit of one), without, the last user message answered again. The
// conversation then holds the user message and an empty reply, and the
// reply is ready to Run (or Complete). A refusal changes nothing.
func (e *Engine) Begin(in *conversation.UserInput, o conversation.TurnOptions) (*Reply, error) {
	return e.begin(o, func() (*conversation.Turn, error) { return e.conv.Begin(in, o) })
}

// Regenerate asks the model of o for another reply to the message the
// reply replyID answers; the new reply is an alternative of the old one.
func (e *Engine) Regenerate(replyID int, o conversation.TurnOptions) (*Reply, error) {
	return e.begin(o, func() (*conversation.Turn, error) { return e.conv.Regenerate(replyID, o) })
}

func (e *Engine) begin(o conversation.TurnOptions, start func() (*conversation.Turn, error)) (*Reply, error) {
	if err := e.canBegin(o.Model); err != nil {
		return nil, err
	}
	client, _ := e.opts.Clients.Ready(o.Model)
	t, err := start()
	if err != nil {
		var ve *conversation.VisionError
		if errors.As(err, &ve) && ve.Earlier {
			// The refusal says so; sent again, the turn goes without them.
			e.withoutImages = o.Model
		}
		return nil, err
	}
	e.withoutImages = ""
	e.waiting = WaitNone
	e.nextID++
	r := e.newReply(e.nextID, t, o.Model, client)
	caps := api.Capabilities{}
	if o.Catalog != nil {
		caps = o.Catalog.Lookup(o.Model).Caps
	}
	r.tools = e.toolsFor(o.Model, caps)
	e.replies, e.group = []*Reply{r}, []*Reply{r}
	e.last.Trimmed = t.Built.Trimmed
	return r, nil
}

// canBegin refuses a turn now: one in flight, no gateway, a model whose
// client is not built yet.
func (e *Engine) canBegin(models ...string) error {
	if e.Busy() {
		return ErrBusy
	}
	if !e.opts.Clients.Configured() {
		return ErrNoGateway
	}
	for _, m := range models {
		if _, ok := e.opts.Clients.Ready(m); !ok {
			return ErrNoClient
		}
	}
	return nil
}

// newReply is the reply of turn t, asking model through client, with its
// own context, pump and figures.
func (e *Engine) newReply(id int, t *conversation.Turn, model string, client *api.Client) *Reply {
	now := e.opts.Now()
	ctx, cancel := context.WithCancel(e.base)
	return &Reply{ID: id, Turn: t, Model: model, ctx: ctx, cancel: cancel, client: client, flush: e.opts.Flush, wait: e.opts.FlushWait, pump: &Pump{}, Started: now, Last: now, rounds: e.rounds, imageDir: e.opts.ImageDir, now: e.opts.Now}
}

// Drain applies what the replies in flight sent since the previous call
// and closes each whose stream is over. It reports the end once the last
// reply in flight ended: the turn is over (for a compare, the first
// reply's end).
func (e *Engine) Drain() (Ended, bool) {
	ends := e.DrainEach()
	if len(ends) == 0 || len(e.replies) > 0 {
		return Ended{}, false
	}
	for _, x := range ends {
		if x.Reply == e.group[0] {
			return x, true
		}
	}
	return ends[len(ends)-1], true
}

// DrainEach applies what the replies in flight sent since the previous
// call and closes each whose stream is over, reporting those ends.
func (e *Engine) DrainEach() []Ended {
	var ends []Ended
	now := e.opts.Now()
	for _, r := range e.Replies() {
		b := r.pump.Take()
		e.apply(r, b, now)
		if !b.Ended {
			continue
		}
		err := b.Err
		if err != nil && errors.Is(err, context.Canceled) {
			// Cancelled by no one here: the context of the program ended.
			err = errors.New("the request was cancelled")
		}
		ends = append(ends, e.end(r, err, now))
		r.forgetRequest()
	}
	return ends
}

// apply hands one batch to the conversation and the reply's figures.
func (e *Engine) apply(r *Reply, b Batch, now time.Time) {
	if b.Text != "" || b.Reasoning != "" || b.Alive {
		r.Last = now
	}
	r.Retry = b.Retry
	if b.Finish != "" {
		r.Finish = b.Finish
	}
	if b.Text != "" || b.Reasoning != "" {
		if r.First.IsZero() {
			r.First = now
		}
		r.Chars += utf8.RuneCountInString(b.Reasoning) + utf8.RuneCountInString(b.Text)
	}
	e.conv.ReceiveReasoning(r.Turn, b.Reasoning)
	text := b.Text
	from := 0
	for _, ev := range b.Tools {
		at := min(max(ev.At, from), len(text))
		e.conv.Receive(r.Turn, text[from:at], nil, "")
		from = at
		e.applyTool(r, ev)
	}
	e.conv.Receive(r.Turn, text[from:], b.Usage, b.Finish)
	if b.Images != nil {
		r.Images = *b.Images
		e.conv.AddReplyImages(r.Turn, r.Images.Kept)
	}
}

// applyTool puts one event of the tool loop into the conversation.
func (e *Engine) applyTool(r *Reply, ev ToolEvent) {
	switch {
	case ev.Refused:
		r.ToolsRefused = true
		e.refusedTold = true
	case ev.Calls != nil:
		_, _ = e.conv.AddToolCalls(r.Turn, ev.Calls)
	case ev.Result != nil:
		_ = e.conv.SetToolResult(r.Turn, ev.Step, ev.Index, *ev.Result)
	}
}

// Asking is the tool call of the reply in flight that waits for the
// user's answer, nil when none does.
func (e *Engine) Asking() *ToolAsk {
	r := e.Reply()
	if r == nil {
		return nil
	}
	return r.pump.Asking()
}

// Answer answers the call waiting (Asking); false when none waits.
func (e *Engine) Answer(a Approval) bool {
	r := e.Reply()
	if r == nil {
		return false
	}
	return r.pump.Answer(a)
}

// ToolsRefusedNow reports, once, that the gateway refused the tools of a
// turn (the turn was sent again without them, and the model gets none
// from now on).
func (e *Engine) ToolsRefusedNow() bool {
	told := e.refusedTold
	e.refusedTold = false
	return told
}

// ToolsOffered reports whether the engine has tools to offer at all.
func (e *Engine) ToolsOffered() bool { return e.opts.Tools.Box != nil }

// Stop ends every reply in flight (esc, ctrl+c, quit, leaving the
// conversation), keeping what arrived, the text still in the pump
// included, as interrupted. It reports whether a reply was stopped.
func (e *Engine) Stop() bool {
	stopped := false
	for _, r := range e.Replies() {
		stopped = e.StopReply(r.Turn.ReplyID) || stopped
	}
	return stopped
}

// StopReply ends one reply in flight, the one whose message is replyID
// (a compare's column), as Stop does; the others go on. It reports
// whether that reply was in flight.
func (e *Engine) StopReply(replyID int) bool {
	for _, r := range e.replies {
		if r.Turn.ReplyID != replyID {
			continue
		}
		r.cancel()
		b := r.pump.Take()
		b.Finish = "" // a stopped reply did not finish, whatever it said
		e.apply(r, b, e.opts.Now())
		e.end(r, context.Canceled, e.opts.Now())
		return true
	}
	return false
}

// Ended is how a reply ended.
type Ended struct {
	Reply *Reply
	// Err is nil for a reply that finished, context.Canceled for one
	// stopped, the failure otherwise.
	Err error
}

// end closes r's turn (err nil: done), forgets the reply (its context is
// cancelled, so its goroutine ends) and keeps its usage and rate, in the
// reply (Done, Err, Ended, Rate) and as the engine's Last.
func (e *Engine) end(r *Reply, err error, now time.Time) Ended {
	r.cancel()
	e.replies = slices.DeleteFunc(e.replies, func(x *Reply) bool { return x == r })
	closeErr := err
	if err != nil && !errors.Is(err, context.Canceled) && e.opts.Mask != nil {
		closeErr = errors.New(e.opts.Mask(err.Error()))
	}
	_ = e.conv.Close(r.Turn, closeErr)
	r.Done, r.Err, r.Ended = true, closeErr, now
	r.Rate = rate(r, now)
	e.last.Usage = r.Turn.Usage()
	e.last.Rate = r.Rate
	return Ended{Reply: r, Err: err}
}

// rate is the reply's tokens per second, from its usage when the gateway
// reported one, else estimated from its characters (0: too short to say).
func rate(r *Reply, now time.Time) float64 {
	if r.First.IsZero() {
		return 0
	}
	secs := now.Sub(r.First).Seconds()
	if secs <= 0.05 {
		return 0
	}
	tokens := float64(r.Chars) / 4
	if u := r.Turn.Usage(); u != nil && u.CompletionTokens > 0 {
		tokens = float64(u.CompletionTokens)
	}
	return tokens / secs
}
