package transcript

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/conversation"
	"parley/internal/bytesize"
	"parley/termsafe"
	"parley/ui/cells"
)

// A reply's reasoning (issue 17) is shown apart from its answer, between
// its label and its text, as plain text (never Markdown: it is the model
// talking to itself, and every character of it stays). While the reply
// streams and no answer has begun, a "Thinking…" line shows the last
// thinkTail lines of it; once the answer begins, or the reply ended, it
// folds to one line: "▸ Thought for 4.2 s · 380 tokens (ctrl+t shows it)".
// SetThinkingOpen unfolds the reasoning of every reply. Its lines hang on
// a dim ┆ gutter, so that without colour too they are not taken for the
// answer.
const (
	thinkTail    = 4 // lines a streaming reply shows before its answer
	thinkGutter  = "┆"
	thinkPrefixW = len(replyIndent) + 2 // the indent, the gutter and a space
	foldedMark   = "▸ "
	unfoldedMark = "▾ "
	thinkingWord = "Thinking…"
	// maxShownReasoning bounds the reasoning one reply shows, because an
	// unfolded reply is laid out whole on the Update goroutine: 256 KB of
	// prose takes about 3.5 ms, one line of it without a space (which
	// cells.Wrap cuts slowly) about 70 ms (BENCHMARKS.md). It is more than
	// models think (64,000 tokens), far less than the reply cap
	// (api.DefaultMaxReplyBytes). The rest is said, not shown; the store
	// and /export keep it all.
	maxShownReasoning = 256 << 10
)

// thinking renders the thinking block of a reply: its label, folded or
// unfolded, and the lines of its reasoning, finished or still streaming. It
// draws on the transcript's canvas, and keeps what only the block needs:
// whether it is unfolded (a change counts in thinkGen; an item's thinkGen
// says which its lines show), the key named on its label ("ctrl+t", from the
// key map), and the thinking style's sequences and the gutter made from
// them.
type thinking struct {
	*canvas
	thinkShown  bool
	thinkKey    string
	thinkGen    int
	thinkSGR    [2]string
	thinkPrefix string
}

// apply takes the key and the style of the block from s.
func (t *thinking) apply(s settings) {
	t.thinkKey = oneLine(termsafe.Sanitize(s.thinkKey))
	t.thinkSGR[0], t.thinkSGR[1] = styleParts(s.look.thinking.Render)
	t.thinkPrefix = replyIndent + t.thinkSGR[0] + thinkGutter + t.thinkSGR[1] + " "
}

// thinkStale reports whether only the reasoning lines of a rendering are
// stale: they are made again without the rest.
func (t *thinking) thinkStale(it *item) bool {
	return it.rendered() && it.d.w == t.w && it.d.gen == t.gen && it.d.thinkGen != t.thinkGen
}

// thinkLive is the reasoning of a reply in flight. Deltas are made safe
// (and laid out for the terminal) as they arrive and only then wrapped, in
// the next Tick, incrementally (thinkWrap): the cost of a frame is that of
// what arrived, not of the whole reasoning.
type thinkLive struct {
	san   termsafe.Stream
	parts cells.PartsStream
	safe  strings.Builder // sanitised, leading spaces dropped
	laid  strings.Builder // safe as laid out (canvas.lay), tabs as spaces
	any   bool            // a character other than a space arrived
	kept  int             // raw bytes taken (at most maxShownReasoning)
	more  int             // raw bytes past maxShownReasoning, not shown

	start, end time.Time // the first and the last delta, by the transcript's clock
	dirty      bool      // changed since its lines were made

	wrap thinkWrap
	// fitted are the lines of wrap.lines[:fittedN] fitted under the
	// gutter at (fitW, fitGen): an unfolded reasoning fits each final
	// line once.
	fitted                []string
	fittedN               int
	fitW, fitGen, fitRoom int
}

// write takes the next raw delta.
func (th *thinkLive) write(t *thinking, delta string) {
	if room := maxShownReasoning - th.kept; len(delta) > room {
		cut := max(room, 0)
		for cut > 0 && !utf8.RuneStart(delta[cut]) {
			cut--
		}
		th.more += len(delta) - cut
		delta = delta[:cut]
	}
	th.kept += len(delta)
	s := th.san.Write(delta)
	if !th.any {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return
		}
		th.any = true
	}
	th.safe.WriteString(s)
	th.laid.WriteString(t.layThink(th, s))
}

