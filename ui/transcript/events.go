package transcript

import (
	"iter"
	"slices"

	"parley/api"
	"parley/conversation"
)

// Append adds a message at the end: a user message just sent (the window
// returns to the bottom, as the user expects to see what they sent), or a
// reply that starts streaming. A message already present is updated.
func (t *Transcript) Append(msg conversation.Message) {
	l := &t.list
	if _, ok := l.pos(msg.ID); ok {
		t.Update(msg)
		return
	}
	it := t.newItem(&msg)
	l.items = append(l.items, it)
	l.appended()
	it.prepare()
	t.codes.push(it)
	t.r.renderItem(it)
	l.hs.push(it.height())
	// The message before is no longer the last: no retry hint.
	t.refoot(len(l.items) - 2)
	if msg.Role == api.RoleUser {
		l.Bottom()
		return
	}
	l.grew(len(l.items) - 1)
}

// newItem makes the item of msg, which it keeps (and never changes).
func (t *Transcript) newItem(msg *conversation.Message) *item {
	it := &item{msg: msg}
	t.r.reply.begin(it)
	return it
}

// AppendDelta adds streamed text to the reply with the given id. It only
// sanitises and appends (cheap, called for every batch of deltas); the
// rendering happens in the next Tick. Deltas for any other message are
// ignored.
func (t *Transcript) AppendDelta(id int, text string) {
	l := t.liveOf(id)
	if text == "" || l == nil {
		return
	}
	t.r.reply.delta(l, text)
}

// AppendReasoning adds streamed reasoning to the reply with the given id,
// as AppendDelta adds its text: it only sanitises and appends (cheap,
// called for every batch of deltas); the lines are made in the next Tick.
// Reasoning for any other message is ignored.
func (t *Transcript) AppendReasoning(id int, text string) {
	l := t.liveOf(id)
	if text == "" || l == nil {
		return
	}
	t.r.reply.reasoning(l, text)
}

// liveOf is the reply in flight of message id (nil when id is not a reply
// in flight on the path).
func (t *Transcript) liveOf(id int) *live {
	if _, it, ok := t.list.at(id); ok {
		return it.live
	}
	return nil
}

// Update replaces a message by its new state: a reply that finished,
// was interrupted or failed (with its error, usage and finish reason), or
// an edited message. An unknown message is appended.
func (t *Transcript) Update(msg conversation.Message) {
	l := &t.list
	i, it, ok := l.at(msg.ID)
	if !ok {
		t.Append(msg)
		return
	}
	old := l.hs.get(i)
	switch {
	case it.live != nil && msg.State == conversation.StateStreaming:
		// Still in flight (metadata only): the text arrives as deltas.
		msg.Text = ""
		it.msg = &msg
	case it.live != nil:
		if codes, ok := t.r.reply.finish(it, msg, t.r.fresh(it)); ok {
			// The usual end of a stream: only the document's tail was
			// rendered again; the head, thinking block and foot follow.
			it.d.head = t.r.renderHead(it, it.d.head[:0])
			it.d.think = t.think.renderThink(it, it.d.think[:0])
			it.d.foot = t.r.renderFoot(it, it.d.foot[:0])
			l.setHeight(i, old, false)
			t.codes.set(i, codes)
			if it.height() > old {
				l.grew(i)
			}
			l.ensureWindow()
			return
		}
		t.r.reply.end(it)
		it.msg = &msg
		it.setText(&msg)
		it.ver++
	default:
		it.msg = &msg
		it.setText(&msg)
		it.ver++
	}
	t.codes.set(i, t.codes.count(it))
	t.r.renderItem(it)
	l.setHeight(i, old, false)
	if it.height() > old {
		l.grew(i)
	}
	l.ensureWindow()
}

