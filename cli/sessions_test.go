package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/conversation"
	"parley/session"
)

// store opens the harness's history for checks.
func (h *harness) store() *session.Store {
	h.t.Helper()
	s, err := session.Open(context.Background(), filepath.Join(h.env["XDG_DATA_HOME"], "parley"), session.Options{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { s.Close() })
	return s
}

func (h *harness) sessions() []session.Meta {
	h.t.Helper()
	list, err := h.store().List(context.Background(), 0, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return list
}

func TestAskRecordsANewSession(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "Lima."})
	h.run(nil, "ask", "-m", "gpt-4o", "-s", "be brief", "What is the capital of Peru?").mustCode(t, 0)
	h.now = h.now.Add(time.Minute)
	h.gw.Enqueue(apitest.Reply{Text: "Santiago."})
	h.run(nil, "ask", "-m", "gpt-4o", "And of Chile?").mustCode(t, 0)

	list := h.sessions()
	if len(list) != 2 || list[0].Title != "And of Chile?" || list[1].Title != "What is the capital of Peru?" {
		t.Fatalf("sessions %+v", list)
	}
	got, err := h.store().Load(context.Background(), list[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	m := got.Snapshot.Messages
	if len(m) != 2 || m[1].Text != "Lima." || m[1].State != conversation.StateDone || m[1].Model != "gpt-4o" ||
		got.SystemPrompt != "be brief" || m[1].Usage == nil {
		t.Fatalf("stored %+v / %+v", got.Meta, m)
	}
	if !got.Created.Equal(time.Date(2026, 11, 21, 14, 30, 5, 0, time.UTC)) {
		t.Fatalf("created %v: the store does not use the command's clock", got.Created)
	}
}

// TestAskContinueAddsToTheLatestSession: --continue sends the session's
// earlier turns, with its model and system prompt, and stores the new turn
// in it; --session does the same for a given id prefix.
func TestAskContinueAddsToTheLatestSession(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "Lima."})
	h.run(nil, "ask", "-m", "gpt-4o-mini", "-s", "be brief", "Capital of Peru?").mustCode(t, 0)
	h.gw.Enqueue(apitest.Reply{Text: "Santiago."})
	h.run(nil, "ask", "--continue", "And Chile?").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	var sent []string
	for _, m := range req.Chat.Messages {
		sent = append(sent, m.Role+":"+m.Content.PlainText())
	}
	want := []string{"system:be brief", "user:Capital of Peru?", "assistant:Lima.", "user:And Chile?"}
	if strings.Join(sent, "|") != strings.Join(want, "|") || req.Chat.Model != "gpt-4o-mini" {
		t.Fatalf("sent %q to %s, want %q to gpt-4o-mini", sent, req.Chat.Model, want)
	}
	list := h.sessions()
	if len(list) != 1 || list[0].Messages != 4 {
		t.Fatalf("sessions %+v", list)
	}
	// --session with a prefix, another model, and -s for this question only.
	h.gw.Enqueue(apitest.Reply{Text: "Bogotá."})
	h.run(nil, "ask", "--session", list[0].ID[:16], "-m", "gpt-4o", "-s", "one word", "Colombia?").mustCode(t, 0)
	req, _ = h.gw.LastRequest()
	if req.Chat.Model != "gpt-4o" || req.Chat.Messages[0].Content.PlainText() != "one word" || len(req.Chat.Messages) != 6 {
		t.Fatalf("request %s", req.Body)
	}
	got, _ := h.store().Load(context.Background(), list[0].ID)
	if got.SystemPrompt != "be brief" || got.Messages != 6 || got.Model != "gpt-4o" {
		t.Fatalf("session after --session: %+v", got.Meta)
	}
}

func TestAskHistoryFlagMistakes(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--continue", "--session", "01", "q"}, "give one of them"},
		{[]string{"--no-save", "--continue", "q"}, "cannot add to a session"},
		{[]string{"--continue", "q"}, "no saved session to continue"},
		{[]string{"--session", "abc", "q"}, `session id starts with "abc"; see "parley sessions list".`},
		{[]string{"--session", "zz", "q"}, "not a session id"},
	} {
		r := h.run(nil, append([]string{"ask", "-m", "gpt-4o"}, c.args...)...)
		r.mustCode(t, 2)
		if !strings.Contains(r.stderr, c.says) {
			t.Errorf("%v: stderr %q does not say %q", c.args, r.stderr, c.says)
		}
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests went out for mistaken commands", n)
	}
}

