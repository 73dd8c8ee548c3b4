package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// TestTurnsAreWrittenOnceTheDiskHasRoomAgain: the database really runs
// out of room (max_page_count at its current size, so SQLite fails with
// "database or disk is full"); four turns made meanwhile are reported
// once, kept, and written in order once there is room again, without any
// further change to trigger it.
func TestTurnsAreWrittenOnceTheDiskHasRoomAgain(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	// One connection, so the page limit below holds for every write.
	s.db.SetMaxOpenConns(1)
	r := record(t, s)
	conv := chat(t, r, c, "", "first", "kept")
	flush(t, r)
	ctx := context.Background()
	var pages int
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA max_page_count = "+strconv.Itoa(pages)); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a reply that needs new pages ", 400)
	for i := range 4 {
		answer(t, conv, c, "question "+itoa(i), long)
	}
	err := r.Flush(ctx)
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindIO || !strings.Contains(err.Error(), "full") {
		t.Fatalf("Flush while full = %v, want the disk-full error", err)
	}
	select {
	case e := <-r.Errors():
		if !strings.Contains(e.Error(), "could not save the conversation") {
			t.Fatalf("reported %v", e)
		}
	default:
		t.Fatal("the failure was not reported")
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	deadline := start.Add(10 * time.Second)
	// The turns are written in order, a reply's row before its text, so a
	// read may come between the two: wait until all of them are whole.
	for {
		got, err := s.Load(ctx, conv.ID())
		wrong := fmt.Sprintf("%d messages stored, want 10 (%v)", len(got.Snapshot.Messages), err)
		if err == nil && len(got.Snapshot.Messages) == 10 {
			wrong = ""
			for i, m := range got.Snapshot.Messages[2:] {
				if want := []string{"question " + itoa(i/2), long}[i%2]; m.Text != want || m.State != conversation.StateDone {
					wrong = fmt.Sprintf("message %d: %q %v", i+2, m.Text[:min(len(m.Text), 20)], m.State)
					break
				}
			}
		}
		if wrong == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after the disk had room: %s", wrong)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the four turns were written %v after there was room", time.Since(start).Round(time.Millisecond))
	flush(t, r)
	if err := r.Close(); err != nil {
		t.Fatalf("Close after recovery: %v", err)
	}
}

// TestCloseReportsWhatCouldNotBeWritten: a recorder closed while the
// disk is still full tries once more and says what it lost.
func TestCloseReportsWhatCouldNotBeWritten(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	s.db.SetMaxOpenConns(1)
	r := s.NewRecorder(context.Background())
	conv := chat(t, r, c, "", "first", "kept")
	flush(t, r)
	var pages int
	s.db.QueryRow("PRAGMA page_count").Scan(&pages)
	s.db.Exec("PRAGMA max_page_count = " + strconv.Itoa(pages))
	answer(t, conv, c, "lost", strings.Repeat("x", 20000))
	if err := r.Close(); err == nil || !strings.Contains(err.Error(), "full") {
		t.Fatalf("Close = %v, want the disk-full error", err)
	}
}

// TestDeletedSessionStaysDeleted: `sessions rm --all` (another store on
// the same file) while a chat records: the deletion wins. The reply in
// flight, its end, a title and the next message do not bring the session
// back; the lost message is said once; the chat's other conversations
// are written as usual.
func TestDeletedSessionStaysDeleted(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("the first message", nil)
	id, _ := conv.StartReply("gpt-4o")
	conv.AppendDelta(id, "half a ")
	flush(t, r)

	other := openIn(t, dir, c) // sessions rm --all in another process
	ctx := context.Background()
	if n, err := other.DeleteAll(ctx); err != nil || n != 1 {
		t.Fatalf("DeleteAll = %d, %v", n, err)
	}
	c.advance(2 * time.Second)
	conv.AppendDelta(id, "reply")
	conv.Finish(id, "stop", nil)
	conv.SetTitle("named later")
	if err := r.Flush(ctx); err != nil {
		t.Fatalf("Flush = %v: a deleted session is not a failure", err)
	}
	select {
	case e := <-r.Errors():
		t.Fatalf("reported %v before any new message", e)
	default:
	}
	conv.AddUser("a new message", nil)
	flush(t, r)
	select {
	case e := <-r.Errors():
		if !errors.Is(e, ErrSessionDeleted) || !strings.Contains(e.Error(), "no longer saved") {
			t.Fatalf("reported %v", e)
		}
	default:
		t.Fatal("the lost message was not said")
	}
	r.SaveDraft(conv.ID(), "a draft", nil)
	flush(t, r)
	var sessions, messages int
	s.db.QueryRow("SELECT count(*) FROM sessions").Scan(&sessions)
	s.db.QueryRow("SELECT count(*) FROM messages").Scan(&messages)
	if sessions != 0 || messages != 0 {
		t.Fatalf("after rm --all: %d sessions, %d messages in the database", sessions, messages)
	}
	// Another conversation of the same chat is kept.
	next := chat(t, r, c, "", "new chat", "yes")
	flush(t, r)
	if list, _ := other.List(ctx, 0, 0); len(list) != 1 || list[0].ID != next.ID() {
		t.Fatalf("list %+v", list)
	}
}

