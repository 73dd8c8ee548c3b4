package session

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

func TestSearchFindsWordsAcrossSessions(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	old := chat(t, r, c, "", "Tell me about the Lighthouse of Alexandria", "It was one of the Seven Wonders, built on Pharos.")
	chat(t, r, c, "", "What is a café au lait?", "Coffee with hot milk.")
	recent := chat(t, r, c, "", "Another lighthouse question", "Lighthouses guide ships.")
	flush(t, r)
	ctx := context.Background()

	hits, err := s.Search(ctx, "lighthouse", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.SessionID[:4]+"/"+itoa(h.MessageID))
	}
	// Newest first; whole words: "Lighthouses" is not "lighthouse".
	want := []string{recent.ID()[:4] + "/1", old.ID()[:4] + "/1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hits %v, want %v", got, want)
	}
	h := hits[1]
	if h.SessionTitle != "Tell me about the Lighthouse of Alexandria" || h.Role != "user" || h.Created.IsZero() {
		t.Fatalf("hit %+v", h)
	}
	spans := SplitSnippet(h.Snippet)
	if !reflect.DeepEqual(spans, []Span{{Text: "Tell me about the "}, {Text: "Lighthouse", Hit: true}, {Text: " of Alexandria"}}) {
		t.Fatalf("snippet %q -> %+v", h.Snippet, spans)
	}
	if PlainSnippet(h.Snippet) != "Tell me about the Lighthouse of Alexandria" {
		t.Fatalf("plain %q", PlainSnippet(h.Snippet))
	}

	count := func(q string) int {
		t.Helper()
		hits, err := s.Search(ctx, q, 10)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		return len(hits)
	}
	for q, n := range map[string]int{
		"seven wonders":         1, // two words, both required, any order
		"wonders seven":         1,
		`"wonders seven"`:       0, // a phrase keeps its order
		`"seven wonders"`:       1,
		"lighthouse*":           3, // a prefix
		"LIGHTHOUSE ships":      0, // different messages
		"lighthouses ships":     1,
		"cafe":                  1, // accents do not matter
		"CAFÉ AU":               1,
		"nothing-here":          0,
		"":                      0,
		"   ":                   0,
		"NOT":                   0, // operators are only words
		"wonders text:":         0, // no column filter: "text" is a word
		"seven AND OR wonders":  0,
		`"unterminated wonders`: 0, // a phrase to the end
		"wonders)(":             1,
		"^seven":                1,
		"NEAR(seven wonders)":   0, // "near" is a word
	} {
		if got := count(q); got != n {
			t.Errorf("Search(%q) found %d, want %d", q, got, n)
		}
	}
	if hits, _ := s.Search(ctx, "lighthouse*", 1); len(hits) != 1 {
		t.Fatalf("limit 1 gave %d", len(hits))
	}
}

func TestSearchFollowsEditsAndDeletes(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "zebra question", "zebra answer")
	conv.ReplaceLastUser("giraffe question", nil)
	flush(t, r)
	ctx := context.Background()
	if hits, _ := s.Search(ctx, "zebra", 10); len(hits) != 0 {
		t.Fatalf("removed messages still found: %+v", hits)
	}
	if hits, _ := s.Search(ctx, "giraffe", 10); len(hits) != 1 {
		t.Fatalf("edited message not found: %+v", hits)
	}
	// A reply is searchable once it ends (while it streams, its text is
	// saved every second but not indexed).
	id, _ := conv.StartReply("m")
	conv.AppendDelta(id, "okapi ")
	c.advance(2e9)
	conv.AppendDelta(id, "more")
	flush(t, r)
	if hits, _ := s.Search(ctx, "okapi", 10); len(hits) != 0 {
		t.Fatalf("streaming reply indexed: %+v", hits)
	}
	conv.Interrupt(id)
	flush(t, r)
	if hits, _ := s.Search(ctx, "okapi", 10); len(hits) != 1 {
		t.Fatalf("interrupted reply not found: %+v", hits)
	}
	s.Delete(ctx, conv.ID())
	if hits, _ := s.Search(ctx, "giraffe okapi", 10); len(hits) != 0 {
		t.Fatalf("deleted session still found: %+v", hits)
	}
}

// TestAbandonedReplyIsRecovered: a reply left streaming by a process
// that died is marked interrupted (and indexed) by a later open, once its
// last write is old enough that no live stream can own it.
func TestAbandonedReplyIsRecovered(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("story", nil)
	id, _ := conv.StartReply("m")
	conv.AppendDelta(id, "narwhal ")
	c.advance(2e9)
	conv.AppendDelta(id, "tusks")
	flush(t, r)
	r.Close()
	s.Close()
	state := func(s *Store) string {
		var st string
		s.db.QueryRow("SELECT state FROM messages WHERE seq = ?", id).Scan(&st)
		return st
	}
	// Reopened soon after: it may still be streaming elsewhere.
	s = openIn(t, dir, c)
	if st := state(s); st != "streaming" {
		t.Fatalf("state %q right after", st)
	}
	s.Close()
	c.advance(staleAfter + time.Second)
	s = openIn(t, dir, c)
	if st := state(s); st != "interrupted" {
		t.Fatalf("state %q after %v", st, staleAfter)
	}
	if hits, _ := s.Search(context.Background(), "narwhal", 10); len(hits) != 1 {
		t.Fatalf("recovered reply not found: %+v", hits)
	}
}

func TestFTSQuery(t *testing.T) {
	for in, want := range map[string]string{
		"hello world":      `"hello" AND "world"`,
		"foo-bar":          `"foo bar"`,
		"wor*":             `"wor"*`,
		`"a phrase"* next`: `"a phrase"* AND "next"`,
		`say "hi`:          `"say" AND "hi"`,
		`""`:               ``,
		"col:x":            `"col x"`,
		`a"b`:              `"a b"`,
	} {
		if got := ftsQuery(in); got != want {
			t.Errorf("ftsQuery(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSplitSnippetUnbalanced(t *testing.T) {
	got := SplitSnippet("a" + HitStart + "b")
	if !reflect.DeepEqual(got, []Span{{Text: "a"}, {Text: "b", Hit: true}}) {
		t.Fatalf("%+v", got)
	}
	if SplitSnippet("") != nil {
		t.Fatal("empty snippet has spans")
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// PlainSnippet is a snippet without its markers.
func PlainSnippet(s string) string {
	return strings.NewReplacer(HitStart, "", HitEnd, "").Replace(s)
}

// ftsQuery turns what a user typed into an FTS5 query.
func ftsQuery(q string) string { return ftsString(parseQuery(q)) }
