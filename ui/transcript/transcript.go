// Package transcript is the scrollable transcript of the chat screen: the
// messages in and near the window rendered once per (width, style
// generation) into cached lines (the others keep estimated heights until
// they come near, see cache.go), the reply in flight re-rendered at most
// once per frame and only from its unfinished tail, and a window of exactly
// the screen's height joined from the cached lines on View. Code blocks are
// numbered through the whole transcript (CodeBlock, codes.go), and text is
// laid out as the terminal measures it (SetGraphemes, graphemes.go).
//
// It is a plain struct that the root model owns and drives from Update:
// the event methods (Append, AppendDelta, AppendReasoning, Update, Remove,
// Reset) mirror the changes of the conversation, Tick runs once per frame while anything is
// pending (see NeedsTick) and returns the command of a background render
// when one is due (the root runs it and hands its RenderedMsg to
// HandleMsg: no render on the Update goroutine takes more than a frame,
// see jobs.go), and the scroll methods move the window. Text is laid out
// at most MaxProseWidth wide. The
// window follows the bottom until the user scrolls up; then it stays on the
// text the user is reading, however much arrives below, and shows a "new
// text below" badge until the user comes back to the bottom.
//
// A reply's reasoning shows apart from its answer, as plain text: its last
// lines while it thinks, then folded to one line, all of it when unfolded
// (SetThinkingOpen, thinking.go). The retry hint shows only under the last
// message, when a retry can help (RetryHelps, retry.go).
//
// Everything that came from the gateway (reply text, error messages, model
// names) and the user's own text pass through termsafe before they reach a
// line, and every line is filtered once more so that only colour sequences
// reach the screen.
package transcript

import (
	"time"

	"charm.land/glamour/v2/ansi"

	"parley/termsafe"
	"parley/ui/mdstream"

	"parley/ui/uictx"
)

// lazyBudget bounds the rendering Tick does for messages near the window
// but not on screen (after a resize, a theme change or a scroll), so a
// frame stays short.
const lazyBudget = 4 * time.Millisecond

// Transcript is the transcript component. The zero value is not usable;
// make one with New.
type Transcript struct {
	ctx  *uictx.Context // read-only; nil in tests of internals
	w, h int
	// gen counts restyles: renderings are cached per (width, gen). It is
	// the transcript's own count, not the context's StyleGen, so that a
	// Restyle for a key map change (the retry hint) renders again too.
	gen int

	look     look
	glamour  ansi.StyleConfig
	retryKey string // "ctrl+r": the hint under a failed reply
	// Reasoning (thinking.go): unfolded or not (a change counts in
	// thinkGen, the items' thinkGen says which their lines show), the key
	// named on its label ("ctrl+t", from the key map), and the thinking
	// style's sequences and the gutter made from them.
	thinkShown  bool
	thinkKey    string
	thinkGen    int
	thinkSGR    [2]string
	thinkPrefix string
	// selected is the message the message cursor is on (0: none).
	selected  int
	bottomKey string // "end": shown in the new-text badge
	blank     string // one empty line of the current width

	eng              *engine // Markdown renderer for (engW, engGen)
	engW, engGen     int
	maxProse         int           // the widest lines of text (0: the full width)
	syncBudget       time.Duration // a render's budget on the Update goroutine
	naive            bool          // re-render the whole reply every frame (benchmark baseline)
	graphemes        bool          // the terminal measures by grapheme cluster (graphemes.go)
	now              func() time.Time
	lazyFrom, lazyTo int  // the lazy renderer goes up from lazyFrom and down from lazyTo
	lazy             bool // some item may be stale

	items   []*item
	index   map[int]int // message id -> position in items
	hs      heights
	codes   heights // code blocks per item (codes.go)
	counted int     // items[:counted] have their code blocks counted
	counter mdstream.CodeCounter
	streams []*item // the items with a reply in flight (usually one)

	// The items of the paths branch switches replaced, for a switch back
	// (switch.go), and the count of switches.
	shelf    shelf
	switches int

	// Scrolling. While follow is set the window shows the bottom. Otherwise
	// its top line is line anchorOff of the message anchorID, so text
	// arriving below (or estimates above being replaced) does not move what
	// the user reads.
	follow    bool
	anchorID  int
	anchorOff int
	newBelow  bool // text arrived below the window since the user scrolled up

	// Pictures of the images users sent (pictures.go): whether they are
	// shown, the ones made so far by box, and the ones asked for since the
	// root last took them.
	picturesOn bool
	pics       map[PictureKey]pictureState
	wantPics   []PictureRequest

	// Background renders (jobs.go).
	jobSeq   int
	inflight *job
	nextJob  time.Time // no job starts before this (half a core at most)
	pendingN int       // items waiting for a job
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
	t := &Transcript{
		now:      time.Now,
		index:    map[int]int{},
		follow:   true,
		w:        1,
		h:        1,
		maxProse: DefaultMaxProseWidth,

		syncBudget: mdstream.FrameBudget,
	}
	t.apply(s)
	t.blank = blankLine(t.w)
	return t
}

