package session

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"parley/conversation"
)

// longLog is a message longer than the search index reads: a word at its
// start, one in its middle, one at its end.
func longLog() string {
	var b strings.Builder
	b.WriteString("Started kestrelstart build\n")
	for b.Len() < searchIndexChars {
		b.WriteString("INFO compile step ok, nothing to report\n")
	}
	b.WriteString("WARN marmosetmiddle seen\n")
	for b.Len() < 2*searchIndexChars {
		b.WriteString("INFO compile step ok, nothing to report\n")
	}
	b.WriteString("FATAL the ocelotend ate the cables\n")
	return b.String()
}

// indexed counts the rows messages_fts holds for word, whatever the
// content table has: entries a delete failed to take away count too.
func indexed(t *testing.T, s *Store, word string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", word).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// wantIndexed checks how many index entries each word has.
func wantIndexed(t *testing.T, s *Store, when string, want map[string]int) {
	t.Helper()
	for word, n := range want {
		if got := indexed(t, s, word); got != n {
			t.Errorf("%s, %q is indexed %d times, want %d", when, word, got, n)
		}
	}
}

// theEnds is what a long message's index holds of longLog's words.
func theEnds() map[string]int {
	return map[string]int{"kestrelstart": 1, "ocelotend": 1, "marmosetmiddle": 0}
}

// gone is the words of a deleted message: none may be left in the index.
func gone(words ...string) map[string]int {
	m := map[string]int{}
	for _, w := range words {
		m[w] = 0
	}
	return m
}

// TestSearchReadsALongMessagesEnds: a message longer than searchIndexChars
// is found by the words of its beginning and its end, not its middle, and
// deleting it leaves nothing of it in the index (a delete given other text
// than the insert leaves entries behind).
func TestSearchReadsALongMessagesEnds(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", longLog(), "The build failed.")
	flushWithin(t, r, time.Minute)
	ctx := context.Background()
	for word, want := range map[string]int{"kestrelstart": 1, "ocelotend": 1, "marmosetmiddle": 0} {
		hits, err := s.Search(ctx, word, 10)
		if err != nil || len(hits) != want {
			t.Errorf("search %q: %d hits, %v; want %d", word, len(hits), err, want)
		}
	}
	if _, err := s.Delete(ctx, conv.ID()); err != nil {
		t.Fatal(err)
	}
	wantIndexed(t, s, "after the delete", gone("kestrelstart", "ocelotend", "compile"))
	if _, err := s.db.Exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')"); err != nil {
		t.Fatalf("the index after the delete: %v", err)
	}
}

// TestSearchCapIndexesOldLongMessagesAgain: a long message a version-7
// parley indexed whole is indexed again as its ends when the database is
// brought up, and its delete then takes every entry away.
func TestSearchCapIndexesOldLongMessagesAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parley")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "schema-v7"))); err != nil {
		t.Fatal(err)
	}
	old := rawDB(t, filepath.Join(dir, DBName))
	if _, err := old.Exec(`INSERT INTO messages (session_id, seq, role, text, state, created, updated, writer) VALUES (?, 99, 'user', ?, 'done', 1, 1, 7)`,
		fixtureSession, longLog()); err != nil {
		t.Fatal(err)
	}
	var middle int
	if err := old.QueryRow("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'marmosetmiddle'").Scan(&middle); err != nil || middle != 1 {
		t.Fatalf("version 7 indexed the middle %d times, %v; the test needs it indexed whole", middle, err)
	}
	old.Close()

	s := openIn(t, dir, nil)
	if n := indexed(t, s, "marmosetmiddle"); n != 0 {
		t.Errorf("after the migration the middle is indexed %d times", n)
	}
	if n := indexed(t, s, "ocelotend"); n != 1 {
		t.Errorf("after the migration the end is indexed %d times", n)
	}
	if _, err := s.db.Exec("DELETE FROM messages WHERE seq = 99"); err != nil {
		t.Fatal(err)
	}
	wantIndexed(t, s, "after the delete", gone("kestrelstart", "ocelotend"))
	if _, err := s.db.Exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')"); err != nil {
		t.Fatalf("the index after the migration and the delete: %v", err)
	}
}

// TestSearchCapLiterals: the step's SQL says in numbers what
// searchIndexChars says.
func TestSearchCapLiterals(t *testing.T) {
	whole, half := strconv.Itoa(searchIndexChars), strconv.Itoa(searchIndexChars/2)
	if n := strings.Count(schemaSearchCap, "<= "+whole+","); n != 4 {
		t.Errorf("the step's triggers compare with %s in %d places, want 4", whole, n)
	}
	if n := strings.Count(schemaSearchCap, "> "+whole+";"); n != 2 {
		t.Errorf("the step picks the long messages with %s in %d places, want 2", whole, n)
	}
	if a, b := strings.Count(schemaSearchCap, ", 1, "+half+")"), strings.Count(schemaSearchCap, ", -"+half+")"); a != 5 || b != 5 {
		t.Errorf("the step keeps %s characters of each end in %d and %d places, want 5 and 5", half, a, b)
	}
}