// layThink lays streamed reasoning out for the terminal (see lay) and
// turns tabs into spaces, as wrapPlain does.
func (t *thinking) layThink(th *thinkLive, s string) string {
	if !t.graphemes {
		s = th.parts.Write(s)
	}
	if strings.IndexByte(s, '\t') >= 0 {
		s = strings.ReplaceAll(s, "\t", tabSpaces)
	}
	return s
}

// relay lays the reasoning out again (the terminal's measure changed).
func (t *thinking) relay(th *thinkLive) {
	th.parts = cells.PartsStream{}
	th.laid.Reset()
	th.laid.WriteString(t.layThink(th, th.safe.String()))
	th.wrap.reset(0)
	th.dirty = true
}

// SetThinkingOpen unfolds (true) or folds the reasoning of every reply
// (the key map's toggle_thinking, ctrl+t, and /thinking). The replies
// with reasoning are laid out again (the window at once, what is near it
// a few per Tick, the rest when it comes near); the line the user reads
// stays where it is.
func (t *Transcript) SetThinkingOpen(open bool) {
	if open == t.think.thinkShown {
		return
	}
	t.think.thinkShown = open
	t.rethinkAll()
}

// ThinkingOpen reports what SetThinkingOpen set (false at first).
func (t *Transcript) ThinkingOpen() bool { return t.think.thinkShown }

// rethinkAll makes the reasoning lines of every reply stale: their heights
// become estimates, the anchor's reasoning is made again at once (so the
// reader's line stays put), the window's next, the others lazily.
func (t *Transcript) rethinkAll() {
	l := &t.list
	t.think.thinkGen++
	l.reestimate(func(it *item) bool { return it.hasThink() || it.mayThink() })
	if i, ok := l.anchor(); ok && t.think.thinkStale(l.items[i]) {
		l.render(i)
	}
	l.ensureWindow()
	l.startLazy()
}

// hasThink reports whether the message shows reasoning.
func (it *item) hasThink() bool {
	if len(toolsOf(it)) > 0 {
		return true
	}
	if it.live != nil {
		return it.live.think != nil && it.live.think.any
	}
	return it.d != nil && it.d.reason != ""
}

// safeReasoning is a finished reply's reasoning as shown: sanitised, at
// most maxShownReasoning of it (more says how many bytes are not shown),
// without the blank lines and spaces around it.
func safeReasoning(m *conversation.Message) (shown string, more int) {
	raw := m.Reasoning
	if len(raw) > maxShownReasoning {
		cut := maxShownReasoning
		for cut > 0 && !utf8.RuneStart(raw[cut]) {
			cut--
		}
		raw, more = raw[:cut], len(raw)-cut
	}
	return strings.Trim(termsafe.Sanitize(raw), " \t\n"), more
}

// setReason takes a finished message's reasoning (a reply's only).
func (it *item) setReason(m *conversation.Message) {
	if m.Role != api.RoleAssistant {
		d := it.draw()
		d.reason, d.reasonMore = "", 0
		return
	}
	d := it.draw()
	d.reason, d.reasonMore = safeReasoning(m)
}

// thinkRoom is the width reasoning is wrapped to.
func (t *thinking) thinkRoom() int {
	return t.proseRoom(max(t.w-thinkPrefixW, 1))
}

// mayThink reports whether the message shows reasoning, as far as its
// reasoning as it came tells (for estimates: the safe reasoning is made
// only when needed).
func (it *item) mayThink() bool {
	return it.mayReason() || len(toolsOf(it)) > 0
}

// mayReason is mayThink for the reasoning alone.
func (it *item) mayReason() bool {
	if it.live != nil {
		return it.live.think != nil && it.live.think.any
	}
	return it.msg.Role == api.RoleAssistant && strings.TrimSpace(it.msg.Reasoning) != ""
}

// thinkEstimate is the number of reasoning lines of it without making
// them, from the reasoning as it came.
func (t *thinking) thinkEstimate(it *item) int {
	return t.reasoningEstimate(it) + t.toolEstimate(it)
}

