package transcript

import (
	"strings"

	"parley/ui/mdstream"

	"parley/api"
	"parley/conversation"
	"parley/termsafe"
	"parley/ui/cells"
)

// item is one message as the transcript shows it. Its lines come in four
// parts so that a streaming reply only replaces its body's tail: head (the
// blank separator and the label line), think (the reply's reasoning,
// thinking.go), body (the text) and foot (chips, badges, notes, the error
// and its hint).
type item struct {
	// msg is the message it shows, shared with whoever gave it
	// (conversation.PathMessages): never changed through this pointer; a
	// change of the message replaces it.
	msg *conversation.Message
	// d is what drawing it made: nil until it is first prepared or
	// rendered, and again once a rendering far from the window is dropped
	// (evictFar). Most of a long session's messages are never drawn, and
	// hold nothing but the message and their place.
	d    *drawing
	live *live // the reply in flight, nil otherwise
	// ver counts changes of text, so that a job for an older text is
	// dropped (see jobs.go).
	ver int
	// codes is how many code blocks it shows, base the number of those
	// before it that its rendering labels from (codes.go).
	codes, base int
	// seen is the switch that last put it on the path or found its id
	// there (switch.go).
	seen int
	// pending: its body is a stand-in (the last lines, or the text plain)
	// until a job renders the message (see jobs.go). counted says codes is
	// known (until then it is 0 in the transcript's numbering). Together,
	// so that an item takes 64 bytes.
	pending, counted bool
}

// drawing is what an item's drawing made: its safe text and reasoning,
// and its lines in four parts so that a streaming reply only replaces its
// body's tail: head (the blank separator and the label line), think (the
// reply's reasoning, thinking.go), body (the text) and foot (chips,
// badges, notes, the error and its hint).
type drawing struct {
	// text is the message text made safe (sanitised; for replies also
	// stripped of dangerous character references), computed once, when
	// first needed (prepare): a long conversation's messages far from the
	// window are never read.
	text string
	// reason is a finished reply's reasoning made safe, as shown (see
	// safeReasoning).
	reason     string
	reasonMore int // bytes of reasoning past maxShownReasoning
	// prepared: text and reason are made (prepare).
	prepared bool

	head, think, body, foot []string
	// thinkGen is the thinking block's thinkGen the think lines were made for
	// (the fold and the key named in them).
	thinkGen int
	// w and gen say what the lines were rendered for; rendered is false
	// until the first rendering. A rendering for another width or style
	// generation is stale: its height serves as an estimate until the item
	// is rendered again.
	w, gen   int
	rendered bool
	// What the head and the foot were drawn with besides the message, so
	// that an item a branch switch takes back knows whether they must be
	// drawn again (switch.go): the cursor's mark, the retry hint.
	selMark, retry bool
}

// draw returns its drawing, made empty when it has none.
func (it *item) draw() *drawing {
	if it.d == nil {
		it.d = &drawing{}
	}
	return it.d
}

func (it *item) id() int { return it.msg.ID }

// prepare makes the safe text and reasoning of it, once.
func (it *item) prepare() {
	if it.d != nil && it.d.prepared {
		return
	}
	it.setText(it.msg)
}

// setText takes the text and reasoning of m, made safe.
func (it *item) setText(m *conversation.Message) {
	d := it.draw()
	d.text = safeText(m)
	it.setReason(m)
	d.prepared = true
}

// safe is its text made safe, as prepare makes it, without keeping it
// when it was not made yet: counting the code blocks of a long session
// reads every message once and draws few of them.
func (it *item) safe() string {
	if it.d != nil && it.d.prepared {
		return it.d.text
	}
	return safeText(it.msg)
}

// rendered reports whether it has lines (of whatever width and style).
func (it *item) rendered() bool { return it.d != nil && it.d.rendered }

// undraw drops its drawing: its lines, and its safe text and reasoning,
// which are made again when it is drawn again.
func (it *item) undraw() { it.d = nil }

func (it *item) isUser() bool { return it.msg.Role == api.RoleUser }

// done reports whether the message is a reply that finished normally.
func (it *item) done() bool { return it.msg.State == conversation.StateDone }

func (it *item) height() int {
	if it.d == nil {
		return 0
	}
	return len(it.d.head) + len(it.d.think) + len(it.d.body) + len(it.d.foot)
}

// line returns the k-th line of the rendering.
func (it *item) line(k int) string {
	if k < len(it.d.head) {
		return it.d.head[k]
	}
	k -= len(it.d.head)
	if k < len(it.d.think) {
		return it.d.think[k]
	}
	k -= len(it.d.think)
	if k < len(it.d.body) {
		return it.d.body[k]
	}
	return it.d.foot[k-len(it.d.body)]
}

// live is the state of a reply while it streams. Deltas are made safe as
// they arrive (a sequence or character reference split across two deltas
// is caught by the MarkdownStream), appended to the incremental Markdown
// document and marked dirty; the rendering happens at most once per frame
// in Tick.
type live struct {
	san termsafe.MarkdownStream
	raw strings.Builder // the text as received, to compare with the final message
	// safe is the sanitised text so far: what the document holds, kept to
	// start a new document when the width or style changes mid-stream.
	safe strings.Builder
	doc  *mdstream.Doc
	// parts lays the text out for a wcwidth terminal on its way into doc
	// (see canvas.lay).
	parts cells.PartsStream
	dirty bool
	// answered: the answer has begun (a character other than a space),
	// which folds the reasoning.
	answered bool
	// think is the reasoning streamed so far (nil until some arrives).
	think *thinkLive
	// wantJob: the document has more to render than a frame allows (see
	// mdstream.Doc.Frame); the next job renders it.
	wantJob bool

	// The last Markdown lines fitted into body: mdStart[k] is the index in
	// body where md[k]'s fitted lines start, so a tick refits only from the
	// first line that changed.
	md      []string
	mdStart []int
}

// changed reports whether the reply's lines are out of date: its text or
// its reasoning changed since the last frame.
func (l *live) changed() bool {
	return l.dirty || l.think != nil && l.think.dirty
}

// write takes the next raw delta and returns its safe part (possibly empty:
// an incomplete UTF-8 sequence or character reference is held back).
func (l *live) write(delta string) string {
	l.raw.WriteString(delta)
	s := l.san.Write(delta)
	l.safe.WriteString(s)
	return s
}

// flush returns whatever was held back, safe, at the end of the stream.
func (l *live) flush() string {
	s := l.san.Flush()
	l.safe.WriteString(s)
	return s
}

// safeText makes a message's text safe to show: a reply for the Markdown
// renderer (which would decode "&#27;" into an ESC), a user message as
// typed (it may hold pasted control characters; "&#27;" stays literal).
func safeText(m *conversation.Message) string {
	if m.Role == api.RoleUser {
		return termsafe.Sanitize(m.Text)
	}
	return shownText(m, termsafe.Markdown(m.Text))
}

// shownText is the safe text of a reply as it is shown: a reply that was
// cut off (interrupted or failed) does not show the last line a streaming
// reply holds back (a table's header and its partial delimiter row, a code
// fence being typed), which glamour would render as a paragraph of pipes
// or backticks; a table cut in a row shows that row as far as it came.
func shownText(m *conversation.Message, safe string) string {
	if m.State != conversation.StateInterrupted && m.State != conversation.StateFailed {
		return safe
	}
	return mdstream.Shown(safe)
}
