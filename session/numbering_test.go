package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// twoProcesses opens two stores on one data directory, each with its own
// *sql.DB, as two parley processes have, and a session of one turn.
func twoProcesses(t *testing.T) (a, b *Store, id string, c *clock) {
	t.Helper()
	c = newClock()
	a, dir := openStore(t, c)
	b = openIn(t, dir, c)
	r := record(t, a)
	conv := chat(t, r, c, "", "first question", "first answer")
	flush(t, r)
	return a, b, conv.ID(), c
}

// reopen restores the session as a chat or an ask --session does, with a
// recorder of its own.
func reopen(t *testing.T, s *Store, id string, c *clock) (*conversation.Conversation, *Recorder) {
	t.Helper()
	sess, err := s.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r := record(t, s)
	return conversation.Restore(conversation.Options{ID: id, Listeners: []conversation.Listener{r}, Now: c.now}, sess.Snapshot), r
}

// texts lists the texts of every message of a stored session, in order
// of number.
func texts(t *testing.T, s *Store, id string) []string {
	t.Helper()
	sess, err := s.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range sess.Snapshot.Messages {
		out = append(out, m.Text)
	}
	return out
}

// TestTwoProcessesAppendingToOneSessionKeepEveryTurn: two processes that
// opened the same session append a turn each at the same time, ten
// times over; every question and answer is kept, each answer under its
// own question, and both turns follow the turn they were asked after
// (two branches). Before the store numbered messages, both took numbers
// 3 and 4 and the second upsert overwrote the first's turn.
func TestTwoProcessesAppendingToOneSessionKeepEveryTurn(t *testing.T) {
	for run := range 10 {
		a, b, id, c := twoProcesses(t)
		convA, recA := reopen(t, a, id, c)
		convB, recB := reopen(t, b, id, c)
		var wg sync.WaitGroup
		for i, side := range []struct {
			conv *conversation.Conversation
			rec  *Recorder
		}{{convA, recA}, {convB, recB}} {
			wg.Go(func() {
				q, reply := fmt.Sprintf("question %d from %c", run, 'A'+i), fmt.Sprintf("answer %d to %c", run, 'A'+i)
				if _, err := side.conv.AddUser(q, nil); err != nil {
					t.Error(err)
					return
				}
				// The question is on disk before the request goes out, as
				// in the chat and in ask.
				if err := side.rec.Flush(context.Background()); err != nil {
					t.Error(err)
				}
				rid, _ := side.conv.StartReply("gpt-4o")
				side.conv.AppendDelta(rid, reply)
				side.conv.Finish(rid, "stop", nil)
				if err := side.rec.Close(); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		got := texts(t, a, id)
		want := []string{"first question", "first answer"}
		for _, who := range "AB" {
			want = append(want, fmt.Sprintf("question %d from %c", run, who), fmt.Sprintf("answer %d to %c", run, who))
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Fatalf("run %d: %q was lost; the session holds %q", run, w, got)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("run %d: %d messages, want %d: %q", run, len(got), len(want), got)
		}
		sess, _ := a.Load(context.Background(), id)
		byID := map[int]conversation.Message{}
		for _, m := range sess.Snapshot.Messages {
			byID[m.ID] = m
		}
		for _, m := range sess.Snapshot.Messages {
			switch {
			case strings.HasPrefix(m.Text, "question"):
				if m.Parent != 2 || m.AltCount != 2 {
					t.Fatalf("run %d: %q follows %d among %d alternatives, want the first answer (2) among 2", run, m.Text, m.Parent, m.AltCount)
				}
			case strings.HasPrefix(m.Text, "answer"):
				q := byID[m.Parent].Text
				if strings.TrimPrefix(q, "question") != strings.Replace(strings.TrimPrefix(m.Text, "answer"), "to", "from", 1) {
					t.Fatalf("run %d: %q follows %q", run, m.Text, q)
				}
			}
		}
	}
}

// TestAChatFindsAnotherProcessesTurnAndKeepsIt: a chat open on a session,
// an ask --session adds a turn to it from another process, then the chat
// sends. The ask's question and answer stay (before, the chat's send
// overwrote them with no word); the chat's turn goes beside them, from
// the message it followed; its recorder says another process added two
// messages; and the chat's next turn continues its own branch.
func TestAChatFindsAnotherProcessesTurnAndKeepsIt(t *testing.T) {
	a, b, id, c := twoProcesses(t)
	chatConv, chatRec := reopen(t, a, id, c)

	askConv, askRec := reopen(t, b, id, c)
	answer(t, askConv, c, "IMPORTANT from B", "noted, B")
	if err := askRec.Close(); err != nil {
		t.Fatal(err)
	}

	answer(t, chatConv, c, "from the chat", "the chat's answer")
	flush(t, chatRec)
	select {
	case added := <-chatRec.Added():
		if added.SessionID != id || added.Messages != 2 {
			t.Fatalf("Added %+v, want 2 messages in %s", added, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the chat's recorder did not say another process added to its session")
	}
	answer(t, chatConv, c, "and again", "again")
	flush(t, chatRec)
	select {
	case added := <-chatRec.Added():
		t.Fatalf("a second report %+v: nothing was added since", added)
	default:
	}

	sess, err := a.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var all, path []string
	for _, m := range sess.Snapshot.Messages {
		all = append(all, fmt.Sprintf("%d<%d %s", m.ID, m.Parent, m.Text))
	}
	for _, m := range sess.Snapshot.Path() {
		path = append(path, m.Text)
	}
	wantAll := []string{"1<0 first question", "2<1 first answer", "3<2 IMPORTANT from B", "4<3 noted, B",
		"5<2 from the chat", "6<5 the chat's answer", "7<6 and again", "8<7 again"}
	if !slices.Equal(all, wantAll) {
		t.Fatalf("stored:\n%s\nwant:\n%s", strings.Join(all, "\n"), strings.Join(wantAll, "\n"))
	}
	if want := []string{"first question", "first answer", "from the chat", "the chat's answer", "and again", "again"}; !slices.Equal(path, want) {
		t.Fatalf("active path %q, want the chat's %q", path, want)
	}
	// The chat's conversation still numbers its messages its own way;
	// what the screen shows is unchanged.
	if got := chatConv.Len(); got != 6 {
		t.Fatalf("the chat holds %d messages on its path, want 6", got)
	}
}

// TestALateEndOfAReplyLeavesAnotherProcessesLeaf: a reply ends (its final
// write) after another process added a turn to the session; the session
// still opens on that newer turn. Before, every write set the active
// leaf, and the late end took the session back to the older reply.
func TestALateEndOfAReplyLeavesAnotherProcessesLeaf(t *testing.T) {
	a, b, id, c := twoProcesses(t)
	slow, slowRec := reopen(t, a, id, c)
	if _, err := slow.AddUser("a long question", nil); err != nil {
		t.Fatal(err)
	}
	rid, _ := slow.StartReply("gpt-4o")
	slow.AppendDelta(rid, "thinking it over")
	flush(t, slowRec)

	fast, fastRec := reopen(t, b, id, c)
	answer(t, fast, c, "a quick one", "quick")
	flush(t, fastRec)

	c.advance(time.Minute)
	slow.AppendDelta(rid, ", done")
	slow.Finish(rid, "stop", nil)
	slow.SetTitle("named late")
	flush(t, slowRec)

	sess, err := a.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	path := sess.Snapshot.Path()
	if last := path[len(path)-1]; last.Text != "quick" {
		t.Fatalf("the session opens on %q, want the newer turn's %q", last.Text, "quick")
	}
	if got := texts(t, a, id); !slices.Contains(got, "thinking it over, done") || sess.Title != "named late" {
		t.Fatalf("the late reply %q, title %q", got, sess.Title)
	}
}

// sqlV5UpsertMessage is the statement a parley of schema 5 (and before,
// without the columns it did not know) wrote every message with: its own
// number, and an upsert over whatever row had it.
const sqlV5UpsertMessage = `
	INSERT INTO messages (session_id, seq, role, text, state, error, model, finish_reason,
		prompt_tokens, completion_tokens, total_tokens, created, updated, image, parent, excluded,
		reasoning, reasoning_start, reasoning_end, reasoning_tokens)
	VALUES (?1, ?2, ?3, ?4, 'done', '', '', '', NULL, NULL, NULL, 1, 1, '', ?5, 0, '', 0, 0, NULL)
	ON CONFLICT (session_id, seq) DO UPDATE SET
		parent = excluded.parent, text = excluded.text, state = excluded.state
	RETURNING id`

// sqlV3InsertMessage is how a parley of schema 3 wrote a message: without
// a parent (the column came with schema 4), so after a migration it
// would open the conversation, orphaned.
const sqlV3InsertMessage = `INSERT INTO messages (session_id, seq, role, text, state, created, updated)
	VALUES (?1, ?2, ?3, ?4, 'done', 1, 1)
	ON CONFLICT (session_id, seq) DO UPDATE SET text = excluded.text`

// TestAnOlderParleyRunningAcrossAMigrationIsRefused: a parley of schema
// 5 has the database open (its statement prepared) when this one starts
// and migrates it. Its next write, over another process's message or
// past the last one, is refused with a sentence saying to restart it,
// and changes nothing; so is a schema-3 parley's write without a parent.
func TestAnOlderParleyRunningAcrossAMigrationIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parley")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "schema-v5"))); err != nil {
		t.Fatal(err)
	}
	old := rawDB(t, filepath.Join(dir, DBName))
	stmt, err := old.Prepare(sqlV5UpsertMessage)
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()

	s := openIn(t, dir, nil)
	ctx := context.Background()
	before := texts(t, s, fixtureSession)

	for _, w := range []struct {
		name   string
		exec   func() error
		number int
	}{
		{"a schema-5 upsert over message 2", func() error {
			var id int64
			return stmt.QueryRow(fixtureSession, 2, "user", "overwritten", 1).Scan(&id)
		}, 2},
		{"a schema-5 insert after the last", func() error {
			var id int64
			return stmt.QueryRow(fixtureSession, 6, "user", "numbered by an old parley", 4).Scan(&id)
		}, 6},
		{"a schema-3 insert without a parent", func() error {
			_, err := old.Exec(sqlV3InsertMessage, fixtureSession, 7, "user", "orphaned")
			return err
		}, 7},
	} {
		err := w.exec()
		if err == nil || !strings.Contains(err.Error(), "quit this parley and start it again") {
			t.Fatalf("%s: %v, want a refusal saying to restart", w.name, err)
		}
	}
	if got := texts(t, s, fixtureSession); !slices.Equal(got, before) {
		t.Fatalf("the session changed: %q, was %q", got, before)
	}
	// This parley still writes.
	r := record(t, s)
	sess, _ := s.Load(ctx, fixtureSession)
	conv := conversation.Restore(conversation.Options{ID: fixtureSession, Listeners: []conversation.Listener{r}}, sess.Snapshot)
	if _, err := conv.AddUser("after the migration", nil); err != nil {
		t.Fatal(err)
	}
	flush(t, r)
	if got := texts(t, s, fixtureSession); len(got) != len(before)+1 || got[len(got)-1] != "after the migration" {
		t.Fatalf("after a write of this parley: %q", got)
	}
}

// TestAReplyWhoseRowWentIsInsertedAtItsEnd: the end of a
// reply the store has no row for (its row was removed meanwhile) is
// inserted under a new number rather than lost.
func TestAReplyWhoseRowWentIsInsertedAtItsEnd(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("question", nil)
	rid, _ := conv.StartReply("gpt-4o")
	flush(t, r)
	if _, err := s.db.Exec("DELETE FROM messages WHERE session_id = ? AND seq = 2", conv.ID()); err != nil {
		t.Fatal(err)
	}
	conv.AppendDelta(rid, "kept")
	conv.Finish(rid, "stop", &api.Usage{TotalTokens: 3})
	flush(t, r)
	if got := texts(t, s, conv.ID()); !slices.Equal(got, []string{"question", "kept"}) {
		t.Fatalf("stored %q", got)
	}
}