// TestNoSaveAndHistoryOffKeepNothing: --no-save and history = false keep
// nothing on disk, not even an empty database.
func TestNoSaveAndHistoryOffKeepNothing(t *testing.T) {
	h := newHarness(t)
	data := filepath.Join(h.env["XDG_DATA_HOME"], "parley")
	h.run(nil, "ask", "-m", "gpt-4o", "--no-save", "q").mustCode(t, 0)
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Fatalf("--no-save made %s (%v)", data, err)
	}
	h.writeConfig("history = false\n")
	h.run(nil, "ask", "-m", "gpt-4o", "q").mustCode(t, 0)
	// Looking at an empty history does not make one either.
	if r := h.run(nil, "sessions", "list"); r.code != 0 || r.stdout != "" || r.stderr != "parley: There are no saved sessions yet.\n" {
		t.Fatalf("sessions list without a history: %+v", r)
	}
	if r := h.run(nil, "sessions", "search", "--json", "q"); r.code != 1 || r.stdout != "[]\n" ||
		r.stderr != "parley: No messages match \"q\": there are no saved sessions yet.\n" {
		t.Fatalf("sessions search without a history: %+v", r)
	}
	if r := h.run(nil, "sessions", "show", "0190"); r.code != 2 || !strings.Contains(r.stderr, "there are no saved sessions yet") {
		t.Fatalf("sessions show without a history: %+v", r)
	}
	if r := h.run(ptr(""), "sessions", "rm", "--all", "--yes"); r.code != 0 || !strings.Contains(r.stderr, "no sessions to delete") {
		t.Fatalf("sessions rm --all without a history: %+v", r)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Fatalf("history = false made %s (%v)", data, err)
	}
	r := h.run(nil, "ask", "-m", "gpt-4o", "--continue", "q")
	r.mustCode(t, 2)
	if !strings.Contains(strings.ToLower(r.stderr), "history = false") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// TestAskWithADamagedHistoryStillAnswers: the history cannot be opened;
// the question is answered, and the warning says which file and what to
// do. The sessions commands fail with the same message.
func TestAskWithADamagedHistoryStillAnswers(t *testing.T) {
	h := newHarness(t)
	data := filepath.Join(h.env["XDG_DATA_HOME"], "parley")
	os.MkdirAll(data, 0o700)
	db := filepath.Join(data, session.DBName)
	os.WriteFile(db, bytes.Repeat([]byte("garbage!"), 1000), 0o600)
	h.gw.Enqueue(apitest.Reply{Text: "still here"})
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	if r.stdout != "still here\n" || !strings.Contains(r.stderr, db) || !strings.Contains(r.stderr, "damaged") ||
		!strings.Contains(r.stderr, "not kept") {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	r = h.run(nil, "sessions", "list")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "mv "+db) {
		t.Fatalf("sessions list: %q", r.stderr)
	}
	r = h.run(nil, "ask", "-m", "gpt-4o", "--continue", "q")
	r.mustCode(t, 1)
}

// TestAskInterruptedKeepsThePartialReply: ctrl+c mid-reply stores what
// came, marked interrupted.
func TestAskInterruptedKeepsThePartialReply(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "one two three four five six", DeltaRunes: 4, StallAfterDeltas: 2})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &signalWriter{first: make(chan struct{})}
	go func() {
		<-out.first
		cancel()
	}()
	env := Env{Stdout: out, Stderr: &bytes.Buffer{}, StdinIsTerminal: true, HomeDir: h.home,
		Getenv: func(k string) string { return h.env[k] }, Now: func() time.Time { return h.now }}
	if code := Main(ctx, []string{"ask", "-m", "gpt-4o", "tell me"}, env); code != ExitInterrupted {
		t.Fatalf("exit status %d, want %d", code, ExitInterrupted)
	}
	list := h.sessions()
	if len(list) != 1 {
		t.Fatalf("sessions %+v", list)
	}
	got, _ := h.store().Load(context.Background(), list[0].ID)
	m := got.Snapshot.Messages
	if len(m) != 2 || m[0].Text != "tell me" || m[1].State != conversation.StateInterrupted || m[1].Text == "" ||
		!strings.HasPrefix("one two three four five six", m[1].Text) {
		t.Fatalf("stored %+v", m)
	}
}

