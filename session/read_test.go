package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"parley/conversation"
)

func TestListNewestFirst(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	ctx := context.Background()
	var ids []string
	for i := 0; i < 5; i++ {
		conv := chat(t, r, c, fmt.Sprintf("%032x", i+1), fmt.Sprintf("question %d", i), fmt.Sprintf("answer\n  number   %d", i))
		ids = append(ids, conv.ID())
	}
	// A title-only conversation is not worth listing.
	conversation.New(conversation.Options{ID: "ff", Listeners: []conversation.Listener{r}}).SetTitle("empty")
	flush(t, r)
	list, err := s.List(ctx, 0, 0)
	if err != nil || len(list) != 5 {
		t.Fatalf("List = %d sessions, %v", len(list), err)
	}
	for i, m := range list {
		want := ids[4-i]
		if m.ID != want || m.Messages != 2 || m.Model != "gpt-4o" {
			t.Fatalf("list[%d] = %+v, want %s", i, m, want)
		}
	}
	if list[0].Title != "question 4" || list[0].Preview != "answer number 4" {
		t.Fatalf("title %q preview %q", list[0].Title, list[0].Preview)
	}
	page, _ := s.List(ctx, 2, 1)
	if len(page) != 2 || page[0].ID != ids[3] || page[1].ID != ids[2] {
		t.Fatalf("page %+v", page)
	}
	if n, _ := s.Count(ctx); n != 5 {
		t.Fatalf("Count = %d", n)
	}
	latest, err := s.Latest(ctx)
	if err != nil || latest.ID != ids[4] {
		t.Fatalf("Latest = %+v, %v", latest, err)
	}
	// A new turn in an older session makes it the latest.
	old := conversation.Restore(conversation.Options{ID: ids[0], Listeners: []conversation.Listener{r}, Now: c.now}, mustLoad(t, s, ids[0]).Snapshot)
	answer(t, old, c, "back again", "welcome back")
	flush(t, r)
	if latest, _ := s.Latest(ctx); latest.ID != ids[0] || latest.Messages != 4 {
		t.Fatalf("Latest after a new turn = %+v", latest)
	}
	empty, _ := openStore(t, c)
	if _, err := empty.Latest(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Latest of an empty history = %v", err)
	}
}

