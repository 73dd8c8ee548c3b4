package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/conversation"
	"parley/session"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// History is the chat's sessions store and what to open at start.
type History struct {
	// Store is the history database; nil when history is off this run.
	Store *session.Store
	// Off says why Store is nil ("--no-save", "history = false", "demo",
	// or the store's error, which names the file and what to do).
	Off string
	// SessionID is the session to reopen (--continue, --session).
	SessionID string
	// AutoTitle asks the model for a short title after the first reply.
	AutoTitle bool
}

// Timing of the history's background work.
const (
	// draftDelay is how long after the last edit the draft is saved: a
	// crash loses at most that much typing.
	draftDelay = time.Second
	// storeTimeout bounds one store call made for the UI.
	storeTimeout = 10 * time.Second
	// tailWindow is how many messages a session opens with; the rest
	// follows right after the first frame.
	tailWindow = 200
	// settleMessages is the size of a session after whose opening the
	// heap is collected once (settleHeap).
	settleMessages = 1000
)

// settleHeap collects the heap once, after a long session opened: the
// collector then sizes its next goal from what the session keeps, not
// from what reading it had in hand (the rows, the window shown first),
// which would let the heap grow twice as far during the next reply.
func settleHeap() tea.Msg {
	runtime.GC()
	return nil
}

// longSessionGCPercent is the collector's headroom (GOGC) while a session
// of settleMessages or more is open. At the default 100 the heap may grow
// to twice what is live, and what is live is mostly the session's text
// and the structures that hold it, which stay: 10,000 messages made the
// chat peak 27–31 MB above a fresh one. At 20 it peaks 18–20 MB above, for
// collections that cost a streamed reply 0.06–0.12 s of CPU more than a
// fresh chat's (the budget is 0.3 s) and paging through all of it 7 % more
// (BENCHMARKS.md, "Long-history memory").
const longSessionGCPercent = 20

// setHeapFor sets the collector's headroom for a conversation of n
// messages, unless GOGC says what the user wants.
func setHeapFor(n int, getenv func(string) string) {
	if getenv != nil && getenv("GOGC") != "" {
		return
	}
	if n >= settleMessages {
		debug.SetGCPercent(longSessionGCPercent)
	} else {
		debug.SetGCPercent(100)
	}
}

// recorderFailedMsg is a write failure of the sessions store.
type recorderFailedMsg struct {
	rec *session.Recorder
	err error
}

// waitRecorder returns the next write failure; it ends when the recorder
// stops.
func waitRecorder(rec *session.Recorder) tea.Cmd {
	return func() tea.Msg {
		err, ok := <-rec.Errors()
		if !ok {
			return nil
		}
		return recorderFailedMsg{rec: rec, err: err}
	}
}

// update takes the sessions store's messages: write failures, what
// another process added to the session, the draft, a proposed title; say
// is what to tell the user, and ok reports msg was one of them.
func (h *history) update(msg tea.Msg, conv *conversation.Conversation, c *composer, km keys.Map) (cmd tea.Cmd, say noticeResult, ok bool) {
	switch msg := msg.(type) {
	case storeOpenedMsg:
		return nil, noticeResult{h.storeOpened(msg), toastWarn}, true
	case recorderFailedMsg:
		text, wait := h.recorderFailed(msg)
		return wait, noticeResult{text, toastWarn}, true
	case othersAddedMsg:
		text, wait := h.othersAdded(msg, conv.ID(), firstKey(km.Sessions, "alt+s"))
		return wait, noticeResult{text, toastInfo}, true
	case draftTickMsg:
		if msg.gen == h.draft.gen {
			return h.saveDraft(conv.ID(), c), noticeResult{}, true
		}
		return nil, noticeResult{}, true
	case draftSavedMsg:
		return nil, noticeResult{h.draftSaved(msg), toastWarn}, true
	case autoTitleMsg:
		autoTitled(msg, conv)
		return nil, noticeResult{}, true
	}
	return nil, noticeResult{}, false
}

// recorderFailed words a write failure of the recorder and waits for the
// next one ("" for a failure of an earlier recorder).
func (h *history) recorderFailed(msg recorderFailedMsg) (string, tea.Cmd) {
	if msg.rec != h.rec {
		return "", nil
	}
	return "could not save the conversation: " + msg.err.Error() + " (the chat goes on; what is on screen is not lost)", waitRecorder(msg.rec)
}

// sessionLoadedMsg brings a stored session: its last messages first (full
// is false), then all of them.
type sessionLoadedMsg struct {
	gen  int
	id   string
	full bool
	sess session.Session
	text string // the draft
	atts []api.Attachment
	jump int // message to show (a search hit), 0 for the end
	err  error
}

