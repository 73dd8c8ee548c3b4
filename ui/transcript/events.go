package transcript

import (
	"iter"
	"slices"
	"strings"

	"parley/ui/mdstream"

	"parley/api"
	"parley/conversation"
)

// Append adds a message at the end: a user message just sent (the window
// returns to the bottom, as the user expects to see what they sent), or a
// reply that starts streaming. A message already present is updated.
func (t *Transcript) Append(msg conversation.Message) {
	if _, ok := t.index[msg.ID]; ok {
		t.Update(msg)
		return
	}
	it := t.newItem(msg)
	t.items = append(t.items, it)
	t.index[msg.ID] = len(t.items) - 1
	it.prepare()
	it.codes, it.counted = t.countCodes(it), true
	t.codes.push(it.codes)
	t.renderItem(it)
	t.hs.push(it.height())
	// The message before is no longer the last: no retry hint.
	t.refoot(len(t.items) - 2)
	if msg.Role == api.RoleUser {
		t.Bottom()
		return
	}
	t.grew(len(t.items) - 1)
}

func (t *Transcript) newItem(msg conversation.Message) *item {
	it := &item{msg: msg}
	if msg.Role == api.RoleAssistant && msg.State == conversation.StateStreaming {
		it.live = &live{}
		if !t.naive {
			it.live.doc = &mdstream.Doc{}
		}
		if msg.Text != "" {
			t.feed(it.live, it.live.write(msg.Text))
			it.live.answered = strings.TrimSpace(msg.Text) != ""
		}
		if msg.Reasoning != "" {
			th := &thinkLive{start: msg.ReasoningStart, end: msg.ReasoningEnd}
			if th.start.IsZero() {
				th.start, th.end = t.now(), t.now()
			}
			th.write(t, msg.Reasoning)
			th.dirty = true
			it.live.think = th
		}
		it.live.dirty = true
		it.text = ""
		it.msg.Text = ""
		it.prepared = true
		t.streams = append(t.streams, it)
		return it
	}
	// The text is made safe when first needed (prepare).
	return it
}