// reasoningEstimate is thinkEstimate without the tool calls.
func (t *thinking) reasoningEstimate(it *item) int {
	if !it.mayReason() {
		return 0
	}
	if l := it.live; l != nil && !t.thinkShown {
		if l.answered {
			return 1
		}
		return 1 + thinkTail
	}
	if !t.thinkShown {
		return 1
	}
	var n, nl int
	more := false
	if l := it.live; l != nil {
		n, more = l.think.laid.Len(), l.think.more > 0
	} else {
		raw := it.msg.Reasoning
		more = len(raw) > maxShownReasoning
		raw = raw[:min(len(raw), maxShownReasoning)]
		n, nl = len(raw), strings.Count(raw, "\n")
	}
	n = 1 + n/t.thinkRoom() + nl + 1
	if more {
		n++
	}
	return n
}

// renderThink appends the reasoning lines of it: none without reasoning;
// the folded line; or the label and the reasoning (its last lines while
// the reply thinks, all of it unfolded).
func (t *thinking) renderThink(it *item, dst []string) []string {
	return t.toolLines(it, t.renderReasoning(it, dst))
}

// renderReasoning is renderThink without the tool calls.
func (t *thinking) renderReasoning(it *item, dst []string) []string {
	it.draw().thinkGen = t.thinkGen
	if l := it.live; l != nil {
		return t.renderLiveThink(it, dst)
	}
	if it.d.reason == "" {
		return dst
	}
	m := it.msg
	dst = t.thinkLabel(dst, t.thoughtLine(m.ThoughtFor(), m.Usage.ReasoningTokens()))
	if !t.thinkShown {
		return dst
	}
	lines := wrapReasoning(t.lay(it.d.reason), t.thinkRoom())
	nl, _ := shown(lines, nil)
	for _, l := range lines[:nl] {
		dst = t.thinkLine(dst, l)
	}
	return t.moreNote(dst, it.d.reasonMore)
}

// renderLiveThink is renderThink for a reply in flight.
func (t *thinking) renderLiveThink(it *item, dst []string) []string {
	l := it.live
	th := l.think
	if th == nil {
		return dst
	}
	th.dirty = false
	if !th.any {
		return dst
	}
	if l.answered && !t.thinkShown {
		return t.thinkLabel(dst, t.thoughtLine(t.liveThought(it), it.msg.Usage.ReasoningTokens()))
	}
	label := unfoldedMark + thinkingWord
	if d := t.now().Sub(t.liveStart(it)); d >= 100*time.Millisecond {
		label += " " + thinkDuration(d)
	}
	if l.answered {
		label = t.thoughtLine(t.liveThought(it), it.msg.Usage.ReasoningTokens())
	} else if t.thinkKey != "" {
		if t.thinkShown {
			label += " (" + t.thinkKey + " hides it)"
		} else {
			label += " (" + t.thinkKey + " shows all of it)"
		}
	}
	dst = t.thinkLabel(dst, label)
	room := t.thinkRoom()
	if th.wrap.room != room {
		th.wrap.reset(room)
	}
	if th.fitW != t.w || th.fitGen != t.gen || th.fitRoom != room || th.fittedN > len(th.wrap.lines) {
		th.fitted, th.fittedN = th.fitted[:0], 0
		th.fitW, th.fitGen, th.fitRoom = t.w, t.gen, room
	}
	th.wrap.grow(th.laid.String())
	nl, no := shown(th.wrap.lines, th.wrap.open)
	if !t.thinkShown {
		// The last lines only: what arrives is what the user watches.
		from := max(nl+no-thinkTail, 0)
		for k := from; k < nl+no; k++ {
			if k < nl {
				dst = t.thinkLine(dst, th.wrap.lines[k])
			} else {
				dst = t.thinkLine(dst, th.wrap.open[k-nl])
			}
		}
		return t.moreNote(dst, th.more)
	}
	// Unfolded: the final lines are fitted once; each is one line (blank
	// ones too, which is how the blank lines at the end are left out).
	for th.fittedN < len(th.wrap.lines) {
		th.fitted = t.thinkLine(th.fitted, th.wrap.lines[th.fittedN])
		th.fittedN++
	}
	keep := len(th.fitted) - (len(th.wrap.lines) - nl)
	dst = append(dst, th.fitted[:keep]...)
	for _, o := range th.wrap.open[:no] {
		dst = t.thinkLine(dst, o)
	}
	return t.moreNote(dst, th.more)
}

