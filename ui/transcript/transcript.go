// Package transcript is the scrollable transcript of the chat screen: a
// virtual list of the conversation's messages and the item renderers that
// draw them.
//
// The list (List: list.go, cache.go, scroll.go, view.go, tree.go) owns
// the items in path order and their heights (a Fenwick tree, heights.go),
// the window of exactly the screen's height and its scrolling, the
// message cursor, and the cache of rendered items: the messages in and
// near the window are rendered once per (width, style generation) into
// cached lines, the others keep estimated heights until they come near,
// and renderings far from the window are dropped. View joins the window
// from the cached lines. The window follows the bottom until the user
// scrolls up; then it stays on the text the user is reading, however much
// arrives below, and shows a "new text below" badge until the user comes
// back to the bottom. The list does not know what an item looks like: it
// asks its painter to render one, to estimate one's height, and whether
// one is fresh.
//
// The renderers (render.go) are that painter. Each kind of message has
// its own: a user message with its attachments (userView, user.go), a
// reply with its thinking block and its Markdown (replyView, reply.go; the
// thinking block is a renderer of its own, thinking.go), an image turn
// with its pictures (imageView, images.go). A kind draws the label, the
// body and the foot of its items and estimates their height; the
// renderers put them together with the thinking block and record on each
// item what its lines were drawn with (width, style, fold, the cursor's
// mark, the retry hint), which is what makes a cached rendering fresh.
// All of them draw on one canvas (canvas.go): the width, the styles, the
// prose width, the Markdown engine, and text laid out as the terminal
// measures it (SetGraphemes, graphemes.go). A reply in flight is
// re-rendered at most once per frame and only from its unfinished tail
// (live.go, via mdstream); a render that would take longer than a frame
// runs as a background job (jobs.go). Code blocks are numbered through
// the whole transcript (CodeBlock, codes.go). A reply's reasoning shows
// apart from its answer, as plain text: its last lines while it thinks,
// then folded to one line, all of it when unfolded (SetThinkingOpen).
// The retry hint shows only under the last message, when a retry can help
// (RetryHelps, retry.go).
//
// Transcript ties them together, and the root model owns it: its event
// methods (Append, AppendDelta, AppendReasoning, Update, Remove, Reset,
// SwitchPath) mirror the changes of the conversation, its setters the
// settings (size, theme, prose width, fold, pictures); Tick runs once per
// frame while anything is pending (see NeedsTick) and returns the command
// of a background render when one is due (the root runs it and hands its
// RenderedMsg to HandleMsg). The root scrolls, moves the message cursor
// and draws through Transcript.List.
//
// Everything that came from the gateway (reply text, error messages, model
// names) and the user's own text pass through termsafe before they reach a
// line, and every line is filtered once more so that only colour sequences
// reach the screen.
package transcript

import (
	"time"

	"charm.land/glamour/v2/ansi"

	"parley/ui/mdstream"
	"parley/ui/uictx"
)

// lazyBudget bounds the rendering Tick does for messages near the window
// but not on screen (after a resize, a theme change or a scroll), so a
// frame stays short.
const lazyBudget = 4 * time.Millisecond

// Transcript is the transcript component: the list of the conversation's
// messages (List), the item renderers that draw them (renderers), and what
// they share: the canvas, the pictures, the numbers of the code blocks and
// the background renders. It follows the conversation's changes and the
// settings; the root scrolls, moves the cursor and draws through List. The
// zero value is not usable; make one with New.
type Transcript struct {
	ctx *uictx.Context // read-only; nil in tests of internals

	c     canvas
	think thinking
	pics  pictures
	r     renderers
	codes numbering
	jobs  jobs
	list  List

	// The items of the paths branch switches replaced, for a switch back
	// (switch.go), and the count of switches.
	shelf    shelf
	switches int
}

// DefaultMaxProseWidth is the widest a line of text gets by default: at
// 200 columns a paragraph the full width is hard to read.
const DefaultMaxProseWidth = 100

