package transcript

import tea "charm.land/bubbletea/v2"

// Tick runs once per frame: it re-renders the tail of a streaming reply
// that changed since the last tick, renders some stale messages off screen
// (bounded in time), and returns the command of the next background
// render, if one is due (nil otherwise). The root runs that command; its
// RenderedMsg comes back through HandleMsg.
func (t *Transcript) Tick() tea.Cmd {
	t.tick()
	return t.jobs.dispatch()
}

// tick is Tick without starting a job. It reports whether the window's
// content changed.
func (t *Transcript) tick() bool {
	changed := false
	for _, it := range t.r.reply.streams {
		if it.live.changed() && t.refreshLive(it) {
			changed = true
		}
	}
	if t.list.lazy {
		t.list.lazyStep(t.c.now().Add(lazyBudget))
		// Renumbered code labels may have made the window stale.
		t.list.ensureWindow()
	}
	return changed
}

// refreshLive brings a streaming reply's lines up to date and reports
// whether the window's content changed.
func (t *Transcript) refreshLive(it *item) bool {
	l := &t.list
	i, _ := l.pos(it.id())
	old := l.hs.get(i)
	switch {
	case !t.r.fresh(it):
		t.r.renderItem(it)
	default:
		if it.live.dirty {
			t.r.reply.refitLive(it)
		}
		if th := it.live.think; th != nil && th.dirty {
			it.d.think = t.think.renderThink(it, it.d.think[:0])
		}
	}
	l.setHeight(i, old, false)
	if it.live != nil {
		t.codes.set(i, t.codes.count(it))
	}
	changed := l.visible(i)
	if it.height() > old {
		before := l.newBelow
		l.grew(i)
		changed = changed || l.newBelow != before
	}
	return changed
}

// HandleMsg takes the result of a background render and reports whether
// msg was one (the root passes every message it does not handle itself,
// or at least every RenderedMsg). The window may change; the root keeps
// ticking while NeedsTick says so.
func (t *Transcript) HandleMsg(msg tea.Msg) bool {
	m, ok := msg.(RenderedMsg)
	if !ok || m.owner != t {
		return false
	}
	j := m.job
	if t.jobs.inflight == j {
		t.jobs.inflight = nil
		t.jobs.next = t.c.now().Add(j.elapsed)
	}
	j.cancel()
	l := &t.list
	i, it, ok := l.at(j.id)
	if !ok {
		return true
	}
	if j.doc != nil {
		if it.live != nil && it.live.doc != nil {
			it.live.doc.Apply(j.doc)
			it.live.dirty = true
			t.refreshLive(it)
			l.ensureWindow()
		}
		return true
	}
	if !it.pending || it.live != nil || it.d == nil || it.d.w != j.w || it.d.gen != j.gen || it.ver != j.ver || j.err != nil {
		return true
	}
	old := l.hs.get(i)
	it.d.body = t.c.fitReply(it.d.body[:0], j.lines, it.done())
	t.jobs.setPending(it, false)
	if j.rendered {
		t.codes.exact(it, j.codes)
	}
	l.setHeight(i, old, true)
	if it.height() > old {
		l.grew(i)
	}
	l.ensureWindow()
	return true
}
