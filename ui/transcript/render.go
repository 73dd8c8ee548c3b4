package transcript

import (
	"fmt"
	"strings"

	"parley/api"
	"parley/internal/bytesize"
	"parley/termsafe"
)

// Marks and words of the transcript. The user's turns carry a bar in the
// user colour on every line, the replies are indented under the model's
// name, so the two are told apart at a glance even without colour.
const (
	userBarW      = 2 // the bar and a space
	replyIndent   = "  "
	userLabel     = "You"
	replyFallback = "assistant"
	streamingMark = " · writing…"
	chipMark      = "▣ "
	textChipMark  = "≡ " // a text file, as the composer marks it
	errorMark     = "✗ "
	errorMarkPad  = "  "
	errorMarkW    = 2
	noteMark      = "! "
	emptyReply    = "(empty reply)"
	lengthNote    = "reply cut off: the model hit its length limit"
	filterNote    = "reply stopped by the gateway's content filter"
	interrupted   = "■ interrupted"
)

// renderers draws the items of the list: it picks the renderer of an
// item's kind (a user message, a reply, an image turn) and puts together
// what every kind has, in order: the head (the label with the tree's
// marks), the thinking block, the body and the foot. An item records what
// its lines were drawn with (width, style generation, fold, the cursor's
// mark, the retry hint): a rendering is fresh while those are the same.
// It is the list's painter.
type renderers struct {
	*canvas
	think  *thinking
	user   userView
	reply  replyView
	images imageView
	list   *List      // the cursor and the last item, which marks depend on
	codes  *numbering // where an item's code labels start
}

// kind is the renderer of one kind of message.
type kind interface {
	// label is the text of the label line, styled, without the marks.
	label(it *item) string
	// paintBody draws the body (it.d.body) for the current canvas;
	// sameWidth: the lines it has are of this width.
	paintBody(it *item, sameWidth bool)
	// foot appends what follows the body.
	foot(it *item, dst []string) []string
	// extra is how many lines besides its text an item not rendered yet is
	// estimated to take (attachments, a state).
	extra(it *item) int
}

func (r *renderers) kindOf(it *item) kind {
	switch {
	case it.isUser():
		return &r.user
	case it.msg.IsImages():
		return &r.images
	}
	return &r.reply
}

func (r *renderers) fresh(it *item) bool {
	return it.rendered() && it.d.w == r.w && it.d.gen == r.gen && (it.d.thinkGen == r.think.thinkGen || !it.hasThink())
}

// estimate returns the height of it at the current width without rendering.
func (r *renderers) estimate(it *item) int {
	if r.fresh(it) {
		return it.height()
	}
	if it.rendered() && it.d.w > 0 {
		// The same text reflows: lines scale with the width ratio.
		body := (len(it.d.body)*it.d.w + r.w - 1) / r.w
		return len(it.d.head) + r.think.thinkEstimate(it) + max(body, 1) + len(it.d.foot)
	}
	// From the text as it came (the safe text is made only when needed):
	// an estimate of a message depends on nothing else, so it is the same
	// whatever was done before.
	room := max(r.w-2, 1)
	text := it.msg.Text
	n := 2 + 1 + len(text)/room + strings.Count(text, "\n") + r.think.thinkEstimate(it)
	return n + r.kindOf(it).extra(it)
}

// paint renders a stale item: only its thinking block when nothing else
// changed (it was folded or unfolded), else all of it.
func (r *renderers) paint(it *item) (splice, bool) {
	if r.think.thinkStale(it) {
		was := len(it.d.think)
		it.d.think = r.think.renderThink(it, it.d.think[:0])
		return splice{at: len(it.d.head), was: was, now: len(it.d.think)}, false
	}
	r.renderItem(it)
	return splice{}, true
}

func (r *renderers) paintHead(it *item) {
	d := it.draw()
	d.head = r.renderHead(it, d.head[:0])
}

// renderItem renders it at the canvas's width and style generation.
func (r *renderers) renderItem(it *item) {
	w := r.w
	sameWidth := it.rendered() && !it.pending && it.d.w == w
	it.prepare()
	it.base = r.codes.baseOf(it)
	it.d.w, it.d.gen, it.d.rendered = w, r.gen, true
	it.d.head = r.renderHead(it, it.d.head[:0])
	it.d.think = r.think.renderThink(it, it.d.think[:0])
	it.d.foot = r.renderFoot(it, it.d.foot[:0])
	r.kindOf(it).paintBody(it, sameWidth)
}

// renderHead renders the blank separator and the label line.
func (r *renderers) renderHead(it *item, dst []string) []string {
	sel := r.list.selected != 0 && it.id() == r.list.selected
	return r.head(it, r.kindOf(it).label(it), sel, dst)
}

// renderFoot renders what follows the text: attachment chips under a user
// message; the state of a reply that did not simply finish.
func (r *renderers) renderFoot(it *item, dst []string) []string {
	it.draw().retry = r.retryHint(it)
	return r.kindOf(it).foot(it, dst)
}

// retryHint reports whether the foot of it carries the retry hint: it is
// the last message and a retry can help.
func (r *renderers) retryHint(it *item) bool {
	if r.retryKey == "" || r.list.last() != it {
		return false
	}
	return RetryHelps(*it.msg)
}

// chip describes an attachment in one line: "▣ shot.png · 2048×1536 · 1.2 MB",
// or for a text file, as the composer showed it, "≡ notes.md · 12 lines · 1.2 KB".
func chip(a api.Attachment) string {
	if a.Kind == api.KindText {
		name := oneLine(termsafe.Sanitize(a.Name))
		lines := "lines"
		if a.Lines == 1 {
			lines = "line"
		}
		return fmt.Sprintf("%s%s · %d %s · %s", textChipMark, name, a.Lines, lines, bytesize.Format(int64(a.Bytes)))
	}
	var b strings.Builder
	b.WriteString(chipMark)
	name := a.Name
	if a.IsRemote() && name == "" {
		name = a.URL
	}
	name = oneLine(termsafe.Sanitize(name))
	if name == "" {
		name = "image"
	}
	b.WriteString(name)
	if a.IsRemote() {
		b.WriteString(" · link")
		return b.String()
	}
	if a.Width > 0 && a.Height > 0 {
		fmt.Fprintf(&b, " · %d×%d", a.Width, a.Height)
	}
	if a.Bytes > 0 {
		b.WriteString(" · ")
		b.WriteString(bytesize.Format(int64(a.Bytes)))
	}
	if a.Resized && a.OrigWidth > 0 && a.OrigHeight > 0 &&
		(a.OrigWidth != a.Width || a.OrigHeight != a.Height) {
		fmt.Fprintf(&b, " · scaled down from %d×%d", a.OrigWidth, a.OrigHeight)
	}
	return b.String()
}

// oneLine puts sanitised text that must fit one line (a model id, a file
// name) on one line.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}