// SetExcluded marks the messages ids (a turn) as left out of what the model
// sees, or brings them back: they are drawn again with the mark.
func (t *Transcript) SetExcluded(ids []int, on bool) {
	for _, id := range ids {
		_, it, ok := t.list.at(id)
		if !ok {
			continue
		}
		msg := *it.msg
		if msg.Excluded == on {
			continue
		}
		msg.Excluded = on
		msg.Version++
		t.Update(msg)
	}
}

// Remove drops the messages with the given ids (retry, edit and resend).
func (t *Transcript) Remove(ids []int) {
	if len(ids) == 0 {
		return
	}
	drop := make(map[int]bool, len(ids))
	for _, id := range ids {
		drop[id] = true
	}
	if j := t.jobs.inflight; j != nil && drop[j.id] {
		t.jobs.drop()
	}
	for _, it := range t.list.items {
		if drop[it.id()] {
			t.jobs.setPending(it, false)
		}
	}
	t.r.reply.streams = slices.DeleteFunc(t.r.reply.streams, func(s *item) bool { return drop[s.id()] })
	anchor := t.list.remove(drop)
	t.codes.reset()
	// The new last message may take the retry hint.
	t.refoot(len(t.list.items) - 1)
	t.list.reanchor(anchor)
}

// Reset replaces everything with msgs (a new or a loaded conversation) and
// shows the bottom; what SwitchPath kept of other paths is forgotten. Only
// the messages on screen are rendered now; the others get estimated
// heights; those near the window are rendered a few per Tick, the rest
// when they come near. Every message is read once, for its code blocks:
// the labels at the bottom count all of them.
func (t *Transcript) Reset(msgs []conversation.Message) {
	// The transcript keeps the messages it is given: its own copy, since
	// the caller's slice may change.
	own := slices.Clone(msgs)
	t.ResetSeq(len(own), func(yield func(*conversation.Message) bool) {
		for i := range own {
			if !yield(&own[i]) {
				return
			}
		}
	})
}

// ResetSeq is Reset with the n messages yielded one at a time
// (conversation.PathMessages), which the transcript keeps as they are,
// without a copy: a long conversation's path is held once, by the
// conversation. The messages must never change (a change of one comes
// as a new message, through Update).
func (t *Transcript) ResetSeq(n int, msgs iter.Seq[*conversation.Message]) {
	l := &t.list
	t.jobs.drop()
	t.pics.forget()
	t.jobs.pending = 0
	t.shelf.clear()
	clear(l.items)
	l.items = l.items[:0]
	t.r.reply.streams = t.r.reply.streams[:0]
	l.items = slices.Grow(l.items, max(n, 0))
	hs := make([]int, 0, max(n, 0))
	for m := range msgs {
		it := t.newItem(m)
		l.items = append(l.items, it)
		// The window is the bottom, whose labels need every count before
		// it: counting now, while the text is in the cache, saves a
		// second pass over all of it.
		it.codes, it.counted = t.codes.count(it), true
		hs = append(hs, t.r.estimate(it))
	}
	l.reindex()
	l.hs.reset(hs)
	t.codes.reset()
	l.follow, l.newBelow, l.anchorID, l.anchorOff = true, false, 0, 0
	l.lazy = len(l.items) > 0
	l.ensureWindow()
	l.startLazy()
}

// refoot makes the foot of item i again after the last message changed
// (a message appended after it, or those after it removed): its retry
// hint comes or goes. An item not fresh gets it when next rendered.
func (t *Transcript) refoot(i int) {
	l := &t.list
	if i < 0 || i >= len(l.items) {
		return
	}
	it := l.items[i]
	if st := it.msg.State; it.isUser() || !t.r.fresh(it) ||
		st != conversation.StateFailed && st != conversation.StateInterrupted {
		return
	}
	old := l.hs.get(i)
	it.d.foot = t.r.renderFoot(it, it.d.foot[:0])
	l.setHeight(i, old, false)
	if !l.follow && it.id() == l.anchorID {
		l.clampAnchor()
	}
}