func (t *Transcript) apply(s settings) {
	t.look, t.glamour = s.look, s.glamour
	t.retryKey, t.bottomKey = s.retryKey, s.bottomKey
	t.thinkKey = oneLine(termsafe.Sanitize(s.thinkKey))
	t.thinkSGR[0], t.thinkSGR[1] = styleParts(s.look.thinking.Render)
	t.thinkPrefix = replyIndent + t.thinkSGR[0] + thinkGutter + t.thinkSGR[1] + " "
}

// engine returns the Markdown renderer for the current width and style.
func (t *Transcript) engine() *engine {
	if t.eng == nil || t.engW != t.w || t.engGen != t.gen {
		t.eng = newEngine(t.mdWidth(), t.glamour, t.syncBudget)
		t.engW, t.engGen = t.w, t.gen
	}
	return t.eng
}

// mdWidth is the width replies are laid out at: the room right of the
// reply indent, at most the prose width. Code and tables share it: a
// terminal has no sideways scrolling, and a column that changes width from
// block to block reads worse than a wrapped line of code.
func (t *Transcript) mdWidth() int {
	return t.proseRoom(max(t.w-len(replyIndent), 1))
}

// proseRoom caps a room for text at the prose width.
func (t *Transcript) proseRoom(room int) int {
	if t.maxProse > 0 {
		return min(room, t.maxProse)
	}
	return room
}

// SetMaxProseWidth sets the widest a line of text (a reply's Markdown, a
// user's message) gets, in columns; 0 or less means the full width. The
// default is DefaultMaxProseWidth. Messages are laid out again (the
// window at once, what is near it a few per Tick, the rest when it comes
// near).
func (t *Transcript) SetMaxProseWidth(cols int) {
	cols = max(cols, 0)
	if cols == t.maxProse {
		return
	}
	t.maxProse = cols
	t.gen++
	t.dropInflight()
	t.invalidate()
	t.ensureWindow()
	t.startLazy()
}

// MaxProseWidth returns the width set by SetMaxProseWidth.
func (t *Transcript) MaxProseWidth() int { return t.maxProse }

// Len returns the number of messages in the transcript.
func (t *Transcript) Len() int { return len(t.items) }

// Size returns the width and height set by SetSize.
func (t *Transcript) Size() (w, h int) { return t.w, t.h }

// NeedsTick reports whether Tick has work: a streaming reply changed since
// the last frame, or messages off screen still wait to be rendered after a
// resize or theme change. The root keeps its frame ticker running while
// this (or its own streaming) is true.
func (t *Transcript) NeedsTick() bool {
	if t.lazy {
		return true
	}
	for _, it := range t.streams {
		if it.live.changed() {
			return true
		}
	}
	if t.inflight != nil {
		// The result comes as a message; tick only to notice a job whose
		// command did not start, or never ended.
		return !t.inflight.running.Load() || t.inflight.lost(t.now())
	}
	return t.jobWanted()
}

// SetSize sets the size of the transcript's area. A new width makes every
// cached rendering stale: the messages on screen are rendered at once,
// starting from the anchor (usually the bottom), so the first frame at the
// new width is complete; the others keep an estimated height and are
// rendered a few per Tick when near the window. The anchor keeps the text
// the user was reading on screen.
func (t *Transcript) SetSize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	if w == t.w && h == t.h {
		return
	}
	widthChanged := w != t.w
	t.w, t.h = w, h
	if widthChanged {
		t.blank = blankLine(w)
		t.dropInflight()
		t.invalidate()
	}
	t.ensureWindow()
	t.startLazy()
}

func (t *Transcript) restyle(s settings) {
	t.apply(s)
	t.gen++
	t.dropInflight()
	// Pictures lie on the theme's background: make them again.
	t.pics = nil
	t.invalidate()
	t.ensureWindow()
	t.startLazy()
}
