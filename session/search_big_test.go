package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSearchWithAHugeMessage: a 6 MiB log (2 MiB under the race detector)
// piped into ask (a real stored
// and indexed message) does not slow searches down: a word at its start,
// a word only at its very end, a phrase, a prefix and a word elsewhere
// are each found in well under a second of CPU, and the snippets are
// short, on one line, with the spaces around the match.
func TestSearchWithAHugeMessage(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	var b strings.Builder
	b.WriteString("Started the build.\n")
	size := 6 << 20
	if raceEnabled {
		size = 2 << 20
	}
	for b.Len() < size {
		b.WriteString("INFO compile step ok, nothing to report\n")
	}
	b.WriteString("FATAL the wombats ate the cables\n")
	log := b.String()
	chat(t, r, c, "", log, "The build failed because of wombats.")
	chat(t, r, c, "", "unrelated question about tea", "A cup of tea. Tea rewards patience.")
	flushWithin(t, r, time.Minute)
	ctx := context.Background()
	for _, tc := range []struct {
		query string
		hits  int
		want  string // in the snippet of the first hit that is the log
	}{
		{"started", 1, "\x02Started\x03 the build. INFO compile"},
		{"cables", 1, "FATAL the wombats ate the \x02cables\x03"},
		{`"wombats ate"`, 1, "the \x02wombats\x03 \x02ate\x03 the cables"},
		{"wombat*", 2, "\x02wombats\x03 ate"},
		{"tea", 2, "A cup of \x02tea\x03. \x02Tea\x03 rewards"},
		{"compile", 1, "\x02compile\x03 step ok"},
	} {
		// The process's CPU time (Linux; wall time elsewhere): a loaded
		// machine stretches wall time without the search doing more. A
		// second still catches the quadratic snippet() this guards
		// against, which took 15 s for a 1 MiB message.
		start, cpu0 := time.Now(), processCPU()
		hits, err := s.Search(ctx, tc.query, 10)
		took := time.Since(start)
		if cpu0 > 0 {
			took = processCPU() - cpu0
		}
		if err != nil || len(hits) != tc.hits {
			t.Fatalf("%s: %d hits, %v", tc.query, len(hits), err)
		}
		var snip string
		for _, h := range hits {
			if strings.Contains(h.Snippet, tc.want) {
				snip = h.Snippet
			}
		}
		t.Logf("%-16s %v of CPU (%v wall) %q", tc.query, took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), snip)
		if snip == "" {
			t.Errorf("%s: no snippet holds %q: %+v", tc.query, tc.want, hits)
		}
		if len(snip) > 400 || strings.ContainsAny(snip, "\n\t") {
			t.Errorf("%s: snippet of %d bytes: %q", tc.query, len(snip), snip)
		}
		if took > time.Second {
			t.Errorf("%s took %v of CPU", tc.query, took)
		}
	}
}

// TestSearchStopsWhenCancelled: a search that is cancelled returns at
// once with the context's error, and the database stops working on it
// (no CPU is spent after it returned).
func TestSearchStopsWhenCancelled(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	// 200 messages of 34 KB, each matching: every hit costs a snippet.
	body := strings.Repeat("needle in a haystack of words ", 1100)
	if _, err := s.db.Exec(`INSERT INTO sessions (id, created, updated) VALUES ('0abc', 1, 1);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
		INSERT INTO messages (session_id, seq, role, text, state, created, updated, writer) SELECT '0abc', i, 'user', ?, 'done', 1, 1, 6 FROM n`, body); err != nil {
		t.Fatal(err)
	}
	full := time.Now()
	if hits, err := s.Search(context.Background(), "needle", 300); err != nil || len(hits) != 200 {
		t.Fatalf("%d hits, %v", len(hits), err)
	}
	whole := time.Since(full)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Search(ctx, "needle", 300)
		done <- err
	}()
	time.Sleep(whole / 4)
	cancel()
	cancelled := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("the search went on for 2 s after it was cancelled")
	}
	stopped := time.Since(cancelled)
	cpu := processCPU()
	time.Sleep(200 * time.Millisecond)
	after := processCPU() - cpu
	t.Logf("a whole search: %v; stopped %v after the cancel; %v of CPU in the 200 ms after", whole.Round(time.Millisecond), stopped.Round(time.Microsecond), after)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if stopped > 100*time.Millisecond {
		t.Fatalf("returned %v after the cancel", stopped)
	}
	if after > 100*time.Millisecond {
		t.Fatalf("%v of CPU spent after the search returned", after)
	}
}

// TestSnippetWindows: the snippet of a window: the first match with a few
// words before it, every match in it marked, "…" where text was left out,
// whitespace as single spaces, and a word cut by the window's end left
// out.
func TestSnippetWindows(t *testing.T) {
	terms := foldTerms(parseQuery(`café "two words" pre*`))
	for _, tc := range []struct {
		w     window
		want  string
		found bool
	}{
		{window{text: "a b c d e f g h CAFE i j"}, "a b c d e f g h \x02CAFE\x03 i j", true},
		{window{text: "a b c d e f g h i j k l m n o p q r CAFE s t u v w x y z"}, "…l m n o p q r \x02CAFE\x03 s t u v w x y z", true},
		{window{text: "the\n\ntwo words\tand prefix"}, "the \x02two\x03 \x02words\x03 and \x02prefix\x03", true},
		{window{text: "nothing here at all", more: true}, "nothing here at…", false},
		{window{text: "x café y", offset: true}, "…x \x02café\x03 y", true},
		{window{text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen café"}, "…three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen \x02café\x03", true},
	} {
		got, found := snippet(tc.w, terms)
		if got != tc.want || found != tc.found {
			t.Errorf("snippet(%q) = %q, %v; want %q, %v", tc.w.text, got, found, tc.want, tc.found)
		}
	}
}

func TestPrefixQuery(t *testing.T) {
	for in, want := range map[string]string{
		"wombat":        `"wombat"*`,
		"two words":     `"two"* "words"*`,
		`"a phrase" x*`: `"a phrase"* "x"*`,
		"  ":            "",
		"foo-bar NOT":   `"foo bar"* "NOT"*`,
	} {
		if got := PrefixQuery(in); got != want {
			t.Errorf("PrefixQuery(%q) = %q, want %q", in, got, want)
		}
	}
}
