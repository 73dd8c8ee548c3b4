// Package suggest finds the "did you mean" candidate for a misspelt name
// (a config key, a theme colour role), so every message that offers one
// uses the same rule.
package suggest

import "slices"

// maxEdits is how far a misspelling may be from the name it stands for.
// Two edits catch swapped and doubled letters ("visoin", "acent") without
// suggesting unrelated short names.
const maxEdits = 2

// Closest returns the candidate nearest to word, at most maxEdits edits
// away, or "" when none is that close. On a tie the earlier candidate wins,
// so callers control the order.
func Closest(word string, candidates []string) string {
	best, bestD := "", maxEdits+1
	for _, c := range candidates {
		if d := Distance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Nearest returns up to n candidates, nearest to word first; on a tie the
// earlier candidate comes first. It is for a name far from every
// candidate, where Closest has nothing, yet the user is best shown the
// names that look most like what was typed.
func Nearest(word string, candidates []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	all := make([]scored, len(candidates))
	for i, c := range candidates {
		all[i] = scored{c, Distance(word, c)}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, min(n, len(all)))
	for _, s := range all[:min(max(n, 0), len(all))] {
		out = append(out, s.name)
	}
	return out
}

// Distance is the Levenshtein distance between a and b: the fewest
// insertions, deletions and substitutions of characters (runes) that turn
// one into the other.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
