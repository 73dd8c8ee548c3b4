package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"parley/api"
	"parley/config"
	"parley/conversation"
	"parley/session"
)

// flushTimeout bounds how long parley waits for the history before a
// request goes out; the disk is never allowed to hold up an answer for
// long.
const flushTimeout = 5 * time.Second

// historyFlags choose where a question is recorded.
type historyFlags struct {
	cont    bool
	session string
	noSave  bool
}

func (f *historyFlags) register(fl *pflag.FlagSet) {
	fl.BoolVarP(&f.cont, "continue", "c", false, "add to the most recent session")
	fl.StringVar(&f.session, "session", "", "add to the session with this id (any unique prefix)")
	fl.BoolVar(&f.noSave, "no-save", false, "keep nothing in the history for this run")
}

func (f historyFlags) check() error {
	switch {
	case f.cont && f.session != "":
		return usagef("--continue and --session both name a session; give one of them")
	case f.noSave && (f.cont || f.session != ""):
		return usagef("--no-save keeps nothing, so it cannot add to a session; drop --no-save or --continue/--session")
	}
	return nil
}

func (f historyFlags) resumes() bool { return f.cont || f.session != "" }

// openStore opens the history database in parley's data directory,
// redacting the keys secrets returns.
func openStore(ctx context.Context, env Env, secrets func() []string) (*session.Store, error) {
	return session.Open(ctx, session.DefaultDir(env.Getenv, env.HomeDir), session.Options{Now: env.Now, Secrets: secrets})
}

// storeOptions are the store's options for this run: its clock, and the
// keys to redact.
func (a *app) storeOptions() session.Options {
	return session.Options{Now: a.env.Now, Secrets: a.console.knownSecrets}
}

// askHistory records one `parley ask` turn: nowhere (history off), in a
// new session, or in the session being continued.
type askHistory struct {
	a      *app
	store  *session.Store
	rec    *session.Recorder
	resume *session.Session
	warned bool
	closed bool
}

// openHistory opens the history for ask. A history that cannot be opened
// is a warning (the question is still answered, and not kept) unless the
// question continues a session, which then cannot be found.
func (a *app) openHistory(ctx context.Context, cfg *config.Config, f historyFlags) (*askHistory, error) {
	h := &askHistory{a: a}
	if a.demo {
		if f.resumes() {
			return nil, usagef("the demo keeps no history, so there is no session to continue; leave out --demo to continue a saved session")
		}
		return h, nil
	}
	if f.noSave {
		return h, nil
	}
	if !cfg.History {
		if f.resumes() {
			return nil, usagef("there is no session to continue: history = false in %s; remove that line to keep sessions", a.displayPath(cfg.Path))
		}
		return h, nil
	}
	store, err := openStore(ctx, a.env, a.console.knownSecrets)
	if err != nil {
		if f.resumes() {
			return nil, err
		}
		a.console.warn(err.Error() + "; this question and its answer are not kept")
		return h, nil
	}
	h.store = store
	if !f.resumes() {
		return h, nil
	}
	id, err := resolveSession(ctx, store, f.session)
	if err != nil {
		store.Close()
		return nil, err
	}
	s, err := store.Load(ctx, id)
	if err != nil {
		store.Close()
		return nil, err
	}
	h.resume = &s
	return h, nil
}

// resolveSession turns an id prefix into a session id, or "" into the
// most recent session. Ids that match nothing, or several sessions, are
// usage errors: the command has to change.
func resolveSession(ctx context.Context, store *session.Store, prefix string) (string, error) {
	if prefix == "" {
		m, err := store.Latest(ctx)
		if errors.Is(err, session.ErrNotFound) {
			return "", usagef("there is no saved session to continue yet; start one without --continue first")
		}
		return m.ID, err
	}
	id, err := store.Resolve(ctx, prefix)
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
		return "", usage(err)
	}
	return id, err
}

// model is the continued session's model ("" for a new session).
func (h *askHistory) model() string {
	if h.resume == nil {
		return ""
	}
	return h.resume.Model
}

func (h *askHistory) continued() bool { return h.resume != nil }

// role and params are the continued session's role and /set parameters
// (none for a new session).
func (h *askHistory) role() string {
	if h.resume == nil {
		return ""
	}
	return h.resume.Snapshot.Role
}

func (h *askHistory) params() api.Params {
	if h.resume == nil {
		return api.Params{}
	}
	return h.resume.Snapshot.Params
}