// loadSession reads a session in the background: the tail window first
// (so a long session shows at once), then everything.
func loadSession(store *session.Store, gen int, id string, full bool, jump int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		msg := sessionLoadedMsg{gen: gen, id: id, full: full, jump: jump}
		switch {
		case full && jump != 0:
			// A search hit: its branch becomes the one shown.
			msg.sess, msg.err = store.OpenAt(ctx, id, jump)
		case full:
			msg.sess, msg.err = store.Load(ctx, id)
		default:
			msg.sess, msg.err = store.LoadTail(ctx, id, tailWindow)
			if msg.err == nil {
				msg.text, msg.atts, msg.err = store.Draft(ctx, id)
			}
		}
		return msg
	}
}

// openSession starts opening a stored session (from --continue, the
// browser or a search hit). The conversation on screen stays until it
// arrives.
func (m *Model) openSession(id string, jump int) tea.Cmd {
	if m.hist.Store == nil {
		return nil
	}
	m.interruptStream()
	m.hist.loadGen++
	m.hist.loading = id
	return tea.Batch(m.hist.saveDraft(m.eng.Conv().ID(), &m.comp), loadSession(m.hist.Store, m.hist.loadGen, id, jump != 0, jump))
}

func (m *Model) sessionLoaded(msg sessionLoadedMsg) tea.Cmd {
	if msg.gen != m.hist.loadGen {
		return nil
	}
	if msg.err != nil {
		m.hist.loading = ""
		if snap, notice, ok := damagedWindow(msg, m.eng.Conv()); ok && m.hist.rec != nil {
			// Its messages are written to the new session before anything
			// the chat adds to it.
			id := conversation.NewID()
			m.hist.rec.Copy(id, snap)
			m.openConversation(m.eng.Restore(id, snap), len(snap.Messages))
			cmds := []tea.Cmd{m.notes.show(notice, toastWarn)}
			if m.eng.Waiting() == chat.WaitSession {
				cmds = append(cmds, m.send())
			}
			return tea.Batch(cmds...)
		}
		return m.notes.show("could not open the session: "+msg.err.Error(), toastErr)
	}
	complete := msg.full || msg.sess.Messages <= len(msg.sess.Snapshot.Messages)
	m.interruptStream()
	m.openConversation(m.eng.Restore(msg.id, msg.sess.Snapshot), len(msg.sess.Snapshot.Messages))
	// The whole session, read next, is read with the headroom it will have.
	setHeapFor(max(msg.sess.Messages, len(msg.sess.Snapshot.Messages)), m.opts.Getenv)
	if msg.sess.Model != "" && !m.opts.ModelGiven {
		// A reopened session goes on with its own model unless --model
		// said otherwise.
		m.eng.SetModel(msg.sess.Model)
	}
	var draft tea.Cmd
	if !msg.full {
		m.comp.reset()
		m.comp.setAttachments(msg.atts)
		draft = m.notes.say(m.comp.restoreDraft(msg.text))
		m.hist.draft.saved, m.hist.draft.savedAtts = msg.text, len(msg.atts)
		m.hist.draft.key = itoa(m.comp.gen)
	}
	if msg.jump != 0 {
		m.tr.List().ScrollTo(msg.jump)
	}
	cmds := []tea.Cmd{prepareClient(m.eng.Clients(), m.eng.Model()), draft}
	if complete {
		if len(msg.sess.Snapshot.Messages) >= settleMessages {
			cmds = append(cmds, settleHeap)
		}
		m.hist.loading = ""
		if m.eng.Waiting() == chat.WaitSession {
			cmds = append(cmds, m.send())
		}
	} else {
		cmds = append(cmds, loadSession(m.hist.Store, m.hist.loadGen, msg.id, true, 0))
	}
	return tea.Batch(cmds...)
}

// draftTickMsg saves the draft once the composer rests.
type draftTickMsg struct{ gen int }

// draftSavedMsg reports a draft write: its text and number of images.
type draftSavedMsg struct {
	text string
	atts int
	err  error
}

// draftChanged schedules a save of the composer's draft when its content
// changed since the last look (it runs at the end of every Update). The
// key is the content's generation, so a look costs nothing however long
// the text.
func (h *history) draftChanged(c *composer) tea.Cmd {
	if h.Store == nil || h.loading != "" || c.editing {
		return nil
	}
	key := itoa(c.gen)
	if key == h.draft.key {
		return nil
	}
	h.draft.key = key
	h.draft.gen++
	gen := h.draft.gen
	return tea.Tick(draftDelay, func(time.Time) tea.Msg { return draftTickMsg{gen: gen} })
}

