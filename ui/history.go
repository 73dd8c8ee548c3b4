package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/session"
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
)

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

func (m *Model) recorderFailed(msg recorderFailedMsg) tea.Cmd {
	if msg.rec != m.hist.rec {
		return nil
	}
	return tea.Batch(m.notify("could not save the conversation: "+msg.err.Error()+" (the chat goes on; what is on screen is not lost)", toastWarn), waitRecorder(msg.rec))
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
		if full {
			msg.sess, msg.err = store.Load(ctx, id)
		} else {
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
	return tea.Batch(m.saveDraftNow(), loadSession(m.hist.Store, m.hist.loadGen, id, jump != 0, jump))
}

func (m *Model) sessionLoaded(msg sessionLoadedMsg) tea.Cmd {
	if msg.gen != m.hist.loadGen {
		return nil
	}
	if msg.err != nil {
		m.hist.loading = ""
		return m.notify("could not open the session: "+msg.err.Error(), toastErr)
	}
	complete := msg.full || msg.sess.Messages <= len(msg.sess.Snapshot.Messages)
	m.interruptStream()
	m.openConversation(msg.sess.Snapshot, msg.id)
	if msg.sess.Model != "" && m.opts.Model == "" {
		m.model = msg.sess.Model
	}
	if !msg.full {
		m.comp.reset()
		m.comp.setValue(msg.text)
		m.comp.setAttachments(msg.atts)
		m.hist.draft.saved = msg.text
		m.hist.draft.key = msg.text + "\x00" + itoa(len(msg.atts))
	}
	if msg.jump != 0 {
		m.tr.ScrollTo(msg.jump)
	}
	cmds := []tea.Cmd{m.clients.prepare(m.model)}
	if complete {
		m.hist.loading = ""
		if m.turn.pendingSend {
			cmds = append(cmds, m.send())
		}
	} else {
		cmds = append(cmds, loadSession(m.hist.Store, m.hist.loadGen, msg.id, true, 0))
	}
	return tea.Batch(cmds...)
}

// draftTickMsg saves the draft once the composer rests.
type draftTickMsg struct{ gen int }

// draftSavedMsg reports a draft write.
type draftSavedMsg struct {
	text string
	err  error
}

// draftChanged schedules a save of the composer's draft when its content
// changed since the last look (it runs at the end of every Update).
func (m *Model) draftChanged() tea.Cmd {
	if m.hist.Store == nil || m.hist.loading != "" || m.comp.editing {
		return nil
	}
	key := m.comp.value() + "\x00" + itoa(len(m.comp.attachments))
	if key == m.hist.draft.key {
		return nil
	}
	m.hist.draft.key = key
	m.hist.draft.gen++
	gen := m.hist.draft.gen
	return tea.Tick(draftDelay, func(time.Time) tea.Msg { return draftTickMsg{gen: gen} })
}

// saveDraftNow writes the composer's draft in the background.
func (m *Model) saveDraftNow() tea.Cmd {
	if m.hist.Store == nil || m.hist.loading != "" {
		return nil
	}
	store, id := m.hist.Store, m.conv.ID()
	text, atts := m.comp.value(), append([]api.Attachment(nil), m.comp.attachments...)
	if m.comp.editing {
		// An edit of a sent message is not a draft of a new one.
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		return draftSavedMsg{text: text, err: store.SaveDraft(ctx, id, text, atts)}
	}
}

func (m *Model) draftSavedResult(msg draftSavedMsg) tea.Cmd {
	if msg.err != nil {
		return m.notify("could not keep the draft: "+msg.err.Error(), toastWarn)
	}
	m.hist.draft.saved = msg.text
	return nil
}

// closeHistory runs when the program has stopped: the draft is written
// and the recorder flushes what is queued.
func (m *Model) closeHistory() {
	if m.hist.Store == nil || m.hist.rec == nil {
		return
	}
	if !m.comp.editing && m.hist.loading == "" {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		_ = m.hist.Store.SaveDraft(ctx, m.conv.ID(), m.comp.value(), m.comp.attachments)
		cancel()
	}
	_ = m.hist.rec.Close()
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

// maybeAutoTitle asks the model for a short title once the first reply of
// a conversation is done (auto_title = true).
func (m *Model) maybeAutoTitle() tea.Cmd {
	if !m.hist.AutoTitle || m.conv.Len() != 2 {
		return nil
	}
	u, ok := m.conv.LastUser()
	r, ok2 := m.conv.LastReply()
	if !ok || !ok2 || r.State != conversation.StateDone {
		return nil
	}
	client, ok := m.clients.ready(m.model)
	if !ok {
		return nil
	}
	convID, model, base := m.conv.ID(), m.model, m.base
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

func (m *Model) autoTitled(msg autoTitleMsg) tea.Cmd {
	t := conversation.MakeTitle(strings.Trim(strings.TrimSpace(msg.title), `"'`))
	if msg.convID != m.conv.ID() || t == "" || m.conv.Snapshot().Titled {
		return nil
	}
	m.conv.SetTitle(t)
	return nil
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

// errNotOpen is the answer of history commands while history is off.
func (m *Model) historyOff() error {
	if m.hist.Off == "" {
		return errors.New("history is not available in this run")
	}
	return errors.New("history is off for this run (" + m.hist.Off + ")")
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
	gen        int
}
