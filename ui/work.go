package ui

import (
	"context"
	"errors"

	"parley/chat"
	"parley/ui/transcript"
)

// work is the conversation's background work: its pictures being made,
// the image pane's previews, attachments being prepared. Leaving the
// conversation ends all of it (renew); esc ends the attachments, which
// are counted so esc knows there are some.
type work struct {
	ctx, attach      context.Context
	stop, stopAttach context.CancelFunc
	attaching        int
}

// renew ends the work of the conversation being left (its decodes stop)
// and starts the next one's. The pictures asked for were the old
// conversation's; the new one's are asked for afresh.
func (w *work) renew(base context.Context, pics *pictures) {
	if w.stop != nil {
		w.stop()
	}
	w.ctx, w.stop = context.WithCancel(base)
	w.attach, w.stopAttach = context.WithCancel(w.ctx)
	w.attaching = 0
	pics.asked = map[transcript.PictureKey]bool{}
}

// startAttaching counts one more attachment job and returns the context
// it runs in; done counts it off when its result arrives.
func (w *work) startAttaching() context.Context {
	w.attaching++
	return w.attach
}

func (w *work) done() { w.attaching = max(w.attaching-1, 0) }

// arrived is the end of an attaching job for a send that waits for the
// attachments (the job is counted off already): sendNow when it was the
// last one and it added what it read; one that failed leaves the message
// in the composer, unsent, its other attachments with it (the notice
// says why), and the engine waits no more.
func (w *work) arrived(eng *chat.Engine, failed bool) (sendNow bool) {
	if eng.Waiting() != chat.WaitAttachments || w.attaching > 0 {
		return false
	}
	if failed {
		eng.Hold(chat.WaitNone)
		return false
	}
	return true
}

// stopAttaching is esc while attachments are being prepared: their
// reading and scaling stop, and what was pasted stays as text.
func (w *work) stopAttaching() {
	w.stopAttach()
	w.attach, w.stopAttach = context.WithCancel(w.ctx)
	w.attaching = 0
}

// stopped reports whether a job ended because its context did (esc, or
// the conversation was left): its result is dropped without a word.
func stopped(err error) bool { return errors.Is(err, context.Canceled) }