// TestUnreachedConversationIsNotKept: a conversation whose only reply
// failed before any text (a 401, a host that does not answer) leaves no
// session, although its question was written before the request; a
// retry that works writes it back whole; a conversation with a reply that
// reached the model (with text, or reasoning) keeps its failed turns.
func TestUnreachedConversationIsNotKept(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	ctx := context.Background()
	count := func() (sessions, messages int) {
		s.db.QueryRow("SELECT count(*) FROM sessions").Scan(&sessions)
		s.db.QueryRow("SELECT count(*) FROM messages").Scan(&messages)
		return
	}
	img := imageAttachment(t, "shot.png", 20, 10, 3)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	turn, err := conv.Begin(&conversation.UserInput{Text: "what is this?", Attachments: []api.Attachment{img}}, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	flush(t, r)
	if n, _ := count(); n != 1 {
		t.Fatal("the question is not on disk before the request")
	}
	conv.Close(turn, errors.New("the gateway refused the API key (401)"))
	conv.SetTitle("named while failing")
	flush(t, r)
	if sessions, messages := count(); sessions != 0 || messages != 0 || len(blobFiles(t, dir)) != 0 {
		t.Fatalf("after a 401: %d sessions, %d messages, blobs %v", sessions, messages, blobFiles(t, dir))
	}
	// ctrl+r once the key is fixed: the whole conversation comes back.
	turn, err = conv.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	conv.Receive(turn, "a chart", nil, "stop")
	conv.Close(turn, nil)
	flush(t, r)
	got, err := s.Load(ctx, conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	if m := got.Snapshot.Messages; len(m) != 2 || m[0].Text != "what is this?" || len(m[0].Attachments) != 1 ||
		len(m[0].Attachments[0].Data) != len(img.Data) || m[1].Text != "a chart" || got.Title != "named while failing" || !got.Titled {
		t.Fatalf("restored %+v / %+v", got.Meta, m)
	}
	// Now that a reply reached the model, a failed turn is kept.
	turn, _ = conv.Begin(&conversation.UserInput{Text: "and this?"}, conversation.TurnOptions{Model: "gpt-4o"})
	conv.Close(turn, errors.New("could not connect"))
	flush(t, r)
	if _, messages := count(); messages != 4 {
		t.Fatalf("%d messages after a later failure, want 4", messages)
	}
	// Edit and resend of a failed first message: the new one is the
	// path, the failed one an alternative (nothing typed is lost).
	conv2 := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	turn, _ = conv2.Begin(&conversation.UserInput{Text: "typo"}, conversation.TurnOptions{Model: "gpt-4o"})
	conv2.Close(turn, errors.New("no such host"))
	turn, _ = conv2.Begin(&conversation.UserInput{Text: "fixed", Replace: true}, conversation.TurnOptions{Model: "gpt-4o"})
	conv2.Receive(turn, "ok", nil, "stop")
	conv2.Close(turn, nil)
	flush(t, r)
	if got, err := s.Load(ctx, conv2.ID()); err != nil || len(got.Snapshot.Messages) != 4 || len(got.Snapshot.Path()) != 2 ||
		got.Snapshot.Path()[0].Text != "fixed" || got.Snapshot.Path()[0].AltCount != 2 {
		t.Fatalf("edited: %+v, %v", got.Snapshot.Messages, err)
	}
	// A reply that failed while thinking reached the model: its session
	// stays, reasoning and all.
	conv3 := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	turn, _ = conv3.Begin(&conversation.UserInput{Text: "think hard"}, conversation.TurnOptions{Model: "o3"})
	conv3.ReceiveReasoning(turn, "Hard, then.")
	conv3.Close(turn, errors.New("the connection dropped"))
	flush(t, r)
	if got, err := s.Load(ctx, conv3.ID()); err != nil || len(got.Snapshot.Messages) != 2 || got.Snapshot.Messages[1].Reasoning != "Hard, then." {
		t.Fatalf("a reply that failed while thinking: %+v, %v", got.Snapshot.Messages, err)
	}
	// A session stored before (here: with only a failed turn, by an older
	// parley, migrated) and reopened stays when it fails again.
	if _, err := s.db.Exec(`INSERT INTO sessions (id, created, updated) VALUES ('0feed', 1, 1);
		INSERT INTO messages (session_id, seq, role, text, state, created, updated, writer) VALUES ('0feed', 1, 'user', 'old question', 'done', 1, 1, 6);
		INSERT INTO messages (session_id, seq, parent, role, text, state, error, created, updated, writer) VALUES ('0feed', 2, 1, 'assistant', '', 'failed', '401', 1, 1, 6)`); err != nil {
		t.Fatal(err)
	}
	old, _ := s.Load(ctx, "0feed")
	r2 := record(t, s)
	reopened := conversation.Restore(conversation.Options{ID: "0feed", Listeners: []conversation.Listener{r2}, Now: c.now}, old.Snapshot)
	turn, _ = reopened.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	reopened.Close(turn, errors.New("401 again"))
	flush(t, r2)
	if got, err := s.Load(ctx, "0feed"); err != nil || len(got.Snapshot.Messages) != 2 {
		t.Fatalf("a reopened session was taken out: %+v, %v", got.Snapshot.Messages, err)
	}
}

// TestKeysAreNotStored: an API key typed into a message, a draft, a
// system prompt or the title made from the first message is stored as
// [redacted], in the history and in its search index; a key resolved
// after the store opened counts from then on.
func TestKeysAreNotStored(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	var mu sync.Mutex // the recorder asks for the keys on its own goroutine
	keys := []string{"sk-proj-typed0123456789abcdef", "short"}
	s, err := Open(context.Background(), dir, Options{Now: c.now, Secrets: func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(keys)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := record(t, s)
	key := "sk-proj-typed0123456789abcdef"
	conv := conversation.New(conversation.Options{SystemPrompt: "my key is " + key, Listeners: []conversation.Listener{r}, Now: c.now})
	answer(t, conv, c, "is "+key+" valid? short words stay", "it looks like one")
	mu.Lock()
	keys = append(keys, "sk-later-resolved-key-0000")
	mu.Unlock()
	answer(t, conv, c, "and sk-later-resolved-key-0000?", "yes")
	r.SaveDraft(conv.ID(), "draft with "+key, nil)
	flush(t, r)
	ctx := context.Background()
	got, _ := s.Load(ctx, conv.ID())
	draft, _, _ := s.Draft(ctx, conv.ID())
	all := got.Title + got.SystemPrompt + got.Preview + draft
	for _, m := range got.Snapshot.Messages {
		all += m.Text
	}
	if strings.Contains(all, key) || strings.Contains(all, "sk-later") || strings.Count(all, "[redacted]") != 5 || !strings.Contains(all, "short words") {
		t.Fatalf("stored: %q", all)
	}
	if hits, _ := s.Search(ctx, "typed0123456789abcdef", 10); len(hits) != 0 {
		t.Fatalf("the key is in the search index: %+v", hits)
	}
	var raw int
	s.db.QueryRow("SELECT count(*) FROM messages WHERE text LIKE '%sk-proj%'").Scan(&raw)
	if raw != 0 {
		t.Fatal("the key is in the messages table")
	}
}
