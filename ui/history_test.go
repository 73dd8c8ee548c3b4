package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
	"parley/session"
)

// openStore opens a real history database in a temporary directory.
func openStore(t *testing.T) *session.Store {
	t.Helper()
	st, err := session.Open(context.Background(), t.TempDir(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func withHistory(h History) harnessOpt { return func(o *Options) { o.History = h } }

// flush waits until the recorder wrote everything queued.
func flush(t *testing.T, h *harness) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.m.hist.rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// The chat records every turn in the store, and a later chat reopens it
// (--continue) with the transcript, the model and the draft.
func TestChatRecordsAndReopens(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 100, 30, withHistory(History{Store: st}))
	replyWith(t, h, "stored answer about lighthouses")
	flush(t, h)
	id := h.eng.Conv().ID()
	h.typeText("half-typed follow-up")
	h.m.hist.close(h.eng.Conv().ID(), &h.m.comp, nil) // what Run does after the program stops

	s, err := st.Load(context.Background(), id)
	if err != nil || len(s.Snapshot.Messages) != 2 || s.Snapshot.Messages[1].Text != "stored answer about lighthouses" {
		t.Fatalf("stored %+v (%v)", s.Snapshot.Messages, err)
	}

	again := newHarness(t, 100, 30, withHistory(History{Store: st, SessionID: id}))
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.eng.Conv().ID() == id && again.opening() == "" })
	scr := again.screen()
	if !strings.Contains(scr, "stored answer about lighthouses") || again.draft() != "half-typed follow-up" {
		t.Fatalf("reopened: composer %q\n%s", again.draft(), scr)
	}
	// The next turn continues the stored conversation.
	again.srv.Enqueue(apitest.Reply{Text: "second answer"})
	again.key("enter")
	again.wait("reply", func() bool { return !again.streaming() })
	if msgs := again.srv.Requests()[0].Chat.Messages; len(msgs) != 3 || msgs[1].Content.PlainText() != "stored answer about lighthouses" {
		t.Fatalf("the request does not continue the session: %+v", msgs)
	}
}

// A reply that was streaming when parley died comes back interrupted.
func TestReopenedStreamingReplyIsInterrupted(t *testing.T) {
	st := openStore(t)
	rec := st.NewRecorder(context.Background())
	c := conversation.New(conversation.Options{Listeners: []conversation.Listener{rec}, ProgressEvery: time.Nanosecond})
	turn, err := c.Begin(&conversation.UserInput{Text: "tell me"}, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	c.Receive(turn, "the first half", nil, "")
	if err := rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 80, 24, withHistory(History{Store: st}))
	h.run(h.m.openSession(c.ID(), 0))
	h.wait("the session", func() bool { return h.eng.Conv().ID() == c.ID() && h.opening() == "" })
	r, _ := h.eng.Conv().LastReply()
	if r.State != conversation.StateInterrupted || r.Text != "the first half" {
		t.Fatalf("reply %+v", r)
	}
}

// The browser finds a word of an older session by full-text search and
// opens that session at that message.
func TestBrowserSearchOpensAtMessage(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 100, 30, withHistory(History{Store: st}))
	replyWith(t, h, "The zeppelin hangar was enormous.")
	old := h.eng.Conv().ID()
	flush(t, h)
	h.key("ctrl+l") // with history on screen, a first press arms
	h.key("ctrl+l")
	replyWith(t, h, "something else entirely")
	flush(t, h)

	h.key("alt+s")
	if h.m.layerName() != "sessions" {
		t.Fatalf("top %q", h.m.layerName())
	}
	h.wait("the list", func() bool { return strings.Contains(h.screen(), "Sessions · 2") })
	h.typeText("zeppel")
	h.wait("a search hit", func() bool { return strings.Contains(h.screen(), "Messages with") })
	// The message hit is the last row: end selects it.
	h.key("end")
	h.key("enter")
	h.wait("the old session", func() bool { return h.eng.Conv().ID() == old && h.opening() == "" })
	if !strings.Contains(h.screen(), "zeppelin hangar") {
		t.Fatalf("not at the message:\n%s", h.screen())
	}
}

// History off says so in the status bar; a store error says what to do.
func TestHistoryOffIsShown(t *testing.T) {
	h := newHarness(t, 100, 30, withHistory(History{Off: "--no-save"}))
	if !strings.Contains(h.screen(), "history off") {
		t.Fatalf("no history marker:\n%s", h.screen())
	}
	h.key("alt+s")
	if h.m.layerName() != "" || !strings.Contains(h.screen(), "--no-save") {
		t.Fatalf("browser without history:\n%s", h.screen())
	}
	broken := newHarness(t, 100, 30, withHistory(History{Off: "the history database /x/parley.db is damaged; move it aside"}))
	if !strings.Contains(broken.screen(), "history is off for this run") {
		t.Fatalf("no banner:\n%s", broken.screen())
	}
}

