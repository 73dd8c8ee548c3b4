package overlay

import (
	"sort"
	"strings"
	"unicode"
)

// match is one item that passed the filter: its index in the picker's items,
// a score (lower is better) and the rune positions of the title that matched,
// for highlighting.
type match struct {
	index int
	score int
	hits  []bool // per rune of the title; nil when nothing is highlighted
}

// fuzzyPenalty ranks every item that matched only as a subsequence after all
// items where each term appeared as a substring.
const fuzzyPenalty = 1 << 16

// filterItems returns the items whose title matches query, best first.
//
// The query is split into terms on white space; every term must match the
// title case-insensitively, either as a substring (preferred, ranked by how
// early it starts) or as a subsequence (ranked by how tightly it fits). Ties
// keep the items' original order, so an empty query lists everything as given.
//
// titles are the item titles as lowerRunes returns them (folded once, when
// the items are set, not on every key press).
func filterItems(titles [][]rune, query string) []match {
	var terms [][]rune
	for _, f := range strings.Fields(query) {
		terms = append(terms, lowerRunes(f))
	}
	out := make([]match, 0, len(titles))
	var hits []bool
	for i, runes := range titles {
		if len(terms) == 0 {
			out = append(out, match{index: i})
			continue
		}
		if cap(hits) < len(runes) {
			hits = make([]bool, len(runes))
		}
		hits = hits[:len(runes)]
		clear(hits)
		score, ok := 0, true
		for _, term := range terms {
			s, found := matchTerm(runes, term, hits)
			if !found {
				ok = false
				break
			}
			score += s
		}
		if ok {
			out = append(out, match{index: i, score: score, hits: append([]bool(nil), hits...)})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score < out[b].score })
	return out
}

// lowerRunes folds each rune on its own so rune positions stay aligned with
// the original title (strings.ToLower may change the rune count).
func lowerRunes(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToLower(c)
	}
	return r
}

// matchTerm finds term in title, marks the matched runes in hits and returns
// the score of the match.
func matchTerm(title, term []rune, hits []bool) (int, bool) {
	if len(term) == 0 {
		return 0, true
	}
	if at := indexRunes(title, term); at >= 0 {
		for k := range term {
			hits[at+k] = true
		}
		return at, true
	}
	// Subsequence: the first (leftmost) end position, then walk back to the
	// latest possible start so the reported span is as tight as possible.
	j, end := 0, -1
	for i, c := range title {
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
	pos := make([]int, len(term))
	j = len(term) - 1
	for i := end; i >= 0 && j >= 0; i-- {
		if title[i] == term[j] {
			pos[j] = i
			j--
		}
	}
	for _, p := range pos {
		hits[p] = true
	}
	span := pos[len(pos)-1] - pos[0] + 1
	return fuzzyPenalty + (span-len(term))*8 + pos[0], true
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
