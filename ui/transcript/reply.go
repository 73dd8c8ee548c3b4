package transcript

import (
	"parley/conversation"
	"parley/termsafe"
)

// replyView renders a model's reply: a label with the model's name, its
// thinking block (thinking.go), its text as Markdown with numbered code
// blocks (rendered at once when that fits a frame, else by a background
// job, jobs.go), and under it how it ended when it did not simply finish.
// A reply in flight is its own case (live.go): its document grows as
// deltas arrive and only its unfinished tail is rendered again.
type replyView struct {
	*canvas
	think *thinking
	jobs  *jobs
	codes *numbering
	pics  *pictures // of the images a model made with its reply
	// streams are the items with a reply in flight (usually one).
	streams []*item
}

func (r *replyView) label(it *item) string {
	lk := &r.look
	if it.msg.Foreign() {
		return lk.replyLabel.Render(r.lay(foreignLabel(it.msg.Role)))
	}
	name := r.lay(oneLine(termsafe.Sanitize(it.msg.Model)))
	if name == "" {
		name = replyFallback
	}
	label := lk.replyLabel.Render(name)
	if it.msg.State == conversation.StateStreaming {
		label += lk.streaming.Render(streamingMark)
	}
	return label
}

func (r *replyView) paintBody(it *item, sameWidth bool) {
	if l := it.live; l != nil {
		l.md, l.mdStart = l.md[:0], l.mdStart[:0]
		it.d.body = it.d.body[:0]
		r.refitLive(it)
		return
	}
	r.renderReply(it, sameWidth)
}

// renderReply renders a finished reply's text now if that fits a frame,
// and otherwise shows a stand-in until a job renders it: the lines it had
// when only the style changed (same width), else its text plain.
func (r *replyView) renderReply(it *item, sameWidth bool) {
	if it.d.text == "" {
		r.jobs.setPending(it, false)
		it.d.body = r.fitReply(it.d.body[:0], nil, it.done())
		return
	}
	if !r.naive && len(it.d.text) > syncRenderBytes {
		r.jobs.setPending(it, true)
		if !sameWidth {
			it.d.body = r.fitReply(it.d.body[:0], r.wrap(it.d.text, r.mdWidth(), nil), it.done())
		}
		return
	}
	md, codes, ok := r.engine().render(r.lay(it.d.text), it.base)
	r.jobs.setPending(it, !ok && !r.naive)
	if ok {
		r.codes.exact(it, codes)
	}
	it.d.body = r.fitReply(it.d.body[:0], md, it.done())
}

// fitReply fits rendered Markdown lines under the reply indent. A reply
// that finished without any text says so (a failed or interrupted one has
// its state below instead).
func (c *canvas) fitReply(dst []string, md []string, done bool) []string {
	if len(md) == 0 && done {
		return fitLine(dst, replyIndent, len(replyIndent), c.look.meta.Render(emptyReply), c.w)
	}
	for _, l := range md {
		dst = fitLine(dst, replyIndent, len(replyIndent), l, c.w)
	}
	return dst
}

// foot is the images the model made with the reply, then how the reply
// ended when it did not simply finish.
func (r *replyView) foot(it *item, dst []string) []string {
	if !it.msg.Foreign() {
		dst = r.pictured(r.pics, it.msg.Attachments, dst)
	}
	return r.stateFoot(it, dst)
}

func (r *replyView) extra(it *item) int {
	n := 0
	if !it.msg.Foreign() {
		n = r.pics.estimate(it.msg.Attachments)
	}
	if it.msg.State != conversation.StateDone {
		return n + 2
	}
	return n
}