// liveStart is when the reasoning of a reply in flight began: the
// conversation's time when an update brought it, else the transcript's.
func (t *thinking) liveStart(it *item) time.Time {
	if !it.msg.ReasoningStart.IsZero() {
		return it.msg.ReasoningStart
	}
	return it.live.think.start
}

// liveThought is how long a reply in flight thought (ThoughtFor).
func (t *thinking) liveThought(it *item) time.Duration {
	start, end := t.liveStart(it), it.live.think.end
	if e := it.msg.ReasoningEnd; !e.IsZero() && e.After(end) {
		end = e
	}
	return max(end.Sub(start), 0)
}

// thoughtLine is the folded (or unfolded) reasoning's label: "▸ Thought
// for 4.2 s · 380 tokens (ctrl+t shows it)". A reasoning that came in one
// piece (a reply that was not streamed) has no duration; tokens show when
// the gateway counted them.
func (t *thinking) thoughtLine(d time.Duration, tokens int) string {
	var b strings.Builder
	if t.thinkShown {
		b.WriteString(unfoldedMark)
	} else {
		b.WriteString(foldedMark)
	}
	if d > 0 {
		b.WriteString("Thought for " + thinkDuration(d))
	} else {
		b.WriteString("Reasoning")
	}
	switch {
	case tokens == 1:
		b.WriteString(" · 1 token")
	case tokens > 1:
		b.WriteString(" · " + strconv.Itoa(tokens) + " tokens")
	}
	if t.thinkKey != "" {
		if t.thinkShown {
			b.WriteString(" (" + t.thinkKey + " hides it)")
		} else {
			b.WriteString(" (" + t.thinkKey + " shows it)")
		}
	}
	return b.String()
}

// thinkDuration says a duration as the export does
// (conversation.ThoughtText).
func thinkDuration(d time.Duration) string { return conversation.ThoughtText(d) }

// thinkLabel appends the reasoning's label line, under the reply indent.
func (t *thinking) thinkLabel(dst []string, text string) []string {
	label := t.look.thinking.Render(text)
	if room := t.w - len(replyIndent); ansi.StringWidth(label) > room {
		label = ansi.Truncate(label, max(room, 1), "…")
	}
	return fitLine(dst, replyIndent, len(replyIndent), label, t.w)
}

// thinkLine appends one wrapped line of reasoning (safe, laid out, at
// most the room wide) under the gutter, in the thinking style. The style's
// sequences were taken apart once (apply), so a line costs a
// concatenation, not a lipgloss render.
func (t *thinking) thinkLine(dst []string, l string) []string {
	room := t.w - thinkPrefixW
	lw := cells.Width(l)
	if room < 1 || lw > room {
		return fitLine(dst, t.thinkPrefix, thinkPrefixW, t.thinkSGR[0]+l+t.thinkSGR[1], t.w)
	}
	if l == "" {
		return append(dst, finishLine(t.thinkPrefix, "", room))
	}
	return append(dst, finishLine(t.thinkPrefix, t.thinkSGR[0]+cells.Detach(l)+t.thinkSGR[1], room-lw))
}

// moreNote says how much reasoning is not shown, if any.
func (t *thinking) moreNote(dst []string, more int) []string {
	if more <= 0 {
		return dst
	}
	note := "… " + bytesize.Format(int64(more)) + " more of the reasoning is not shown here; /export writes all of it"
	for _, l := range wrapPlain(note, t.thinkRoom(), nil) {
		dst = t.thinkLine(dst, l)
	}
	return dst
}

// styleParts returns the sequences a style puts before and after a text
// (only colours and attributes: the thinking style has no padding), or
// none when it puts anything else.
func styleParts(render func(...string) string) (before, after string) {
	const probe = "x"
	r := render(probe)
	i := strings.Index(r, probe)
	if i < 0 || strings.Count(r, probe) != 1 || ansi.StringWidth(r) != 1 {
		return "", ""
	}
	return r[:i], r[i+len(probe):]
}