// signalWriter closes first when something was written.
type signalWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
	once  sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.first) })
	return w.buf.Write(p)
}

// TestAskFailedTurnIsStoredAndNotResent: a failed reply is kept as failed;
// the next --continue does not send its question again and says so.
func TestAskFailedTurnIsStoredAndNotResent(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "first"})
	h.run(nil, "ask", "-m", "gpt-4o", "hello").mustCode(t, 0)
	h.gw.Enqueue(apitest.Reply{Status: 500, Body: `{"error":{"message":"boom"}}`}, apitest.Reply{Status: 500, Body: `{"error":{"message":"boom"}}`},
		apitest.Reply{Status: 500, Body: `{"error":{"message":"boom"}}`})
	h.run(nil, "ask", "--continue", "what is 2+2").mustCode(t, 1)
	h.gw.Enqueue(apitest.Reply{Text: "4"})
	r := h.run(nil, "ask", "--continue", "what is 2+2, please")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "an earlier message of this session that got no answer (its reply failed or was stopped before any text) is not sent again") {
		t.Fatalf("stderr %q", r.stderr)
	}
	req, _ := h.gw.LastRequest()
	var sent []string
	for _, m := range req.Chat.Messages {
		sent = append(sent, m.Content.PlainText())
	}
	if strings.Join(sent, "|") != "hello|first|what is 2+2, please" {
		t.Fatalf("sent %q", sent)
	}
	got, _ := h.store().Load(context.Background(), h.sessions()[0].ID)
	if m := got.Snapshot.Messages[3]; m.State != conversation.StateFailed || !strings.Contains(m.Err, "boom") {
		t.Fatalf("failed reply stored as %+v", m)
	}
}

// TestAskContinueWithoutVisionLeavesEarlierImages: a continued session
// with an image, asked with a model that cannot see, sends the earlier
// turn's text only and says so.
func TestAskContinueWithoutVisionLeavesEarlierImages(t *testing.T) {
	h := newHarness(t)
	img := writePNG(t, h.home, "shot.png", 20, 10, false)
	h.run(nil, "ask", "-m", "gpt-4o", "-a", img, "what is this?").mustCode(t, 0)
	r := h.run(nil, "ask", "--continue", "-m", "llama3", "and now?")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "llama3 cannot see images") {
		t.Fatalf("stderr %q", r.stderr)
	}
	req, _ := h.gw.LastRequest()
	for _, m := range req.Chat.Messages {
		if m.Content.Parts != nil {
			t.Fatalf("an image part went to llama3: %s", req.Body)
		}
	}
}