// In the browser, ctrl+r renames the highlighted session and ctrl+x
// deletes it after a y; /export writes the open conversation to a file.
func TestBrowserRenameDeleteAndExport(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 100, 30, withHistory(History{Store: st}))
	replyWith(t, h, "an answer worth keeping")
	flush(t, h)
	id := h.eng.Conv().ID()

	out := filepath.Join(t.TempDir(), "talk.md")
	h.typeText("/export " + out)
	h.key("enter")
	h.wait("the export", func() bool { return strings.Contains(h.screen(), "exported to") })
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "an answer worth keeping") {
		t.Fatalf("export: %v\n%s", err, b)
	}

	h.key("alt+s")
	h.wait("the list", func() bool { return strings.Contains(h.screen(), "Sessions · 1") })
	h.key("ctrl+r")
	h.key("ctrl+u")
	h.typeText("Renamed talk")
	h.key("enter")
	h.wait("the new title", func() bool { return strings.Contains(h.screen(), "Renamed talk") })
	if m, err := st.Get(context.Background(), id); err != nil || m.Title != "Renamed talk" {
		t.Fatalf("stored title %q (%v)", m.Title, err)
	}
	if h.eng.Conv().Title() != "Renamed talk" {
		t.Fatalf("open conversation's title %q", h.eng.Conv().Title())
	}
	h.key("ctrl+x")
	if !strings.Contains(h.screen(), "delete “Renamed talk”") {
		t.Fatalf("no confirmation:\n%s", h.screen())
	}
	h.key("y")
	h.wait("the deletion", func() bool { return strings.Contains(h.screen(), "Sessions · 0") })
	if h.eng.Conv().ID() == id || h.eng.Conv().Len() != 0 {
		t.Fatal("the deleted conversation is still open")
	}
}

// The user's message is in the database before its request reaches the
// gateway.
func TestUserMessageStoredBeforeRequest(t *testing.T) {
	st := openStore(t)
	var convID string
	stored := make(chan bool, 1)
	gw := apitest.New(t, apitest.WithResponder(func(apitest.Call) apitest.Reply {
		s, err := st.Load(context.Background(), convID)
		stored <- err == nil && len(s.Snapshot.Messages) >= 1 && s.Snapshot.Messages[0].Text == "keep me first"
		return apitest.Reply{Text: "ok"}
	}))
	h := newHarness(t, 80, 24, withHistory(History{Store: st}), func(o *Options) {
		o.NewClient = func(string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
		}
	})
	convID = h.eng.Conv().ID()
	h.typeText("keep me first")
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
	if !<-stored {
		t.Fatal("the request reached the gateway before the message was stored")
	}
}

// A reopened session goes on with its own model and system prompt, not
// default_model and system_prompt; --model and --system say otherwise.
func TestReopenedSessionKeepsItsModelAndSystemPrompt(t *testing.T) {
	st := openStore(t)
	rec := st.NewRecorder(context.Background())
	c := conversation.New(conversation.Options{Listeners: []conversation.Listener{rec}, SystemPrompt: "answer in French"})
	turn, err := c.Begin(&conversation.UserInput{Text: "bonjour"}, conversation.TurnOptions{Model: "llama3"})
	if err != nil {
		t.Fatal(err)
	}
	c.Receive(turn, "salut", nil, "stop")
	_ = c.Close(turn, nil)
	if err := rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	reopen := func(opts ...harnessOpt) *harness {
		h := newHarness(t, 80, 24, append(opts, withHistory(History{Store: st, SessionID: c.ID()}))...)
		h.run(h.m.openSession(c.ID(), 0))
		h.wait("the session", func() bool { return h.eng.Conv().ID() == c.ID() && h.opening() == "" })
		return h
	}
	// The harness starts with gpt-4o as its default model.
	h := reopen()
	if h.model() != "llama3" || h.eng.Conv().SystemPrompt() != "answer in French" {
		t.Fatalf("reopened with model %q and system prompt %q", h.model(), h.eng.Conv().SystemPrompt())
	}
	if !strings.Contains(h.screen(), "● llama3") {
		t.Fatalf("the status does not show the session's model:\n%s", h.screen())
	}
	h = reopen(func(o *Options) { o.ModelGiven = true; o.SystemPrompt = "answer in German" })
	if h.model() != "gpt-4o" || h.eng.Conv().SystemPrompt() != "answer in German" {
		t.Fatalf("with --model and --system: model %q, system prompt %q", h.model(), h.eng.Conv().SystemPrompt())
	}
}
