package transcript

import (
	"slices"

	"parley/conversation"
)

// A branch switch (issue 16) shows another path of the same conversation:
// the messages up to where the two paths part stay, the rest is replaced.
// Building the new path from nothing, as Reset does, read the whole text of
// every message (10,000 messages: 14 ms, over a frame), for messages whose
// safe text, code counts and often renderings the transcript had when that
// path was last on screen. So SwitchPath keeps the items of the paths it
// replaced (the shelf) and takes an item back when its message is the same
// (same id and Version: a message's rendering depends on nothing else but
// which of its alternatives it is, the cursor's mark and the retry hint,
// which are drawn again when they changed). Messages never shown cost
// little as well: an item reads its text only when it is rendered or its
// code blocks are counted, and the count goes only as far as the labels
// shown need (codes.go). The window stays where it was when the part
// above the switch is still on the path, or starts at the message where
// the paths part: the new window is the part near the message switched
// to, not the end of a long branch that the cursor would scroll away
// from at once.

// The shelf is bounded: at most shelfRuns runs and shelfItems items, the
// oldest runs dropped first. Its renderings are bounded too: a path's
// items far from its window lose their renderings (evictFar) before they
// go on the shelf.
const (
	shelfRuns  = 8
	shelfItems = 20_000
)

// shelf holds the items of the paths switches replaced, as runs: the part
// of a path that the next path did not take, in path order (the ids grow
// along a path: a message's id is larger than its parent's), the newest
// run first. An item is in at most one run, and in none while it is on
// the path.
type shelf struct {
	runs [][]*item
	n    int // items in runs
}

func (s *shelf) clear() {
	s.runs, s.n = nil, 0
}

// push adds run as the newest, then drops the oldest runs past the
// bounds. A run longer than shelfItems keeps its start, the messages
// next to where the paths part.
func (s *shelf) push(run []*item) {
	if len(run) == 0 {
		return
	}
	run = run[:min(len(run), shelfItems)]
	s.runs = slices.Insert(s.runs, 0, run)
	s.n += len(run)
	for len(s.runs) > shelfRuns || s.n > shelfItems {
		last := len(s.runs) - 1
		s.n -= len(s.runs[last])
		s.runs[last] = nil
		s.runs = s.runs[:last]
	}
}

// drop removes the items seen on the path of switch stamp from every run.
func (s *shelf) drop(stamp int) {
	s.n = 0
	kept := s.runs[:0]
	for _, run := range s.runs {
		run = slices.DeleteFunc(run, func(it *item) bool { return it.seen == stamp })
		if len(run) > 0 {
			kept = append(kept, run)
			s.n += len(run)
		}
	}
	clear(s.runs[len(kept):])
	s.runs = kept
}

// SwitchPath shows msgs, another path of the conversation on screen
// (conversation.ChangeSwitch), as Reset would show it, reusing what it
// made for the paths it showed before. The window keeps its place in the
// part the two paths share, or starts at the first message where they
// differ; it follows the bottom when that is where it lands. Reset is for
// another conversation: it forgets what SwitchPath kept.
func (t *Transcript) SwitchPath(msgs []conversation.Message) {
	l := &t.list
	t.switches++
	stamp := t.switches
	old := l.items
	div := 0
	for div < len(old) && div < len(msgs) && old[div].id() == msgs[div].ID {
		div++
	}
	follow, anchorID, anchorOff := l.switchAnchor(msgs, div)
	if j := t.jobs.inflight; j != nil && j.doc != nil {
		t.jobs.drop()
	}
	var jobItem *item
	if j := t.jobs.inflight; j != nil {
		if _, it, ok := l.at(j.id); ok {
			jobItem = it
		}
	}
	// What goes on the shelf keeps renderings near the window only.
	l.evictFar()
	t.r.reply.streams = t.r.reply.streams[:0]

	items := make([]*item, len(msgs))
	for i := range div {
		old[i].seen = stamp
		items[i] = t.r.takeBack(old[i], &msgs[i])
	}
	for _, run := range t.shelf.runs {
		fromRun(&t.r, run, items[div:], msgs[div:], stamp)
	}
	for i := range msgs {
		if items[i] == nil {
			// A copy of its own: the switch's path is not kept alive by it.
			m := msgs[i]
			items[i] = t.newItem(&m)
		}
		items[i].seen = stamp
	}
	t.shelf.drop(stamp)
	t.shelf.push(leaving(&t.jobs, old, stamp))

	l.items = items
	l.reindex()
	hs := make([]int, len(items))
	for i, it := range items {
		if i >= div || it.d != nil && it.d.retry || i == len(items)-1 {
			t.r.refreshFoot(it, i >= div)
		}
		hs[i] = t.r.estimate(it)
	}
	l.hs.reset(hs)
	t.codes.reset()
	if j := t.jobs.inflight; j != nil {
		if _, it, ok := l.at(j.id); !ok || it != jobItem {
			t.jobs.drop()
		}
	}
	l.follow, l.newBelow, l.anchorID, l.anchorOff = follow, false, anchorID, anchorOff
	l.clampAnchor()
	l.ensureWindow()
	if !l.follow && l.top() >= l.maxTop() {
		l.follow = true
		l.ensureWindow()
	}
	l.startLazy()
	l.evictFar()
}

