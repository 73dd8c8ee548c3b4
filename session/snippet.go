package session

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Snippets are made here, in Go, from a bounded window of the message's
// text (see Search), not by FTS5's snippet(): that scores every possible
// window of the whole message, which grows with the square of its length
// (a 1 MiB message took 15 s). The words are found as the index finds
// them: runs of letters and digits, compared without case and accents.

// snippetTokens is how many words a snippet shows, and snippetLead how
// many of them come before the first match.
const (
	snippetTokens = 16
	snippetLead   = 4
)

// term is one required part of a query: words in a row, the last one a
// prefix when prefix is set.
type term struct {
	words  []string // folded
	prefix bool
}

// token is a word of the text: where it is and how it compares.
type token struct {
	start, end int
	fold       string
}

// tokenize splits text into the words the index uses.
func tokenize(text string) []token {
	var out []token
	start := -1
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, token{start: start, end: i, fold: fold(text[start:i])})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, token{start: start, end: len(text), fold: fold(text[start:])})
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
}

// fold lowers a word and takes its accents off ("Café" -> "cafe"), as the
// index's remove_diacritics does.
func fold(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(w)
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// matches marks the tokens that belong to a match of any term.
func matches(toks []token, terms []term) []bool {
	hit := make([]bool, len(toks))
	for i := range toks {
		for _, t := range terms {
			if matchAt(toks, i, t) {
				for j := range t.words {
					hit[i+j] = true
				}
			}
		}
	}
	return hit
}

func matchAt(toks []token, i int, t term) bool {
	if len(t.words) == 0 || i+len(t.words) > len(toks) {
		return false
	}
	for j, w := range t.words {
		got := toks[i+j].fold
		if j == len(t.words)-1 && t.prefix {
			if !strings.HasPrefix(got, w) {
				return false
			}
		} else if got != w {
			return false
		}
	}
	return true
}

// window is a piece of a message's text.
type window struct {
	text   string
	offset bool // the piece does not start the message
	more   bool // the message goes on after the piece
}

// snippet makes a one-line snippet of w around the first match of terms,
// the matched words between HitStart and HitEnd, "…" where text was left
// out, as plain text (Markdown syntax left out, as in previews). found is false when no term matches in the window; the snippet is
// then its beginning.
func snippet(w window, terms []term) (s string, found bool) {
	toks := tokenize(w.text)
	if w.more && len(toks) > 0 {
		// The last word may be cut by the window.
		toks = toks[:len(toks)-1]
	}
	hit := matches(toks, terms)
	first := -1
	for i, h := range hit {
		if h {
			first = i
			break
		}
	}
	from := max(first-snippetLead, 0)
	to := min(from+snippetTokens, len(toks))
	if to == len(toks) {
		from = max(to-snippetTokens, 0)
	}
	if first < 0 {
		from, to = 0, min(snippetTokens, len(toks))
	}
	var b strings.Builder
	start, end := 0, len(w.text)
	if from > 0 {
		start = toks[from].start
	}
	if to < len(toks) || w.more {
		end = 0
		if to > 0 {
			end = toks[to-1].end
		}
	}
	if start > 0 || w.offset {
		b.WriteString("…")
	}
	at := start
	for i := from; i < to; i++ {
		if !hit[i] {
			continue
		}
		b.WriteString(w.text[at:toks[i].start])
		b.WriteString(HitStart)
		b.WriteString(w.text[toks[i].start:toks[i].end])
		b.WriteString(HitEnd)
		at = toks[i].end
	}
	b.WriteString(w.text[at:end])
	if end < len(w.text) || w.more {
		b.WriteString("…")
	}
	return oneLineSnippet(plainPreview(b.String())), first >= 0
}

// oneLineSnippet turns every run of white space into one space and trims
// the ends, so a snippet is one line wherever it is shown (the spaces
// around a match stay).
func oneLineSnippet(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
