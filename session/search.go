package session

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Markers around the matched words of a Hit's Snippet. They are control
// characters on purpose: a consumer that forgets SplitSnippet shows them
// as visible placeholders after sanitising, never as invisible text.
const (
	HitStart = "\x02"
	HitEnd   = "\x03"
)

// Hit is one message matching a search.
type Hit struct {
	SessionID    string
	SessionTitle string
	// MessageID is the message's id in its conversation.
	MessageID int
	// Place is the message's place on its branch, the first message 1:
	// the number "parley sessions show" gives it on that branch.
	Place int
	Role  string
	// Snippet is the matching part of the message with the matched words
	// between HitStart and HitEnd, cut with "…": one line (white space runs
	// are single spaces, those around a match kept, so a consumer need not
	// fold it), plain text (no Markdown syntax). Untrusted text: sanitise
	// it before a terminal.
	Snippet string
	Created time.Time
}

// Span is a piece of a snippet, matched or not.
type Span struct {
	Text string
	Hit  bool
}

// SplitSnippet cuts a snippet at its markers.
func SplitSnippet(s string) []Span {
	var out []Span
	for s != "" {
		i := strings.Index(s, HitStart)
		if i < 0 {
			out = append(out, Span{Text: s})
			break
		}
		if i > 0 {
			out = append(out, Span{Text: s[:i]})
		}
		s = s[i+len(HitStart):]
		j := strings.Index(s, HitEnd)
		if j < 0 {
			j = len(s)
		}
		if j > 0 {
			out = append(out, Span{Text: s[:j], Hit: true})
		}
		s = strings.TrimPrefix(s[j:], HitEnd)
	}
	return out
}

// Search finds messages of every session that contain all the words of
// query, newest first, at most limit (limit <= 0: 50). Words match whole
// words, regardless of case and accents; a word ending in * matches every
// word it starts (the browser adds * to the word being typed, and
// PrefixQuery to every word); "a phrase in quotes" matches those words in
// a row. Nothing else in query has a meaning, so any text is a valid
// query. An empty query finds nothing.
//
// Its cost does not grow with the square of the size of the matching
// messages, as FTS5's snippet() does: each snippet is made from the first
// snippetChars characters of its message, or, when no word matches there,
// from as much around the first place the query's first word appears
// (found by a linear scan, within searchScanBudget bytes of such messages
// per search, beyond which a snippet shows the message's beginning). A
// cancelled ctx stops the database at once (the driver interrupts SQLite).
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if err := s.Opened(ctx); err != nil {
		return nil, err
	}
	return searcher{db: s.db, path: s.path}.search(ctx, query, limit)
}

// searcher runs one search: the full-text indexes, then the snippets.
type searcher struct {
	db   *sql.DB
	path string // the database's, for errors
}

func (s searcher) search(ctx context.Context, query string, limit int) ([]Hit, error) {
	terms := parseQuery(query)
	match := ftsString(terms)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = 50
	}
	const op = "search the history"
	// Replies whose tool calls match come from tools_fts, a second index
	// (few rows), merged in by row id so the newest hits still come first.
	var all []found
	for _, index := range []string{"messages_fts", "tools_fts"} {
		more, err := s.searchIndex(ctx, index, match, limit)
		if err != nil {
			return nil, err
		}
		all = mergeFound(all, more, limit)
	}
	terms = foldTerms(terms)
	budget := int64(searchScanBudget)
	hits := make([]Hit, 0, len(all))
	for _, f := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w := window{text: f.head}
		if utf8.RuneCountInString(f.head) > snippetChars {
			w.text, w.more = dropLastRune(f.head), true
		}
		snip, ok := snippet(w, terms)
		if !ok && w.more && budget >= f.size {
			budget -= f.size
			if later, found, err := s.snippetAround(ctx, f.rowID, terms); err != nil {
				return nil, classify(s.path, op, err)
			} else if found {
				snip = later
			}
		}
		f.Snippet = snip
		place, err := s.place(ctx, f.rowID)
		if err != nil {
			return nil, classify(s.path, op, err)
		}
		f.Place = place
		hits = append(hits, f.Hit)
	}
	return hits, nil
}

// sqlPlace counts the messages from the one with row id ?1 up to the
// first of its conversation, through each parent (a number of the same
// session; 0 opens it). The bound stops a cycle a hand-edited database
// could hold.
const sqlPlace = `
	WITH RECURSIVE up(sid, parent, n) AS (
		SELECT session_id, parent, 1 FROM messages WHERE id = ?1
		UNION ALL
		SELECT m.session_id, m.parent, up.n + 1 FROM up
		JOIN messages m ON m.session_id = up.sid AND m.seq = up.parent
		WHERE up.parent <> 0 AND up.n < 1000000
	)
	SELECT coalesce(max(n), 0) FROM up`

// place is the place of the message with row id rowID on its branch (see
// Hit.Place): one indexed look-up per message before it.
func (s searcher) place(ctx context.Context, rowID int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, sqlPlace, rowID).Scan(&n)
	return n, err
}

// Bounds of the work one search does for its snippets (see Search).
const (
	snippetChars     = 32 << 10
	snippetBefore    = 256
	searchScanBudget = 256 << 20
)

