package transcript

import (
	"slices"
	"strings"

	"parley/api"
	"parley/conversation"
	"parley/ui/cells"
	"parley/ui/mdstream"
)

// A reply in flight: the deltas of its text and of its reasoning are made
// safe and appended as they arrive (cheap, called for every batch of
// deltas), and its lines are brought up to date at most once per frame,
// from the first line that changed.

// begin makes it, a message the list takes, a reply in flight when it is
// one: its text so far goes into a new document.
func (r *replyView) begin(it *item) {
	msg := it.msg
	if msg.Role != api.RoleAssistant || msg.State != conversation.StateStreaming {
		// The text is made safe when first needed (prepare).
		return
	}
	it.live = &live{}
	if !r.naive {
		it.live.doc = &mdstream.Doc{}
	}
	if msg.Text != "" {
		r.feed(it.live, it.live.write(msg.Text))
		it.live.answered = strings.TrimSpace(msg.Text) != ""
	}
	if msg.Reasoning != "" {
		th := &thinkLive{start: msg.ReasoningStart, end: msg.ReasoningEnd}
		if th.start.IsZero() {
			th.start, th.end = r.now(), r.now()
		}
		th.write(r.think, msg.Reasoning)
		th.dirty = true
		it.live.think = th
	}
	it.live.dirty = true
	it.draw().text = ""
	// Its text comes as deltas from now on (the message it was given is
	// not changed: it may be shared).
	m := *msg
	m.Text = ""
	it.msg = &m
	it.d.prepared = true
	r.streams = append(r.streams, it)
}

// delta takes the next piece of the text of a reply in flight.
func (r *replyView) delta(l *live, text string) {
	if s := l.write(text); s != "" {
		r.feed(l, s)
		l.dirty = true
		if !l.answered && strings.TrimSpace(s) != "" {
			// The answer begins: the reasoning folds.
			l.answered = true
			if l.think != nil {
				l.think.dirty = true
			}
		}
	}
}

// reasoning takes the next piece of the reasoning of a reply in flight.
func (r *replyView) reasoning(l *live, text string) {
	if l.think == nil {
		l.think = &thinkLive{start: r.now()}
	}
	th := l.think
	th.end = r.now()
	th.write(r.think, text)
	th.dirty = true
}

// feed appends sanitised streamed text to a reply's document, laid out for
// the terminal.
func (r *replyView) feed(l *live, s string) {
	if l.doc == nil {
		return
	}
	if !r.graphemes {
		s = l.parts.Write(s)
	}
	if s != "" {
		l.doc.Append(s)
	}
}

// relay lays the replies in flight out again: the terminal's measure
// changed (SetGraphemes).
func (r *replyView) relay() {
	for _, it := range r.streams {
		l := it.live
		if l.think != nil {
			r.think.relay(l.think)
		}
		if l.doc == nil {
			continue
		}
		// The document holds text laid out the old way: start it again.
		l.doc, l.parts = &mdstream.Doc{}, cells.PartsStream{}
		r.feed(l, l.safe.String())
		l.dirty = true
	}
}

// finish ends the stream of it with msg, its final state, when that is the
// usual end: the text is what streamed and its lines are fresh. The
// document is finished (the tail rendered as final, code highlighted) and
// nothing else is rendered again; it returns the item's code blocks.
// Otherwise it reports false and the stream goes on until end.
func (r *replyView) finish(it *item, msg conversation.Message, fresh bool) (codes int, ok bool) {
	l := it.live
	tail := l.flush()
	text := l.safe.String()
	if l.raw.String() != msg.Text || l.doc == nil || !fresh || shownText(&msg, text) != text {
		return 0, false
	}
	r.feed(l, tail)
	l.doc.Finish()
	it.d.text = text
	it.ver++
	it.msg = &msg
	l.dirty = true
	r.refitLive(it)
	codes = l.doc.CodeBlocks()
	if l.wantJob || l.dirty || l.doc.JobOut() {
		// The final render is too much for a frame: the lines stay
		// as they are until a job renders the whole text (and
		// counts its code blocks).
		r.jobs.setPending(it, true)
	}
	r.end(it)
	if it.pending {
		codes = r.codes.count(it)
	}
	it.setReason(&msg)
	return codes, true
}

// end forgets that it streams (a job rendering its document is
// cancelled).
func (r *replyView) end(it *item) {
	if j := r.jobs.inflight; j != nil && j.doc != nil && j.id == it.id() {
		r.jobs.drop()
	}
	it.live = nil
	r.streams = slices.DeleteFunc(r.streams, func(s *item) bool { return s == it })
}

// refitLive brings a streaming reply's body up to date with its document:
// only the Markdown lines from the first one that changed are fitted again
// (finished blocks come back from the document's cache as the same strings,
// so the comparison runs through them at pointer speed and stops at the
// tail). What the document cannot render within a frame waits for a job
// (live.wantJob); meanwhile it shows what it has.
func (r *replyView) refitLive(it *item) {
	l := it.live
	l.dirty = false
	var md []string
	switch {
	case r.naive || l.doc == nil:
		// The baseline the benchmarks compare against: the whole message
		// rendered again on every frame (whatever that takes).
		if s := l.safe.String(); s != "" {
			eng := r.engine().r
			eng.SetBudget(0, nil)
			md = trimBlank(eng.Render(r.lay(s)))
			eng.SetBudget(r.syncBudget, nil)
		}
	default:
		var next mdstream.Next
		l.doc.SetCodeBase(it.base)
		md, next = l.doc.Frame(r.engine().r)
		md = trimBlank(md)
		switch next {
		case mdstream.Again:
			l.dirty = true
		case mdstream.NeedJob:
			l.wantJob = true
		}
	}
	k := 0
	for k < len(md) && k < len(l.md) && md[k] == l.md[k] {
		k++
	}
	// The lines after the change may be the same too (the plain part of a
	// reply past mdstream.MaxMarkdownBytes, after its Markdown changed):
	// their fitted lines are kept.
	s := 0
	for s < len(md)-k && s < len(l.md)-k && md[len(md)-1-s] == l.md[len(l.md)-1-s] {
		s++
	}
	var kept []string
	var keptStarts []int
	if s > 0 {
		from := l.mdStart[len(l.md)-s]
		kept = slices.Clone(it.d.body[from:])
		keptStarts = slices.Clone(l.mdStart[len(l.md)-s:])
	}
	if k < len(l.mdStart) {
		it.d.body = it.d.body[:l.mdStart[k]]
	}
	l.mdStart = l.mdStart[:k]
	for _, line := range md[k : len(md)-s] {
		l.mdStart = append(l.mdStart, len(it.d.body))
		it.d.body = fitLine(it.d.body, replyIndent, len(replyIndent), line, r.w)
	}
	if s > 0 {
		shift := len(it.d.body) - keptStarts[0]
		for _, st := range keptStarts {
			l.mdStart = append(l.mdStart, st+shift)
		}
		it.d.body = append(it.d.body, kept...)
	}
	// A copy: the document may hand out the same backing array again.
	l.md = append(l.md[:0], md...)
}