func TestCapSearchText(t *testing.T) {
	if s := "short text"; capSearchText(s) != s {
		t.Errorf("a short text is changed: %q", capSearchText(s))
	}
	// "é" is two bytes: the cuts fall inside characters.
	long := "start " + strings.Repeat("é", searchIndexChars) + " end"
	got := capSearchText(long)
	if len(got) > searchIndexChars+1 || !utf8.ValidString(got) || !strings.HasPrefix(got, "start é") || !strings.HasSuffix(got, "é end") || !strings.Contains(got, "\n") {
		t.Errorf("capSearchText: %d bytes, valid %v, begins %q, ends %q", len(got), utf8.ValidString(got), got[:10], got[len(got)-10:])
	}
}

// TestSearchCapCutsBytes: the index's ends are bytes, not characters, so a
// long text of three-byte characters is cut like any other, and a NUL
// (piped stdin may hold one) does not end what the index reads.
func TestSearchCapCutsBytes(t *testing.T) {
	for name, text := range map[string]string{
		// 600,000 characters, 1.8 MB: over the limit in bytes, under it
		// in characters.
		"three-byte characters": "kestrelstart " + strings.Repeat("漢", 300_000) + " marmosetmiddle " + strings.Repeat("字", 300_000) + " ocelotend",
		"a NUL first":           "\x00kestrelstart " + strings.Repeat("filler ", 100_000) + "marmosetmiddle " + strings.Repeat("filler ", 100_000) + "ocelotend",
		"a NUL in the middle":   "kestrelstart " + strings.Repeat("filler ", 100_000) + "\x00marmosetmiddle " + strings.Repeat("filler ", 100_000) + "ocelotend",
	} {
		t.Run(name, func(t *testing.T) {
			c := newClock()
			s, _ := openStore(t, c)
			r := record(t, s)
			conv := chat(t, r, c, "", text, "ok")
			flushWithin(t, r, time.Minute)
			wantIndexed(t, s, "stored", theEnds())
			if _, err := s.Delete(context.Background(), conv.ID()); err != nil {
				t.Fatal(err)
			}
			wantIndexed(t, s, "after the delete", gone("kestrelstart", "ocelotend", "filler"))
		})
	}
}

// TestALongReplyIsIndexedByItsEndsWhenItEnds: a reply streams unindexed,
// is indexed by its ends when it ends (the update trigger), again when it
// is changed after, and leaves nothing behind when it is deleted.
func TestALongReplyIsIndexedByItsEndsWhenItEnds(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "write me a long log")
	id, err := conv.StartReply("m")
	if err != nil {
		t.Fatal(err)
	}
	log := longLog()
	conv.AppendDelta(id, log[:len(log)/2])
	c.advance(2e9)
	conv.AppendDelta(id, log[len(log)/2:])
	flushWithin(t, r, time.Minute)
	if n := indexed(t, s, "kestrelstart"); n != 0 {
		t.Fatalf("the streaming reply is indexed (%d)", n)
	}
	if err := conv.Finish(id, "stop", nil); err != nil {
		t.Fatal(err)
	}
	flushWithin(t, r, time.Minute)
	wantIndexed(t, s, "after the reply ended", theEnds())
	if _, err := s.db.Exec("UPDATE messages SET text = replace(text, 'ocelotend', 'wombatafter') WHERE role = 'assistant'"); err != nil {
		t.Fatal(err)
	}
	if n, m := indexed(t, s, "wombatafter"), indexed(t, s, "ocelotend"); n != 1 || m != 0 {
		t.Errorf("after the change the new end is indexed %d times and the old one %d, want 1 and 0", n, m)
	}
	if _, err := s.Delete(context.Background(), conv.ID()); err != nil {
		t.Fatal(err)
	}
	wantIndexed(t, s, "after the delete", gone("kestrelstart", "wombatafter", "compile"))
}

// TestALongToolResultIsIndexedByItsEnds: a reply's tool calls go to their
// own index cut the same way.
func TestALongToolResultIsIndexedByItsEnds(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{ID: "tools2", Listeners: []conversation.Listener{r}, Now: c.now})
	if _, err := conv.AddUser("read the log", nil); err != nil {
		t.Fatal(err)
	}
	id, err := conv.StartReply("m")
	if err != nil {
		t.Fatal(err)
	}
	turn := &conversation.Turn{ReplyID: id}
	call := conversation.ToolCallMade{ID: "call_1", Name: "read", Server: "fs", Tool: "read", Arguments: `{}`}
	step, err := conv.AddToolCalls(turn, []conversation.ToolCallMade{call})
	if err != nil {
		t.Fatal(err)
	}
	call.Result = longLog()
	if err := conv.SetToolResult(turn, step, 0, call); err != nil {
		t.Fatal(err)
	}
	conv.AppendDelta(id, "done")
	if err := conv.Finish(id, "stop", nil); err != nil {
		t.Fatal(err)
	}
	flushWithin(t, r, time.Minute)
	for word, want := range map[string]int{"kestrelstart": 1, "ocelotend": 1, "marmosetmiddle": 0} {
		var n int
		if err := s.db.QueryRow("SELECT count(*) FROM tools_fts WHERE tools_fts MATCH ?", word).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%q is in the tools index %d times, want %d", word, n, want)
		}
	}
}
