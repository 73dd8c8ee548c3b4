package chat

import (
	"context"
	"errors"
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

	reply   *Reply
	images  *ImageRun
	nextID  int
	last    Last
	waiting Wait
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
	e := &Engine{base: base, opts: o}
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
func (e *Engine) Restore(id string, snap conversation.Snapshot) *conversation.Conversation {
	o := e.ConversationOptions()
	o.ID = id
	if e.opts.SystemOverride != "" {
		snap.SystemPrompt = e.opts.SystemOverride
	}
	return conversation.Restore(o, snap)
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
}

// Reply is the reply in flight (nil when none).
func (e *Engine) Reply() *Reply { return e.reply }

// Busy reports a turn in flight: a reply or an image run.
func (e *Engine) Busy() bool { return e.reply != nil || e.images != nil }

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
	if e.Busy() {
		return nil, ErrBusy
	}
	if !e.opts.Clients.Configured() {
		return nil, ErrNoGateway
	}
	client, ok := e.opts.Clients.Ready(o.Model)
	if !ok {
		return nil, ErrNoClient
	}
	t, err := start()
	if err != nil {
		return nil, err
	}
	e.waiting = WaitNone
	e.nextID++
	now := e.opts.Now()
	ctx, cancel := context.WithCancel(e.base)
	e.reply = &Reply{ID: e.nextID, Turn: t, Model: o.Model, ctx: ctx, cancel: cancel, client: client, flush: e.opts.Flush, wait: e.opts.FlushWait, pump: &Pump{}, Started: now, Last: now, imageDir: e.opts.ImageDir, now: e.opts.Now}
	e.last.Trimmed = t.Built.Trimmed
	return e.reply, nil
}

// Drain applies what the reply in flight sent since the previous call and
// closes the turn when the stream is over: then it reports the end.
func (e *Engine) Drain() (Ended, bool) {
	r := e.reply
	if r == nil {
		return Ended{}, false
	}
	now := e.opts.Now()
	b := r.pump.Take()
	e.apply(r, b, now)
	if !b.Ended {
		return Ended{}, false
	}
	err := b.Err
	if err != nil && errors.Is(err, context.Canceled) {
		// Cancelled by no one here: the context of the program ended.
		err = errors.New("the request was cancelled")
	}
	return e.end(err, now), true
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
	e.conv.Receive(r.Turn, b.Text, b.Usage, b.Finish)
	if b.Images != nil {
		r.Images = *b.Images
		e.conv.AddReplyImages(r.Turn, r.Images.Kept)
	}
}

// Stop ends the reply in flight (esc, ctrl+c, quit, leaving the
// conversation), keeping what arrived, the text still in the pump
// included, as interrupted. It reports whether a reply was stopped.
func (e *Engine) Stop() bool {
	r := e.reply
	if r == nil {
		return false
	}
	r.cancel()
	b := r.pump.Take()
	b.Finish = "" // a stopped reply did not finish, whatever it said
	e.apply(r, b, e.opts.Now())
	e.end(context.Canceled, e.opts.Now())
	return true
}

// Ended is how a reply ended.
type Ended struct {
	Reply *Reply
	// Err is nil for a reply that finished, context.Canceled for one
	// stopped, the failure otherwise.
	Err error
}

// end closes the reply's turn (err nil: done), forgets the reply (its
// context is cancelled, so its goroutine ends) and keeps its usage and
// rate.
func (e *Engine) end(err error, now time.Time) Ended {
	r := e.reply
	r.cancel()
	e.reply = nil
	closeErr := err
	if err != nil && !errors.Is(err, context.Canceled) && e.opts.Mask != nil {
		closeErr = errors.New(e.opts.Mask(err.Error()))
	}
	_ = e.conv.Close(r.Turn, closeErr)
	e.last.Usage = r.Turn.Usage()
	e.last.Rate = rate(r, now)
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