// settings is what the transcript needs from the UI context.
type settings struct {
	look      look
	glamour   ansi.StyleConfig
	retryKey  string
	thinkKey  string
	bottomKey string
}

func newTranscript(s settings) *Transcript {
	t := &Transcript{}
	t.c = canvas{now: time.Now, maxProse: DefaultMaxProseWidth, syncBudget: mdstream.FrameBudget}
	t.c.setWidth(1)
	t.think = thinking{canvas: &t.c}
	t.pics = pictures{canvas: &t.c}
	t.list = newList(&t.r, time.Now)
	t.codes = numbering{list: &t.list}
	t.jobs = jobs{list: &t.list, reply: &t.r.reply, c: &t.c, owner: t}
	t.r = renderers{
		canvas: &t.c, think: &t.think, list: &t.list, codes: &t.codes,
		user:   userView{canvas: &t.c, pics: &t.pics},
		reply:  replyView{canvas: &t.c, think: &t.think, jobs: &t.jobs, codes: &t.codes, pics: &t.pics},
		images: imageView{canvas: &t.c, pics: &t.pics},
	}
	t.apply(s)
	return t
}

func (t *Transcript) apply(s settings) {
	t.c.look, t.c.glamour, t.c.retryKey = s.look, s.glamour, s.retryKey
	t.list.badge, t.list.bottomKey = s.look.indicator, s.bottomKey
	t.think.apply(s)
}

// List is the list of messages: the root scrolls it, moves the message
// cursor on it and draws its window.
func (t *Transcript) List() *List { return &t.list }

// SetMaxProseWidth sets the widest a line of text (a reply's Markdown, a
// user's message) gets, in columns; 0 or less means the full width. The
// default is DefaultMaxProseWidth. Messages are laid out again (the
// window at once, what is near it a few per Tick, the rest when it comes
// near).
func (t *Transcript) SetMaxProseWidth(cols int) {
	cols = max(cols, 0)
	if cols == t.c.maxProse {
		return
	}
	t.c.maxProse = cols
	t.relayout()
}

// MaxProseWidth returns the width set by SetMaxProseWidth.
func (t *Transcript) MaxProseWidth() int { return t.c.maxProse }

// relayout makes every rendering stale (a new style or prose width) and
// cancels the background render: the window is rendered again at once,
// what is near it a few per Tick, the rest when it comes near.
func (t *Transcript) relayout() {
	t.c.gen++
	t.jobs.drop()
	t.list.invalidate()
	t.list.ensureWindow()
	t.list.startLazy()
}

// NeedsTick reports whether Tick has work: a streaming reply changed since
// the last frame, or messages off screen still wait to be rendered after a
// resize or theme change. The root keeps its frame ticker running while
// this (or its own streaming) is true.
func (t *Transcript) NeedsTick() bool {
	if t.list.lazy {
		return true
	}
	for _, it := range t.r.reply.streams {
		if it.live.changed() {
			return true
		}
	}
	if j := t.jobs.inflight; j != nil {
		// The result comes as a message; tick only to notice a job whose
		// command did not start, or never ended.
		return !j.running.Load() || j.lost(t.c.now())
	}
	return t.jobs.wanted()
}

// SetSize sets the size of the transcript's area. A new width makes every
// cached rendering stale: the messages on screen are rendered at once,
// starting from the anchor (usually the bottom), so the first frame at the
// new width is complete; the others keep an estimated height and are
// rendered a few per Tick when near the window. The anchor keeps the text
// the user was reading on screen.
func (t *Transcript) SetSize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	if w == t.list.w && h == t.list.h {
		return
	}
	widthChanged := w != t.list.w
	t.list.setSize(w, h)
	if widthChanged {
		t.c.setWidth(w)
		t.jobs.drop()
		t.list.invalidate()
	}
	t.list.ensureWindow()
	t.list.startLazy()
}

func (t *Transcript) restyle(s settings) {
	t.apply(s)
	// Pictures lie on the theme's background: make them again.
	t.pics.pics = nil
	t.relayout()
}
