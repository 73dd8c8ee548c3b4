package ui

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/session"
)

// storeOpenedMsg says how the open of the history database ended. A new
// chat's store opens in the background while the first frame is drawn
// (session.Start); what uses it before then waits for it.
type storeOpenedMsg struct {
	store *session.Store
	err   error
}

// waitStoreOpen waits for the store's open; it brings nothing when ctx
// (the chat's) ends first.
func waitStoreOpen(ctx context.Context, store *session.Store) tea.Cmd {
	return func() tea.Msg {
		err := store.Opened(ctx)
		if ctx.Err() != nil {
			return nil
		}
		return storeOpenedMsg{store: store, err: err}
	}
}

// openFailed reports whether store could not be opened (not that ctx ended
// first). A command that finds so does what it does without history and
// leaves the word about it to waitStoreOpen: the failure is said once.
func openFailed(ctx context.Context, store *session.Store) bool {
	return store.Opened(ctx) != nil && ctx.Err() == nil
}

// storeOpened turns history off for the run when the store could not be
// opened and words why, as a store that fails to open before the chat
// starts is said ("" when it opened). Its recorder has stopped on its
// own, quietly: this is the one word about it.
func (h *history) storeOpened(msg storeOpenedMsg) string {
	if msg.err == nil || msg.store != h.Store {
		return ""
	}
	h.Store, h.Off = nil, msg.err.Error()
	return "history is off for this run: " + msg.err.Error()
}

// stillOpeningAfter is how long after the chat ends a store still opening
// is waited for without a word.
const stillOpeningAfter = 200 * time.Millisecond

// sayIfStillOpening tells out when store has not finished opening within
// stillOpeningAfter: what the chat holds is written once it has.
func sayIfStillOpening(store *session.Store, out io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), stillOpeningAfter)
	defer cancel()
	if store.Opened(ctx) != nil && ctx.Err() != nil && out != nil {
		_, _ = io.WriteString(out, "parley: saving the conversation once the history database opens (another program is using it)…\n")
	}
}