// switchAnchor is where the window goes on a switch to msgs, which part
// from the path on screen at div: its top line stays when the message
// there stays on the path; otherwise the window starts at the first
// message that differs; it follows the bottom when nothing differs.
func (l *List) switchAnchor(msgs []conversation.Message, div int) (follow bool, id, off int) {
	if len(l.items) > 0 {
		if i, o := l.hs.find(l.top()); i < div {
			return false, l.items[i].id(), o
		}
	}
	if div < len(msgs) {
		return false, msgs[div].ID, 0
	}
	return true, 0, 0
}

// takeBack returns it for m when it shows m as it is (nil when m is
// another message, or the same one changed), its message replaced by m.
// Its head is drawn again when its marks changed (which of its
// alternatives it is, the cursor on it or not).
func (r *renderers) takeBack(it *item, m *conversation.Message) *item {
	if it.live != nil || !sameMessage(it.msg, m) {
		return nil
	}
	alt := it.msg.AltIndex != m.AltIndex || it.msg.AltCount != m.AltCount
	marks := alt || (it.d != nil && it.d.selMark) != (r.list.selected != 0 && it.id() == r.list.selected)
	if alt {
		// The same message as another alternative's sibling: a copy, not
		// a pointer into the switch's path, which the item would keep
		// alive.
		cp := *m
		it.msg = &cp
	}
	if marks && r.fresh(it) {
		it.d.head = r.renderHead(it, it.d.head[:0])
	}
	return it
}

// sameMessage reports whether a and b are the same state of one message
// (its Version names it; the rest guards against a version that did not
// grow). Where it stands among its alternatives may differ.
func sameMessage(a, b *conversation.Message) bool {
	return a.ID == b.ID && a.Version == b.Version && a.State == b.State &&
		a.Role == b.Role && a.Text == b.Text && a.Reasoning == b.Reasoning &&
		a.Excluded == b.Excluded && a.Model == b.Model && a.Err == b.Err &&
		a.FinishReason == b.FinishReason && len(a.Attachments) == len(b.Attachments)
}

// fromRun fills, with the renderers r, the empty places of items (the path's messages msgs) with
// the items of run that show them: both are in path order, so one pass
// finds them. Every item of run whose id is on the path is marked seen.
func fromRun(r *renderers, run, items []*item, msgs []conversation.Message, stamp int) {
	j := 0
	for k := range msgs {
		id := msgs[k].ID
		for j < len(run) && run[j].id() < id {
			j++
		}
		if j == len(run) {
			return
		}
		if run[j].id() != id {
			continue
		}
		run[j].seen = stamp
		if items[k] == nil {
			items[k] = r.takeBack(run[j], &msgs[k])
		}
		j++
	}
}

// leaving returns the items of old not on the path of switch stamp, for
// the shelf: a reply in flight is not kept, and one waiting for a
// background render loses its stand-in (it is rendered again when it is
// back).
func leaving(js *jobs, old []*item, stamp int) []*item {
	var run []*item
	for _, it := range old {
		if it.seen == stamp || it.live != nil {
			continue
		}
		if it.pending {
			js.setPending(it, false)
			it.undraw()
		}
		run = append(run, it)
	}
	return run
}

// refreshFoot draws the foot of a fresh item again when what it shows
// changed while it was elsewhere: the retry hint (only the last message
// has it), and for one taken from the shelf its pictures (SetPicture
// draws only the messages on the path).
func (r *renderers) refreshFoot(it *item, shelved bool) {
	if !r.fresh(it) {
		return
	}
	if it.d.retry != r.retryHint(it) || shelved && len(it.msg.Attachments) > 0 {
		it.d.foot = r.renderFoot(it, it.d.foot[:0])
	}
}
