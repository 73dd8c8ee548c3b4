package session

import (
	"context"
	"strings"
	"time"
	"unicode"
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
	Role      string
	// Snippet is the matching part of the message with the matched words
	// between HitStart and HitEnd, cut with "…" (untrusted text: sanitise
	// it before a terminal).
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

// PlainSnippet is a snippet without its markers.
func PlainSnippet(s string) string {
	return strings.NewReplacer(HitStart, "", HitEnd, "").Replace(s)
}

// Search finds messages of every session that contain all the words of
// query, newest first, at most limit (limit <= 0: 50). Words match whole
// words, regardless of case and accents; a word ending in * matches every
// word it starts (the browser adds * to the word being typed); "a phrase
// in quotes" matches those words in a row. Nothing else in query has a
// meaning, so any text is a valid query. An empty query finds nothing.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = 50
	}
	const op = "search the history"
	rows, err := s.db.QueryContext(ctx, `
		SELECT m.session_id, s.title, m.seq, m.role, m.created,
			snippet(messages_fts, 0, ?2, ?3, '…', 12)
		FROM messages_fts
		JOIN messages m ON m.id = messages_fts.rowid
		JOIN sessions s ON s.id = m.session_id
		WHERE messages_fts MATCH ?1
		ORDER BY messages_fts.rowid DESC
		LIMIT ?4`, match, HitStart, HitEnd, limit)
	if err != nil {
		return nil, classify(s.path, op, err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		var created int64
		if err := rows.Scan(&h.SessionID, &h.SessionTitle, &h.MessageID, &h.Role, &created, &h.Snippet); err != nil {
			return nil, classify(s.path, op, err)
		}
		h.Created = fromMillis(created)
		hits = append(hits, h)
	}
	return hits, classify(s.path, op, rows.Err())
}

// ftsQuery turns what a user typed into an FTS5 query: every word or
// quoted phrase becomes a quoted string (so FTS5 operators and column
// filters are only words), all of them required; a trailing * makes a
// word a prefix.
func ftsQuery(q string) string {
	var terms []string
	add := func(words []string, prefix bool) {
		if len(words) == 0 {
			return
		}
		t := `"` + strings.Join(words, " ") + `"`
		if prefix {
			t += "*"
		}
		terms = append(terms, t)
	}
	for q != "" {
		q = strings.TrimLeftFunc(q, unicode.IsSpace)
		if q == "" {
			break
		}
		var chunk string
		if q[0] == '"' {
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
		chunk, q = q[:end], q[end:]
		// A word with inner punctuation ("foo-bar", "v1.2") is several
		// tokens to the index: they must follow one another.
		add(words(chunk), strings.HasSuffix(chunk, "*"))
	}
	return strings.Join(terms, " AND ")
}

// words splits text into the tokens the index uses: runs of letters and
// digits.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r)
	})
}
