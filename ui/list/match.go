package list

import (
	"sort"
	"strings"
	"unicode"
)

// Scores of one term, lower is better: the whole text, then a substring
// by where it starts (a prefix first), then the letters in order by how
// tightly they fit. A subsequence always ranks after every substring.
const (
	scoreExact       = 0
	scoreSubstring   = 1
	scoreSubsequence = 1 << 16
)

// Fold lowers each rune on its own, so rune positions stay aligned with
// the original text (strings.ToLower may change the rune count).
func Fold(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToLower(c)
	}
	return r
}

// Terms splits a filter into its words, folded: every word must match.
func Terms(query string) [][]rune {
	var out [][]rune
	for _, f := range strings.Fields(query) {
		out = append(out, Fold(f))
	}
	return out
}

// Score matches terms (from Terms) against text (from Fold). ok is false
// when a term is missing. hits marks the runes of text that matched, for
// highlighting; nil when there are no terms. The score is the sum of the
// terms' scores, lower is better.
func Score(text []rune, terms [][]rune) (score int, hits []bool, ok bool) {
	if len(terms) == 0 {
		return 0, nil, true
	}
	hits = make([]bool, len(text))
	for _, t := range terms {
		s, found := scoreTerm(text, t, hits)
		if !found {
			return 0, nil, false
		}
		score += s
	}
	return score, hits, true
}

// scoreTerm finds term in text, marks the matched runes in hits and
// returns the term's score.
func scoreTerm(text, term []rune, hits []bool) (int, bool) {
	if len(term) == 0 {
		return scoreExact, true
	}
	if at := indexRunes(text, term); at >= 0 {
		for k := range term {
			hits[at+k] = true
		}
		if len(term) == len(text) {
			return scoreExact, true
		}
		return scoreSubstring + at, true
	}
	// Subsequence: the first (leftmost) end, then walk back to the latest
	// start before it, so the span is as tight as it can be.
	j, end := 0, -1
	for i, c := range text {
		if c == term[j] {
			j++
			if j == len(term) {
				end = i
				break
			}
		}
	}
	if end < 0 {
		return 0, false
	}
	first := end
	j = len(term) - 1
	for i := end; i >= 0 && j >= 0; i-- {
		if text[i] == term[j] {
			hits[i] = true
			first = i
			j--
		}
	}
	span := end - first + 1
	return scoreSubsequence + (span-len(term))*8 + first, true
}

func indexRunes(s, sub []rune) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		ok := true
		for k, c := range sub {
			if s[i+k] != c {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

// Match is one item that passed a filter.
type Match struct {
	// Index is the item's position in what was filtered.
	Index int
	// Score ranks the match, lower is better.
	Score int
	// Hits marks the runes of the item's text that matched; nil when the
	// filter is empty or the item matched by an alias.
	Hits []bool
}

// Rank filters n texts by query, best first; ties keep the given order, so
// an empty query keeps everything as given. alias, when not nil, gives
// other names an item is found by: a match by an alias counts as the
// text's but loses a tie to it, and marks no hits.
func Rank(query string, n int, text func(i int) string, alias func(i int) []string) []Match {
	terms := Terms(query)
	out := make([]Match, 0, n)
	for i := range n {
		if m, ok := matchOne(i, Fold(text(i)), terms, alias); ok {
			out = append(out, m)
		}
	}
	sortMatches(out)
	return out
}

// matchOne scores item i (its folded text) and its aliases.
func matchOne(i int, folded []rune, terms [][]rune, alias func(i int) []string) (Match, bool) {
	s, hits, ok := Score(folded, terms)
	best := Match{Index: i, Score: s * 2, Hits: hits}
	if len(terms) == 0 {
		return best, true
	}
	if alias != nil {
		for _, a := range alias(i) {
			as, _, aok := Score(Fold(a), terms)
			if aok && (!ok || as*2+1 < best.Score) {
				best, ok = Match{Index: i, Score: as*2 + 1}, true
			}
		}
	}
	return best, ok
}

func sortMatches(ms []Match) {
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].Score < ms[b].Score })
}