// grew notes that item i got taller or was added: text below the window
// while the user reads further up turns the badge on.
func (t *Transcript) grew(i int) {
	if t.follow {
		return
	}
	top := t.top()
	if t.hs.prefix(i+1) > top+t.h {
		t.newBelow = true
	}
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
	if s := l.write(text); s != "" {
		t.feed(l, s)
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

// liveOf is the reply in flight of message id (nil when id is not a reply
// in flight on the path).
func (t *Transcript) liveOf(id int) *live {
	if i, ok := t.index[id]; ok {
		return t.items[i].live
	}
	return nil
}

// tick is Tick without starting a job. It reports whether the window's
// content changed.
func (t *Transcript) tick() bool {
	changed := false
	for _, it := range t.streams {
		if it.live.changed() && t.refreshLive(it) {
			changed = true
		}
	}
	if t.lazy {
		t.lazyStep(t.now().Add(lazyBudget))
		// Renumbered code labels may have made the window stale.
		t.ensureWindow()
	}
	return changed
}

// refreshLive brings a streaming reply's lines up to date and reports
// whether the window's content changed.
func (t *Transcript) refreshLive(it *item) bool {
	i := t.index[it.id()]
	old := t.hs.get(i)
	switch {
	case !t.fresh(it):
		t.renderItem(it)
	default:
		if it.live.dirty {
			t.refitLive(it)
		}
		if th := it.live.think; th != nil && th.dirty {
			it.think = t.renderThink(it, it.think[:0])
		}
	}
	t.setHeight(i, old, false)
	if it.live != nil {
		t.setCodes(i, t.countCodes(it))
	}
	changed := t.visible(i)
	if it.height() > old {
		before := t.newBelow
		t.grew(i)
		changed = changed || t.newBelow != before
	}
	return changed
}

// visible reports whether any line of item i is in the window.
func (t *Transcript) visible(i int) bool {
	top := t.top()
	start := t.hs.prefix(i)
	return start < top+t.h && start+t.hs.get(i) > top
}

// Update replaces a message by its new state: a reply that finished,
// was interrupted or failed (with its error, usage and finish reason), or
// an edited message. An unknown message is appended.
func (t *Transcript) Update(msg conversation.Message) {
	i, ok := t.index[msg.ID]
	if !ok {
		t.Append(msg)
		return
	}
	it := t.items[i]
	old := t.hs.get(i)
	prevLive := it.live
	switch {
	case prevLive != nil && msg.State == conversation.StateStreaming:
		// Still in flight (metadata only): the text arrives as deltas.
		msg.Text = ""
		it.msg = msg
	case prevLive != nil:
		tail := prevLive.flush()
		text := prevLive.safe.String()
		if prevLive.raw.String() == msg.Text && prevLive.doc != nil && t.fresh(it) && shownText(msg, text) == text {
			// The usual end of a stream: finish the document (the tail is
			// rendered as final, code highlighted), nothing else again.
			t.feed(prevLive, tail)
			prevLive.doc.Finish()
			it.text = text
			it.ver++
			it.msg = msg
			prevLive.dirty = true
			t.refitLive(it)
			codes := prevLive.doc.CodeBlocks()
			if prevLive.wantJob || prevLive.dirty || prevLive.doc.JobOut() {
				// The final render is too much for a frame: the lines stay
				// as they are until a job renders the whole text (and
				// counts its code blocks).
				t.setPending(it, true)
			}
			t.endStream(it)
			if it.pending {
				codes = t.countCodes(it)
			}
			it.setReason(msg)
			it.head = t.renderHead(it, it.head[:0])
			it.think = t.renderThink(it, it.think[:0])
			it.foot = t.renderFoot(it, it.foot[:0])
			t.setHeight(i, old, false)
			t.setCodes(i, codes)
			if it.height() > old {
				t.grew(i)
			}
			t.ensureWindow()
			return
		}
		t.endStream(it)
		it.msg = msg
		it.setText(msg)
		it.ver++
	default:
		it.msg = msg
		it.setText(msg)
		it.ver++
	}
	t.setCodes(i, t.countCodes(it))
	t.renderItem(it)
	t.setHeight(i, old, false)
	if it.height() > old {
		t.grew(i)
	}
	t.ensureWindow()
}

// endStream forgets that it streams (a job rendering its document is
// cancelled).
func (t *Transcript) endStream(it *item) {
	if j := t.inflight; j != nil && j.doc != nil && j.id == it.id() {
		t.dropInflight()
	}
	it.live = nil
	t.streams = slices.DeleteFunc(t.streams, func(s *item) bool { return s == it })
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
	anchorPos := -1
	if !t.follow {
		anchorPos = t.index[t.anchorID]
	}
	if j := t.inflight; j != nil && drop[j.id] {
		t.dropInflight()
	}
	for _, it := range t.items {
		if drop[it.id()] {
			t.setPending(it, false)
		}
	}
	kept := t.items[:0]
	hs := make([]int, 0, len(t.items))
	newAnchor := -1
	for i, it := range t.items {
		if drop[it.id()] {
			continue
		}
		if newAnchor < 0 && i >= anchorPos && anchorPos >= 0 {
			newAnchor = len(kept)
			if it.id() != t.anchorID {
				t.anchorOff = 0
			}
		}
		kept = append(kept, it)
		hs = append(hs, t.hs.get(i))
	}
	clear(t.items[len(kept):])
	t.items = kept
	t.streams = slices.DeleteFunc(t.streams, func(s *item) bool { return drop[s.id()] })
	t.reindex()
	t.hs.reset(hs)
	t.resetCodes()
	// The new last message may take the retry hint.
	t.refoot(len(t.items) - 1)
	switch {
	case t.follow:
	case newAnchor < 0:
		t.Bottom()
	default:
		t.anchorID = t.items[newAnchor].id()
		t.clampAnchor()
	}
	t.ensureWindow()
	t.startLazy()
}

func (t *Transcript) reindex() {
	clear(t.index)
	for i, it := range t.items {
		t.index[it.id()] = i
	}
}

// Reset replaces everything with msgs (a new or a loaded conversation) and
// shows the bottom; what SwitchPath kept of other paths is forgotten. Only
// the messages on screen are rendered now; the others get estimated
// heights; those near the window are rendered a few per Tick, the rest
// when they come near. Every message is read once, for its code blocks:
// the labels at the bottom count all of them.
func (t *Transcript) Reset(msgs []conversation.Message) {
	t.ResetSeq(len(msgs), slices.Values(msgs))
}

// ResetSeq is Reset with the n messages yielded one at a time
// (conversation.PathMessages), so the path of a long conversation is not
// copied whole before the transcript copies each message.
func (t *Transcript) ResetSeq(n int, msgs iter.Seq[conversation.Message]) {
	t.dropInflight()
	t.pics, t.wantPics = nil, nil
	t.pendingN = 0
	t.shelf.clear()
	clear(t.items)
	t.items = t.items[:0]
	t.streams = t.streams[:0]
	t.items = slices.Grow(t.items, max(n, 0))
	hs := make([]int, 0, max(n, 0))
	for m := range msgs {
		it := t.newItem(m)
		t.items = append(t.items, it)
		// The window is the bottom, whose labels need every count before
		// it: counting now, while the text is in the cache, saves a
		// second pass over all of it.
		it.codes, it.counted = t.countCodes(it), true
		hs = append(hs, t.estimate(it))
	}
	t.reindex()
	t.hs.reset(hs)
	t.resetCodes()
	t.follow, t.newBelow, t.anchorID, t.anchorOff = true, false, 0, 0
	t.lazy = len(t.items) > 0
	t.ensureWindow()
	t.startLazy()
}