// conversation returns the conversation the turn goes into, recorded
// when the history is on. A new one gets systemPrompt; a continued one
// keeps its own.
func (h *askHistory) conversation(now func() time.Time, systemPrompt string) *conversation.Conversation {
	opts := conversation.Options{Now: now}
	if h.store != nil {
		// Its own context: an interrupted question must still be written.
		h.rec = h.store.NewRecorder(context.Background())
		opts.Listeners = []conversation.Listener{h.rec}
	}
	if h.resume != nil {
		opts.ID = h.resume.ID
		return conversation.Restore(opts, h.resume.Snapshot)
	}
	opts.SystemPrompt = systemPrompt
	return conversation.New(opts)
}

// flushFunc is the recorder's flush, for the engine to call before the
// question goes out (nil without history).
func (h *askHistory) flushFunc() func(context.Context) error {
	if h.rec == nil {
		return nil
	}
	return h.rec.Flush
}

// close writes what is left and closes the history. What could not be
// written in the end, or a session deleted meanwhile, is said once.
func (h *askHistory) close() {
	if h == nil || h.closed {
		return
	}
	h.closed = true
	if h.rec != nil {
		err := h.rec.Close()
		for e := range h.rec.Errors() {
			if err == nil && errors.Is(e, session.ErrSessionDeleted) {
				err = e
			}
		}
		if err != nil {
			h.report(err)
		}
	}
	if h.store != nil {
		h.store.Close()
	}
}

func (h *askHistory) report(err error) {
	if h.warned {
		return
	}
	h.warned = true
	h.a.console.warn(fmt.Sprintf("%v; the answer is not kept in the history", err))
}

// TUIHistory is what the chat needs of the history.
type TUIHistory struct {
	// Store is the open history; nil when history is off for this run
	// (cli closes it after the chat returns).
	Store *session.Store
	// Off says why Store is nil, for the status bar: "history = false",
	// "--no-save", or the store's error (which names the file and what to
	// do). "" when Store is set.
	Off string
	// SessionID is the session to reopen (--continue, --session); "" for a
	// new conversation.
	SessionID string
	// AutoTitle: ask the model for a short title in the background.
	AutoTitle bool
}

// tuiHistory opens the history for the chat. A history that cannot be
// opened turns it off for the run (the chat says why) unless a session is
// to be reopened, which is then an error.
func (a *app) tuiHistory(ctx context.Context, cfg *config.Config, f historyFlags) (TUIHistory, error) {
	h := TUIHistory{AutoTitle: cfg.AutoTitle}
	switch {
	case a.demo:
		if f.resumes() {
			return h, usagef("the demo keeps no history, so there is no session to reopen; leave out --demo to continue a saved session")
		}
		h.Off = "demo"
		return h, nil
	case f.noSave:
		h.Off = "--no-save"
		return h, nil
	case !cfg.History:
		if f.resumes() {
			return h, usagef("there is no session to reopen: history = false in %s; remove that line to keep sessions", a.displayPath(cfg.Path))
		}
		h.Off = "history = false"
		return h, nil
	}
	if !f.resumes() {
		// A new conversation needs nothing from the history to draw its
		// first frame: the database opens meanwhile, and the chat says
		// so if it cannot (closeTUIHistory repeats it after the chat).
		// The open outlives a signal that ends the chat, as the recorder
		// does, so a turn sent before it finished is still written; the
		// busy timeout bounds it.
		h.Store = session.Start(context.WithoutCancel(ctx), session.DefaultDir(a.env.Getenv, a.env.HomeDir), a.storeOptions())
		return h, nil
	}
	store, err := openStore(ctx, a.env, a.console.knownSecrets)
	if err != nil {
		return h, err
	}
	id, err := resolveSession(ctx, store, f.session)
	if err != nil {
		store.Close()
		return h, err
	}
	h.SessionID = id
	h.Store = store
	return h, nil
}

// closeTUIHistory closes the chat's store. A store that could not be
// opened is said again on stderr: the chat said it on its screen, which
// is gone, and this stays in the terminal's scrollback.
func (a *app) closeTUIHistory(h TUIHistory) {
	if h.Store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := h.Store.Opened(ctx); err != nil && ctx.Err() == nil {
		a.console.warn(err.Error())
	}
	h.Store.Close()
}
