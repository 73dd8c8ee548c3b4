package chat

import (
	"context"
	"time"

	"parley/api"
	"parley/conversation"
)

// flushBeforeSend bounds the wait for the user's message to be written
// before its request goes out, unless Options.FlushWait says otherwise.
const flushBeforeSend = 2 * time.Second

// Reply is the reply in flight: its turn, the stream's pump, its cancel
// and what the status of a reply shows (when it started, when text first
// came, when the gateway last sent anything, how much arrived).
type Reply struct {
	// ID tells turns apart: late frames of a stopped one are dropped.
	// The replies of one compare share it (Turn.ReplyID tells them
	// apart).
	ID    int
	Turn  *conversation.Turn
	Model string

	ctx    context.Context
	cancel context.CancelFunc
	client *api.Client
	flush  func(context.Context) error
	wait   time.Duration
	pump   *Pump
	// tools are the tools the turn offers; rounds runs its tool loop.
	tools  []api.Tool
	rounds func(context.Context, *Reply, toolSink, time.Duration) error
	// imageDir is where the reply's images are saved ("" keeps them
	// with the conversation only); now is the engine's clock.
	imageDir string
	now      func() time.Time
	// images are those a reply read by Complete brought (its own
	// goroutine gathers them; a pumped reply's are in the pump).
	images []api.ReplyImage
	// Images is what became of the reply's images once it ended.
	Images ReplyImages

	// Started is when the request went; First when text or reasoning
	// first came (zero until then); Last when the gateway last sent
	// anything (data or a keep-alive).
	Started, First, Last time.Time
	// Chars counts the runes received, for the tokens/s estimate.
	Chars int
	// Finish is the finish reason once the gateway sent it (the stream
	// may still bring the usage).
	Finish string
	// Retry is the gateway client's latest retry notice (nil when none).
	Retry *api.RetryNotice
	// Done: the reply ended; Err says how when it did not finish (nil:
	// finished, context.Canceled: stopped, else the failure, masked),
	// Ended when, and Rate its tokens per second (0: unknown).
	Done  bool
	Err   error
	Ended time.Time
	Rate  float64
	// ToolsRefused: the gateway answered the tools with a 400, and the
	// turn was sent again without them.
	ToolsRefused bool
}

// Pump is what the reader gathered and the owner has not taken yet.
func (r *Reply) Pump() *Pump { return r.pump }

// Run sends the request and reads the reply into its pump until the
// stream ends or the reply is stopped, pausing gap before each wait for
// the network (0: never). With a store, the user's message is written
// before the request goes out (a store that fails says so on its own; the
// request goes all the same). It blocks: the goroutine that calls it
// belongs to the reply's context, which Stop and the end of the reply
// cancel.
func (r *Reply) Run(gap time.Duration) {
	r.flushFirst()
	err := r.rounds(r.ctx, r, r.pump, gap)
	r.pump.endWith(err, r.keep(r.pump.takeImages()))
}

// forgetRequest drops the messages of the request r was sent with, once
// its reader has ended (the engine keeps the last replies for their
// figures until the next turn). A retry or a regeneration builds a new
// request from the conversation; kept, a long session's request is a
// slice as long as the session (about 1 MB for 10,000 messages). Only
// after the reader's end: a stopped reply's reader may still read them.
func (r *Reply) forgetRequest() {
	r.Turn.Chat.Messages = nil
	r.Turn.Built.Messages = nil
}

// keep checks and saves the reply's images (keepImages), in the calling
// goroutine.
func (r *Reply) keep(imgs []api.ReplyImage) ReplyImages {
	if len(imgs) == 0 {
		return ReplyImages{}
	}
	return keepImages(r.ctx, imgs, r.imageDir, question(r.Turn.Chat), r.now())
}

// flushFirst waits, within its bound, for the store to write what it
// holds (the user's message) before the request goes out.
func (r *Reply) flushFirst() {
	if r.flush == nil {
		return
	}
	fctx, cancel := context.WithTimeout(r.ctx, r.wait)
	defer cancel()
	_ = r.flush(fctx)
}