// snippetAround makes the snippet of a long message from a window around
// the first place where the query's first word appears in it (as written,
// in lower case, capitalised or in capitals; ASCII words only). The text
// is read whole and searched in Go, which is several times faster than
// SQLite's instr. found is false when there is no such place, or it holds
// no match after all (the word inside another one).
func (s searcher) snippetAround(ctx context.Context, rowID int64, terms []term) (snip string, found bool, err error) {
	needle := ""
	if len(terms) > 0 && len(terms[0].words) > 0 {
		needle = terms[0].words[0]
	}
	for i := 0; i < len(needle); i++ {
		if needle[i] >= utf8.RuneSelf {
			return "", false, nil
		}
	}
	var text string
	err = s.db.QueryRowContext(ctx, "SELECT text FROM messages WHERE id = ?", rowID).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil || needle == "" {
		return "", false, err
	}
	at := -1
	for _, v := range []string{needle, strings.ToUpper(needle[:1]) + needle[1:], strings.ToUpper(needle)} {
		if i := strings.Index(text, v); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return "", false, nil
	}
	from := max(at-snippetBefore, 0)
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	end := min(from+snippetChars, len(text))
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end--
	}
	w := window{text: text[from:end], offset: from > 0, more: end < len(text)}
	// The window may start inside a word: that word is not shown.
	if toks := tokenize(w.text); w.offset && len(toks) > 0 && toks[0].start == 0 {
		w.text = w.text[toks[0].end:]
	}
	snip, found = snippet(w, terms)
	return snip, found, nil
}

func dropLastRune(s string) string {
	_, size := utf8.DecodeLastRuneInString(s)
	return s[:len(s)-size]
}

// PrefixQuery makes every word of a query a prefix (a quoted phrase: its
// last word), so "wombat" finds "wombats" too, as the browser's search
// does for the word being typed.
func PrefixQuery(q string) string {
	terms := parseQuery(q)
	var parts []string
	for _, t := range terms {
		p := `"` + strings.Join(t.words, " ") + `"*`
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// parseQuery splits what a user typed into terms: every word or quoted
// phrase is one (so FTS5 operators and column filters are only words), all
// of them required; a trailing * makes a word a prefix. A word with inner
// punctuation ("foo-bar", "v1.2") is several tokens to the index: they
// must follow one another.
func parseQuery(q string) []term {
	var terms []term
	add := func(ws []string, prefix bool) {
		if len(ws) > 0 {
			terms = append(terms, term{words: ws, prefix: prefix})
		}
	}
	for q != "" {
		q = strings.TrimLeftFunc(q, unicode.IsSpace)
		if q == "" {
			break
		}
		if q[0] == '"' {
			var chunk string
			end := strings.IndexByte(q[1:], '"')
			if end < 0 {
				chunk, q = q[1:], ""
			} else {
				chunk, q = q[1:1+end], q[2+end:]
			}
			prefix := strings.HasPrefix(q, "*")
			q = strings.TrimPrefix(q, "*")
			add(words(chunk), prefix)
			continue
		}
		end := strings.IndexFunc(q, unicode.IsSpace)
		if end < 0 {
			end = len(q)
		}
		chunk := q[:end]
		q = q[end:]
		add(words(chunk), strings.HasSuffix(chunk, "*"))
	}
	return terms
}

// ftsString is the FTS5 query for terms: each a quoted string, all of
// them required.
func ftsString(terms []term) string {
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		p := `"` + strings.Join(t.words, " ") + `"`
		if t.prefix {
			p += "*"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " AND ")
}

// foldTerms folds the words of terms as the index compares them.
func foldTerms(terms []term) []term {
	out := make([]term, len(terms))
	for i, t := range terms {
		out[i] = term{prefix: t.prefix, words: make([]string, len(t.words))}
		for j, w := range t.words {
			out[i].words[j] = fold(w)
		}
	}
	return out
}

// words splits text into the tokens the index uses: runs of letters and
// digits.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
}

// found is a hit as an index gives it, before its snippet.
type found struct {
	Hit
	rowID int64
	size  int64
	head  string
}

// searchIndex runs the match on one full-text index (messages_fts or
// tools_fts, both keyed by the message's row id), newest first.
func (s searcher) searchIndex(ctx context.Context, index, match string, limit int) ([]found, error) {
	const op = "search the history"
	rows, err := s.db.QueryContext(ctx, `
		SELECT m.id, m.session_id, s.title, m.seq, m.role, m.created, octet_length(m.text), substr(m.text, 1, ?2)
		FROM `+index+`
		JOIN messages m ON m.id = `+index+`.rowid
		JOIN sessions s ON s.id = m.session_id
		WHERE `+index+` MATCH ?1
		ORDER BY `+index+`.rowid DESC
		LIMIT ?3`, match, snippetChars+1, limit)
	if err != nil {
		return nil, classify(s.path, op, err)
	}
	var all []found
	for rows.Next() {
		var f found
		var created int64
		if err := rows.Scan(&f.rowID, &f.SessionID, &f.SessionTitle, &f.MessageID, &f.Role, &created, &f.size, &f.head); err != nil {
			rows.Close()
			return nil, classify(s.path, op, err)
		}
		f.Created = fromMillis(created)
		all = append(all, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, classify(s.path, op, err)
	}
	return all, nil
}

// mergeFound merges two lists of hits, each newest first, into one of at
// most limit, a message found by both once.
func mergeFound(a, b []found, limit int) []found {
	if len(b) == 0 {
		return a
	}
	out := make([]found, 0, min(limit, len(a)+len(b)))
	for len(out) < limit && (len(a) > 0 || len(b) > 0) {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].rowID > b[0].rowID:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0].rowID > a[0].rowID:
			out, b = append(out, b[0]), b[1:]
		default: // the same message
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return out
}