func TestSessionsListShowSearch(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "The keeper lit the lamp.\x1b]0;pwned\x07"})
	h.run(nil, "ask", "-m", "gpt-4o", "Tell me about the lighthouse keeper").mustCode(t, 0)
	h.now = h.now.Add(time.Hour)
	h.gw.Enqueue(apitest.Reply{Text: "Hot milk."})
	h.run(nil, "ask", "-m", "gpt-4o", "What is in a café au lait?").mustCode(t, 0)
	list := h.sessions()

	r := h.run(nil, "sessions", "list")
	r.mustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], list[0].ID+"  ") || !strings.HasSuffix(lines[0], "  2  -  What is in a café au lait?") ||
		!strings.Contains(lines[1], "Tell me about the lighthouse keeper") || strings.Contains(r.stdout, "\x1b") {
		t.Fatalf("list:\n%s", r.stdout)
	}
	// The bare command lists too; --limit and --json.
	if bare := h.run(nil, "sessions"); bare.stdout != r.stdout {
		t.Fatalf("parley sessions:\n%s", bare.stdout)
	}
	r = h.run(nil, "sessions", "list", "--json", "--limit", "1")
	r.mustCode(t, 0)
	var metas []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &metas); err != nil || len(metas) != 1 || metas[0]["id"] != list[0].ID || metas[0]["messages"] != 2.0 {
		t.Fatalf("list --json: %v\n%s", err, r.stdout)
	}

	r = h.run(nil, "sessions", "show", list[1].ID[:20])
	r.mustCode(t, 0)
	for _, w := range []string{"Tell me about the lighthouse keeper\nsession " + list[1].ID, "── You · ", "── gpt-4o · ",
		"The keeper lit the lamp.␛]0;pwned␇"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("show lacks %q:\n%s", w, r.stdout)
		}
	}
	if strings.ContainsAny(r.stdout, "\x1b\x07") {
		t.Fatalf("show wrote control characters: %q", r.stdout)
	}
	r = h.run(nil, "sessions", "show", "--json", list[1].ID)
	r.mustCode(t, 0)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc["id"] != list[1].ID || strings.Contains(r.stdout, "\x1b") {
		t.Fatalf("show --json: %v\n%s", err, r.stdout)
	}

	r = h.run(nil, "sessions", "search", "lighthouse", "keeper")
	r.mustCode(t, 0)
	if r.stdout != list[1].ID+"  1  Tell me about the lighthouse keeper\n" {
		t.Fatalf("search: %q", r.stdout)
	}
	// On a terminal the matched words are bold, unless NO_COLOR.
	h.stdoutTTY = true
	r = h.run(nil, "sessions", "search", "lamp")
	if !strings.Contains(r.stdout, "\x1b[1mlamp\x1b[22m") {
		t.Fatalf("search on a terminal: %q", r.stdout)
	}
	h.env["NO_COLOR"] = "1"
	if r = h.run(nil, "sessions", "search", "lamp"); strings.Contains(r.stdout, "\x1b[1m") {
		t.Fatalf("search with NO_COLOR: %q", r.stdout)
	}
	h.stdoutTTY = false
	r = h.run(nil, "sessions", "search", "--json", "cafe")
	r.mustCode(t, 0)
	var hits []jsonHit
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || len(hits) != 1 || len(hits[0].Highlights) != 1 {
		t.Fatalf("search --json: %v\n%s", err, r.stdout)
	}
	hl := hits[0].Highlights[0]
	if got := hits[0].Snippet[hl[0]:hl[1]]; got != "café" || hits[0].MessageID != 1 || hits[0].SessionID != list[0].ID {
		t.Fatalf("highlight %q in %+v", got, hits[0])
	}
	if r = h.run(nil, "sessions", "search", "zebra", "  crossing"); r.code != 1 || r.stdout != "" || r.stderr != "parley: No messages match \"zebra crossing\".\n" {
		t.Fatalf("no match: %+v", r)
	}
	// Every word is a prefix, as in the browser.
	if r = h.run(nil, "sessions", "search", "keep", "lamp"); r.code != 0 || !strings.HasPrefix(r.stdout, list[1].ID+"  2  The keeper lit the lamp.") {
		t.Fatalf("prefix search: %+v", r)
	}
	h.run(nil, "sessions", "search").mustCode(t, 2)
	h.run(nil, "sessions", "show").mustCode(t, 2)
	h.run(nil, "sessions", "frobnicate").mustCode(t, 2)
	if r = h.run(nil, "sessions", "show", "0"); r.code != 2 || !strings.Contains(r.stderr, "matches several sessions") {
		t.Fatalf("ambiguous prefix: %+v", r)
	}
}