// saveDraft writes the composer's draft in the background. An edit of a
// sent message is not a draft of a new one.
func (h *history) saveDraft(convID string, c *composer) tea.Cmd {
	if h.Store == nil || h.loading != "" || c.editing {
		return nil
	}
	store := h.Store
	text, atts := c.value(), append([]api.Attachment(nil), c.attachments...)
	if text == h.draft.saved && len(atts) == 0 && h.draft.savedAtts == 0 {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if openFailed(ctx, store) {
			return nil // no history this run: waitStoreOpen says so
		}
		return draftSavedMsg{text: text, atts: len(atts), err: store.SaveDraft(ctx, convID, text, atts)}
	}
}

// draftSaved takes the result of a draft write; it returns what to tell
// the user ("" when it was written).
func (h *history) draftSaved(msg draftSavedMsg) string {
	if msg.err != nil {
		return "could not keep the draft: " + msg.err.Error()
	}
	h.draft.saved, h.draft.savedAtts = msg.text, msg.atts
	return ""
}

// close runs when the program has stopped: the draft is written and the
// recorder flushes what is queued. Its error says what could not be saved
// after all (the screen is gone: the caller prints it). A store still
// opening then (another program holds the database) is waited for, and
// out is told so, so the wait does not look like a hang.
func (h *history) close(convID string, c *composer, out io.Writer) error {
	if h.Store == nil || h.rec == nil {
		return nil
	}
	sayIfStillOpening(h.Store, out)
	if !c.editing && h.loading == "" {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		_ = h.Store.SaveDraft(ctx, convID, c.value(), c.attachments)
		cancel()
	}
	if err := h.rec.Close(); err != nil {
		return fmt.Errorf("some of the conversation could not be saved (%w); what was saved before is kept", err)
	}
	return nil
}

// status is the status bar's word on history ("" when it is on).
func (h *history) status(ctx *uictx.Context) string {
	if h.Store != nil || h.Off == "" || h.Off == "demo" {
		return ""
	}
	switch h.Off {
	case "--no-save", "history = false":
		return "history off"
	}
	return "history off: see " + noticesHow(ctx)
}

// autoTitleMsg brings a title the model proposed.
type autoTitleMsg struct {
	convID string
	title  string
}

// autoTitle asks the model for a short title once the first reply of a
// conversation is done (auto_title = true); client is the model's client,
// nil when it is not built.
func (h *history) autoTitle(base context.Context, conv *conversation.Conversation, client *api.Client, model string) tea.Cmd {
	if !h.AutoTitle || conv.Len() != 2 || client == nil {
		return nil
	}
	u, ok := conv.LastUser()
	r, ok2 := conv.LastReply()
	if !ok || !ok2 || r.State != conversation.StateDone {
		return nil
	}
	convID := conv.ID()
	prompt := "Write a title of at most six words for a conversation that starts with the message below. Reply with the title only, no quotes.\n\n" + firstRunes(u.Text, 2000)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(base, 30*time.Second)
		defer cancel()
		resp, err := client.Chat(ctx, api.ChatRequest{Model: model, Messages: []api.Message{api.TextMessage(api.RoleUser, prompt)}})
		if err != nil || resp == nil {
			return nil
		}
		return autoTitleMsg{convID: convID, title: resp.Text()}
	}
}

// autoTitled gives the conversation the title the model proposed, unless
// it has one by now (or is another conversation).
func autoTitled(msg autoTitleMsg, conv *conversation.Conversation) {
	t := conversation.MakeTitle(strings.Trim(strings.TrimSpace(msg.title), `"'`))
	if msg.convID != conv.ID() || t == "" || conv.Snapshot().Titled {
		return
	}
	conv.SetTitle(t)
}

func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// off is the answer of history commands while history is off.
func (h *history) off() error {
	if h.Off == "" {
		return errors.New("history is not available in this run")
	}
	return errors.New("history is off for this run (" + h.Off + ")")
}

// history is the chat's side of the sessions store: the store and what to
// open (History), its recorder, the session being opened (loading is its
// id, loadGen numbers openings) and the draft.
type history struct {
	History
	rec     *session.Recorder
	loading string
	loadGen int
	draft   draftState
}

// draftState is the composer's draft: what was last written, a key of the
// composer's content, and the number of the pending save.
type draftState struct {
	saved, key string
	savedAtts  int
	gen        int
}
