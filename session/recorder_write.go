package session

import (
	"errors"
	"slices"

	"parley/api"
	"parley/conversation"
)

// write applies what failed before and then a new batch, in order. A
// progress change is skipped when a later change rewrites the same message
// anyway, and a draft when a later draft of its session replaces it, so a
// writer that fell behind catches up with one write per message. The
// first write that fails stops the run: it and everything after it wait
// in pending for the next try, and every flush after it gets the failure.
func (r *Recorder) write(batch []item) {
	items := append(r.pending, batch...)
	r.pending = nil
	var blocked error
	for i, it := range items {
		switch {
		case it.flush != nil:
			it.flush <- blocked
			continue
		case it.draft != nil && draftSuperseded(items[i+1:], it.draft),
			it.draft == nil && it.copy == nil && superseded(items[i+1:], it.change):
			continue // also while blocked: what waits stays one item per message
		case blocked != nil:
			r.pending = append(r.pending, it)
			continue
		}
		if err, gone := r.deleted[it.sessionID()]; gone {
			r.dropDeleted(it, err)
			continue
		}
		err := r.apply(it)
		switch {
		case err == nil:
			r.failing, r.pause = false, 0
		case r.ctx.Err() != nil:
			return // stopped: what is left is dropped
		case errors.Is(err, ErrSessionDeleted):
			r.dropDeleted(it, err)
			r.failing, r.pause = false, 0
		default:
			blocked = err
			r.pending = append(r.pending, it)
			r.failed(err)
		}
	}
}

// apply writes one item. A conversation held back because no reply of it
// reached a model is written back whole before it goes on.
func (r *Recorder) apply(it item) error {
	if it.draft != nil {
		r.meet(it.draft.sessionID)
		return r.s.SaveDraft(r.ctx, it.draft.sessionID, it.draft.text, it.draft.atts)
	}
	if it.copy != nil {
		return r.s.restore(r.ctx, it.copy.sessionID, it.copy.held)
	}
	ch := it.change
	r.meet(ch.ConversationID)
	if r.numbers == nil {
		r.numbers = numberings{}
	}
	n := r.numbers.of(ch)
	if h := r.held[ch.ConversationID]; h != nil {
		switch ch.Kind {
		case conversation.ChangeRemove:
			h.msgs = slices.DeleteFunc(h.msgs, func(m conversation.Message) bool {
				return slices.ContainsFunc(ch.Removed, func(id int) bool { seq, ok := n.seq(id); return ok && seq == m.ID })
			})
			h.leaf = n.leaf(ch)
			if len(h.msgs) == 0 {
				delete(r.held, ch.ConversationID)
			}
			return nil
		case conversation.ChangeTitle, conversation.ChangeSystem, conversation.ChangeSettings, conversation.ChangeSwitch:
			h.title, h.system = ch.Title, ch.SystemPrompt
			h.role, h.params = ch.Role, ch.Params
			if ch.Kind == conversation.ChangeSwitch {
				h.leaf = n.leaf(ch)
			}
			h.titled = h.titled || ch.Kind == conversation.ChangeTitle
			return nil
		case conversation.ChangeExclude:
			seq, ok := n.seq(ch.Message.ID)
			for i := range h.msgs {
				if ok && h.msgs[i].ID == seq {
					h.msgs[i].Excluded = ch.Message.Excluded
				}
			}
			return nil
		}
		if err := r.s.restore(r.ctx, ch.ConversationID, h); err != nil {
			return err
		}
		delete(r.held, ch.ConversationID)
	}
	res, err := r.s.apply(r.ctx, ch, n)
	if err != nil {
		return err
	}
	if res.others > 0 {
		r.tell(Added{SessionID: ch.ConversationID, Messages: res.others})
	}
	if ch.Kind == conversation.ChangeUpdate && unreached(ch.Message) && r.fresh[ch.ConversationID] {
		h, err := r.s.takeUnreached(r.ctx, ch.ConversationID)
		if err != nil {
			return err
		}
		if h != nil {
			if r.held == nil {
				r.held = map[string]*heldSession{}
			}
			r.held[ch.ConversationID] = h
		}
	}
	return nil
}

// meet notes, the first time the recorder writes for a conversation,
// whether its session is new: only a session this recorder made is taken
// out again when no reply of it reached a model, never one that was
// stored before (reopened from the history). A failed look counts as not
// new.
func (r *Recorder) meet(id string) {
	if _, known := r.fresh[id]; known {
		return
	}
	if r.fresh == nil {
		r.fresh = map[string]bool{}
	}
	exists, err := r.s.hasSession(r.ctx, id)
	r.fresh[id] = err == nil && !exists
}

// failed reports a write failure once per run of failures, and sets the
// pause before the next try: doubled each time, within [retryMin,
// retryMax].
func (r *Recorder) failed(err error) {
	r.lastErr = err
	r.pause = min(max(2*r.pause, retryMin), retryMax)
	if r.failing {
		return
	}
	r.failing = true
	r.report(err)
}

// dropDeleted forgets a conversation whose session was deleted on purpose:
// nothing more of it is written. Losing a new message is said, once per
// conversation (deleted keeps the error until then, nil after).
func (r *Recorder) dropDeleted(it item, err error) {
	id := it.sessionID()
	if r.deleted == nil {
		r.deleted = map[string]error{}
	}
	if _, known := r.deleted[id]; !known {
		r.deleted[id] = err
	}
	delete(r.held, id)
	if ch := it.change; r.deleted[id] != nil && it.draft == nil && ch.Kind == conversation.ChangeAppend && ch.Message != nil && ch.Message.Role == api.RoleUser {
		r.report(r.deleted[id])
		r.deleted[id] = nil
	}
}

func (r *Recorder) report(err error) {
	select {
	case r.errs <- err:
	default: // the previous report is still unread
	}
}

// tell delivers an Added report unless addedBuffer of them are unread.
func (r *Recorder) tell(a Added) {
	select {
	case r.added <- a:
	default:
	}
}

func draftSuperseded(later []item, d *draft) bool {
	for _, it := range later {
		if it.draft != nil && it.draft.sessionID == d.sessionID {
			return true
		}
	}
	return false
}

// superseded reports whether a later change makes writing ch useless: a
// later progress or end of the same reply for a progress, a later
// switch, append or removal in the conversation for a switch (they write
// the active leaf, all a switch writes).
func superseded(later []item, ch conversation.Change) bool {
	if ch.Kind == conversation.ChangeSwitch {
		for _, it := range later {
			c := it.change
			if it.flush == nil && it.draft == nil && c.ConversationID == ch.ConversationID &&
				(c.Kind == conversation.ChangeSwitch || c.Kind == conversation.ChangeAppend || c.Kind == conversation.ChangeRemove) {
				return true
			}
		}
		return false
	}
	if ch.Kind != conversation.ChangeProgress {
		return false
	}
	for _, it := range later {
		c := it.change
		if it.flush == nil && it.draft == nil && c.ConversationID == ch.ConversationID && c.Message != nil && c.Message.ID == ch.Message.ID &&
			(c.Kind == conversation.ChangeProgress || c.Kind == conversation.ChangeUpdate) {
			return true
		}
	}
	return false
}