func TestSessionsExport(t *testing.T) {
	h := newHarness(t)
	img := writePNG(t, h.home, "chart.png", 20, 10, false)
	h.run(nil, "ask", "-m", "gpt-4o", "-a", img, "what is this?").mustCode(t, 0)
	id := h.sessions()[0].ID
	out := filepath.Join(t.TempDir(), "notes", "chat.md")
	os.MkdirAll(filepath.Dir(out), 0o755)
	h.run(nil, "sessions", "export", id[:12], "-o", out).mustCode(t, 0)
	md, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(md), "](chat-images/chart-") || !strings.Contains(string(md), "what is this?") {
		t.Fatalf("export: %v\n%s", err, md)
	}
	files, _ := os.ReadDir(filepath.Join(filepath.Dir(out), "chat-images"))
	if len(files) != 1 {
		t.Fatalf("%d images next to the export", len(files))
	}
	r := h.run(nil, "sessions", "export", id, "--format", "json")
	r.mustCode(t, 0)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc["format"] != "parley.session" {
		t.Fatalf("json export: %v\n%s", err, r.stdout)
	}
	if r = h.run(nil, "sessions", "export", id, "--format", "pdf"); r.code != 2 || !strings.Contains(r.stderr, "md or json") {
		t.Fatalf("bad format: %+v", r)
	}
	// A .json path gets JSON without --format, as the chat's /export;
	// a --format the path contradicts is refused, nothing written.
	js := filepath.Join(filepath.Dir(out), "a.json")
	h.run(nil, "sessions", "export", id, "-o", js).mustCode(t, 0)
	if b, _ := os.ReadFile(js); json.Unmarshal(b, &doc) != nil || doc["format"] != "parley.session" {
		t.Fatalf("export to a .json path wrote:\n%s", b)
	}
	other := filepath.Join(filepath.Dir(out), "b.json")
	r = h.run(nil, "sessions", "export", id, "-f", "md", "-o", other)
	if r.code != 2 || r.stderr != "parley: --format md does not fit the path "+other+"; leave out --format to write what its extension says, or give a path ending in .md.\n" {
		t.Fatalf("md into a .json path: %+v", r)
	}
	if _, err := os.Lstat(other); !os.IsNotExist(err) {
		t.Fatalf("the refused export wrote a file: %v", err)
	}
	// The help says what --all-branches writes: each branch goes on from
	// where it leaves one above it, as the file says.
	if r = h.run(nil, "sessions", "export", "--help"); strings.Contains(r.stdout, "whole conversation from its first message") || !strings.Contains(r.stdout, "written\nonce") {
		t.Fatalf("export --help:\n%s", r.stdout)
	}
	// Again to the same path: refused and untouched; --force replaces.
	os.WriteFile(out, []byte("my notes"), 0o600)
	r = h.run(nil, "sessions", "export", id, "-o", out)
	if r.code != 2 || r.stderr != "parley: "+out+" exists already and was left alone; give another path, or add --force to replace it.\n" {
		t.Fatalf("over a file: %+v", r)
	}
	if b, _ := os.ReadFile(out); string(b) != "my notes" {
		t.Fatalf("the file changed: %q", b)
	}
	h.run(nil, "sessions", "export", id, "-o", out, "--force").mustCode(t, 0)
	// Into a folder that does not exist: refused, and no folder made (a
	// typo there would leave stray ones).
	typo := filepath.Join(filepath.Dir(out), "nots", "dir")
	r = h.run(nil, "sessions", "export", id, "-o", filepath.Join(typo, "chat.md"))
	if r.code != 2 || r.stderr != "parley: The folder "+typo+" does not exist, so nothing was exported; create it first, or give -o a path in a folder that exists.\n" {
		t.Fatalf("into a missing folder: %+v", r)
	}
	if _, err := os.Stat(filepath.Dir(typo)); !os.IsNotExist(err) {
		t.Fatalf("a folder was made: %v", err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	// A dangling link is not followed: its target is not created.
	link := filepath.Join(filepath.Dir(out), "link.md")
	target := filepath.Join(t.TempDir(), "target.md")
	os.Symlink(target, link)
	h.run(nil, "sessions", "export", id, "-o", link).mustCode(t, 2)
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
}

func TestSessionsRm(t *testing.T) {
	h := newHarness(t)
	for _, q := range []string{"one", "two", "three"} {
		h.run(nil, "ask", "-m", "gpt-4o", q).mustCode(t, 0)
		h.now = h.now.Add(time.Minute)
	}
	list := h.sessions()
	// Not a terminal: --yes is required.
	r := h.run(ptr(""), "sessions", "rm", list[0].ID)
	if r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("rm without --yes: %+v", r)
	}
	h.run(ptr(""), "sessions", "rm").mustCode(t, 2)
	h.run(ptr(""), "sessions", "rm", "--all", list[0].ID).mustCode(t, 2)
	// On a terminal it asks; "n" keeps, "y" deletes.
	ask := func(answer string, args ...string) result {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(answer), Stdout: &out, Stderr: &errb, StdinIsTerminal: true, StdoutIsTerminal: true,
			HomeDir: h.home, Getenv: func(k string) string { return h.env[k] }, Now: func() time.Time { return h.now }}
		code := Main(context.Background(), args, env)
		return result{out.String(), errb.String(), code}
	}
	r = ask("n\n", "sessions", "rm", list[0].ID[:20])
	if r.code != 0 || !strings.Contains(r.stderr, `Delete 1 session ("three")? [y/N]`) || !strings.Contains(r.stderr, "Nothing was deleted") {
		t.Fatalf("answer n: %+v", r)
	}
	if len(h.sessions()) != 3 {
		t.Fatal("deleted after answering n")
	}
	r = ask("y\n", "sessions", "rm", list[0].ID, list[0].ID[:20])
	if r.code != 0 || !strings.Contains(r.stderr, "Deleted 1 session.") || len(h.sessions()) != 2 {
		t.Fatalf("answer y: %+v", r)
	}
	h.run(ptr(""), "sessions", "rm", "--yes", list[1].ID).mustCode(t, 0)
	r = h.run(ptr(""), "sessions", "rm", "--all", "--yes")
	if r.code != 0 || !strings.Contains(r.stderr, "Deleted 1 session.") || len(h.sessions()) != 0 {
		t.Fatalf("rm --all: %+v", r)
	}
	if r = h.run(ptr(""), "sessions", "rm", "--yes", list[0].ID); r.code != 2 || !strings.Contains(r.stderr, "No session id starts with") {
		t.Fatalf("rm of a deleted id: %+v", r)
	}
}

