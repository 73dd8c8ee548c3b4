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
	for _, word := range []string{"kestrelstart", "ocelotend", "compile"} {
		if n := indexed(t, s, word); n != 0 {
			t.Errorf("after the delete the index still holds %d entries for %q", n, word)
		}
	}
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
	for _, word := range []string{"kestrelstart", "ocelotend"} {
		if n := indexed(t, s, word); n != 0 {
			t.Errorf("after the delete the index still holds %d entries for %q", n, word)
		}
	}
	if _, err := s.db.Exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')"); err != nil {
		t.Fatalf("the index after the migration and the delete: %v", err)
	}
}

// TestSearchCapLiterals: the step's SQL says in numbers what
// searchIndexChars says.
func TestSearchCapLiterals(t *testing.T) {
	whole, half := strconv.Itoa(searchIndexChars), strconv.Itoa(searchIndexChars/2)
	if n := strings.Count(schemaSearchCap, "<= "+whole+","); n != 5 {
		t.Errorf("the step compares with %s in %d places, want 5", whole, n)
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