func mustLoad(t *testing.T, s *Store, id string) Session {
	t.Helper()
	got, err := s.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestResolvePrefixes(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	for _, id := range []string{"0190aa11", "0190aa22", "0190bb33", "0190bb3"} {
		chat(t, r, c, id, "q", "a")
	}
	flush(t, r)
	ctx := context.Background()
	cases := []struct {
		prefix, want string
		err          error
		says         string
	}{
		{"0190aa1", "0190aa11", nil, ""},
		{"  0190AA22 ", "0190aa22", nil, ""},
		{"0190bb3", "0190bb3", nil, ""}, // a whole id wins over longer ones
		{"0190a", "", ErrAmbiguous, `"0190a" matches several sessions: 0190aa11 (q), 0190aa22 (q); give more of the id`},
		{"0190c", "", ErrNotFound, "parley sessions list"},
		{"xyz", "", ErrNotFound, "not a session id"},
		{"", "", ErrNotFound, "not a session id"},
	}
	for _, tc := range cases {
		got, err := s.Resolve(ctx, tc.prefix)
		if got != tc.want || !errors.Is(err, tc.err) || (tc.says != "" && !strings.Contains(fmt.Sprint(err), tc.says)) {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v saying %q", tc.prefix, got, err, tc.want, tc.err, tc.says)
		}
	}
}

// TestAmbiguousPrefixListsTheCandidates: a prefix many sessions share
// names them (as much of each id as tells them apart, and the title), the
// first few of them and how many more.
func TestAmbiguousPrefixListsTheCandidates(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	for i := range 10 {
		chat(t, r, c, fmt.Sprintf("01a217c32e957%03x00000000000000000", i), fmt.Sprintf("question %d", i), "a")
	}
	flush(t, r)
	_, err := s.Resolve(context.Background(), "01a2")
	want := `"01a2" matches several sessions: 01a217c32e957000 (question 0), 01a217c32e957001 (question 1), 01a217c32e957002 (question 2), ` +
		`01a217c32e957003 (question 3), 01a217c32e957004 (question 4), 01a217c32e957005 (question 5), 01a217c32e957006 (question 6), ` +
		`01a217c32e957007 (question 7) and 2 more; give more of the id`
	if !errors.Is(err, ErrAmbiguous) || err.Error() != want {
		t.Fatalf("Resolve = %v", err)
	}
}

// TestLoadWindows: a long session opens with its tail; earlier messages
// and the ones around a search hit come on demand.
func TestLoadWindows(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	for i := 0; i < 30; i++ {
		answer(t, conv, c, fmt.Sprintf("q%d", i), fmt.Sprintf("a%d", i))
	}
	flush(t, r)
	ctx := context.Background()
	tail, err := s.LoadTail(ctx, conv.ID(), 10)
	if err != nil || tail.Messages != 60 || len(tail.Snapshot.Messages) != 10 {
		t.Fatalf("LoadTail: %d of %d, %v", len(tail.Snapshot.Messages), tail.Messages, err)
	}
	first := tail.Snapshot.Messages[0]
	if first.ID != 51 || tail.Snapshot.Messages[9].ID != 60 {
		t.Fatalf("tail ids %d..%d", first.ID, tail.Snapshot.Messages[9].ID)
	}
	before, err := s.LoadBefore(ctx, conv.ID(), first.ID, 20)
	if err != nil || len(before) != 20 || before[0].ID != 31 || before[19].ID != 50 {
		t.Fatalf("LoadBefore: %d, %v", len(before), err)
	}
	rng, err := s.LoadRange(ctx, conv.ID(), 5, 8)
	if err != nil || len(rng) != 3 || rng[0].ID != 5 || rng[0].Text != "q2" {
		t.Fatalf("LoadRange: %+v, %v", rng, err)
	}
	if all, _ := s.LoadRange(ctx, conv.ID(), 59, 0); len(all) != 2 {
		t.Fatalf("LoadRange to the end: %d", len(all))
	}
	if _, err := s.Load(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Load of an unknown id: %v", err)
	}
}

// TestTwoWritersAtOnce: two stores on one database (as two parley
// processes have), each recording its own conversation from its own
// goroutine while the other writes, lose nothing and corrupt nothing.
func TestTwoWritersAtOnce(t *testing.T) {
	c := newClock()
	a, dir := openStore(t, c)
	b := openIn(t, dir, c)
	ra, rb := record(t, a), record(t, b)
	const turns = 40
	var wg sync.WaitGroup
	ids := make([]string, 2)
	for i, r := range []*Recorder{ra, rb} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}})
			ids[i] = conv.ID()
			for n := 0; n < turns; n++ {
				conv.AddUser(fmt.Sprintf("writer %d question %d", i, n), nil)
				id, _ := conv.StartReply("m")
				conv.AppendDelta(id, strings.Repeat("x", 500))
				conv.Finish(id, "stop", nil)
				if n%10 == 0 {
					r.Flush(context.Background())
				}
			}
		}()
	}
	wg.Wait()
	for _, r := range []*Recorder{ra, rb} {
		flush(t, r)
		select {
		case err := <-r.Errors():
			t.Fatalf("a writer failed: %v", err)
		default:
		}
	}
	ctx := context.Background()
	for i, id := range ids {
		for _, s := range []*Store{a, b} {
			got, err := s.Load(ctx, id)
			if err != nil || len(got.Snapshot.Messages) != 2*turns || got.Messages != 2*turns {
				t.Fatalf("session of writer %d: %d messages (count %d), %v", i, len(got.Snapshot.Messages), got.Messages, err)
			}
		}
	}
	var check string
	if err := a.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
	if _, err := a.db.Exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')"); err != nil {
		t.Fatalf("search index: %v", err)
	}
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"  a\n\tb  c ", 10, "a b c"},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"abcd efgh", 6, "abcd…"},
		{"héllo wörld", 8, "héllo w…"},
		{"", 5, ""},
		{" \n ", 5, ""},
	} {
		if got := oneLine(c.in, c.n); got != c.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestPreviewFollowsTheLatestText: the listing's preview is the latest
// message with text; a dropped reply gives it back to the question.
func TestPreviewFollowsTheLatestText(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := chat(t, r, c, "", "first question", "first answer")
	conv.AddUser("second\n\nquestion", nil)
	flush(t, r)
	preview := func() string {
		m, err := s.Get(context.Background(), conv.ID())
		if err != nil {
			t.Fatal(err)
		}
		return m.Preview
	}
	if p := preview(); p != "second question" {
		t.Fatalf("preview %q", p)
	}
	id, _ := conv.StartReply("m")
	flush(t, r)
	if p := preview(); p != "second question" {
		t.Fatalf("preview while the reply has no text: %q", p)
	}
	conv.AppendDelta(id, strings.Repeat("é", 500))
	conv.Finish(id, "stop", nil)
	flush(t, r)
	if p := preview(); p != strings.Repeat("é", previewRunes-1)+"…" {
		t.Fatalf("long preview %q", p)
	}
	conv.PrepareRetry()
	flush(t, r)
	if p := preview(); p != "second question" {
		t.Fatalf("preview after the reply was dropped: %q", p)
	}
}

// TestPreviewIsPlainText: a preview shows what a reader of the rendered
// message sees, not its Markdown.
func TestPreviewIsPlainText(t *testing.T) {
	for md, want := range map[string]string{
		"## Heading\n\nSome **bold** and *em* and `code`.": "Heading Some bold and em and code.",
		"- [x] done\n- item two\n1. first":                 "done item two first",
		"> quoted [a link](https://x.y) ![pic](p.png)":     "quoted a link pic",
		"```go\nfunc main() {}\n```\nafter":                "func main() {} after",
		"| a | b |\n|---|---|\n| 1 | 2 |":                  "a b 1 2",
		"snake_case_name and 2*3*4 stay; ~~gone~~ marks":   "snake_case_name and 2*3*4 stay; gone marks",
		"---\nplain": "plain",
	} {
		if got := oneLine(plainPreview(md), previewRunes); got != want {
			t.Errorf("preview of %q = %q, want %q", md, got, want)
		}
	}
}