// TestChatHistoryRequest: the chat gets the open history and the session
// to reopen; --no-save and history = false say why history is off.
func TestChatHistoryRequest(t *testing.T) {
	h := newHarness(t)
	h.stdoutTTY = true
	h.run(nil, "ask", "-m", "gpt-4o", "first").mustCode(t, 0)
	id := h.sessions()[0].ID
	h.run(nil, "--continue").mustCode(t, 0)
	if h.tui == nil || h.tui.History.SessionID != id || h.tui.History.Off != "" {
		t.Fatalf("--continue: %+v", h.tui)
	}
	h.run(nil, "--session", id[:14]).mustCode(t, 0)
	if h.tui.History.SessionID != id {
		t.Fatalf("--session: %+v", h.tui.History)
	}
	h.run(nil, "--no-save").mustCode(t, 0)
	if h.tui.History.Store != nil || h.tui.History.Off != "--no-save" {
		t.Fatalf("--no-save: %+v", h.tui.History)
	}
	h.writeConfig("history = false\nauto_title = true\n")
	h.run(nil).mustCode(t, 0)
	if h.tui.History.Store != nil || h.tui.History.Off != "history = false" || !h.tui.History.AutoTitle {
		t.Fatalf("history = false: %+v", h.tui.History)
	}
	h.run(nil, "--continue").mustCode(t, 2)
}

// TestSessionsListingsAreLabelled: on a terminal the listings have a
// header line (scripts, reading a pipe, get the lines only); an untitled
// session is "(untitled)", whether or not it holds a draft; previews are
// plain text; snippets keep the spaces around the match.
func TestSessionsListingsAreLabelled(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "## Tea\n\nA cup of **tea**. Tea rewards patience."})
	h.run(nil, "ask", "-m", "gpt-4o", "which drink?").mustCode(t, 0)
	s := h.store()
	if err := s.SaveDraft(context.Background(), "0badc0ffee0badc0ffee0badc0ffee00", "half typed", nil); err != nil {
		t.Fatal(err)
	}
	h.stdoutTTY = true
	h.env["NO_COLOR"] = "1"
	r := h.run(nil, "sessions", "list")
	r.mustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 3 || strings.Join(strings.Fields(lines[0]), " ") != "ID UPDATED MESSAGES COST TITLE" ||
		!strings.HasSuffix(strings.Join(strings.Fields(lines[1]), " "), " 0 - (untitled)") || !strings.HasSuffix(strings.Join(strings.Fields(lines[2]), " "), " 2 - which drink?") ||
		strings.Index(lines[0], "TITLE") != strings.Index(lines[1], "(untitled)") {
		t.Fatalf("list on a terminal:\n%s", r.stdout)
	}
	// Its help names every column the listing has, the cost's "-" too.
	help := h.run(nil, "sessions", "list", "--help").stdout
	for _, col := range append(strings.Fields(lines[0]), `"-" when no reply's price is known`) {
		if !strings.Contains(help, col) {
			t.Errorf("sessions list --help does not name %q:\n%s", col, help)
		}
	}
	r = h.run(nil, "sessions", "search", "tea")
	r.mustCode(t, 0)
	lines = strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "SESSION ") || !strings.HasSuffix(lines[0], "  MESSAGE  SNIPPET") ||
		!strings.HasSuffix(lines[1], "  2  Tea A cup of tea. Tea rewards patience.") {
		t.Fatalf("search on a terminal:\n%s", r.stdout)
	}
	h.stdoutTTY = false
	r = h.run(nil, "sessions", "list", "--json")
	var metas []jsonMeta
	if err := json.Unmarshal([]byte(r.stdout), &metas); err != nil || metas[1].Preview != "Tea A cup of tea. Tea rewards patience." {
		t.Fatalf("previews: %v %+v", err, metas)
	}
}
