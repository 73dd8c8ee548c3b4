package slash

import (
	"sort"
	"strings"
)

// Match classes, best first.
const (
	classExact = iota
	classPrefix
	classSubstring
	classSubsequence
	classNone
)

// nameMatch is one command that passed the filter.
type nameMatch struct {
	cmd   int // position in the registry
	class int
	score int // within the class: lower is better
	// alias is the alias that matched when the name did not.
	alias string
	// hits marks the bytes of the name that matched (names are ASCII);
	// nil when nothing is highlighted.
	hits []bool
}

// filterCommands returns the commands whose name or alias matches query,
// best first: an exact name, then names that start with the query, then
// names that contain it, then names that contain its letters in order. An
// alias counts like the name but loses a tie to a name. Ties keep the
// registration order, so an empty query lists every command as registered.
func filterCommands[E any](cmds []Command[E], query string) []nameMatch {
	q := strings.ToLower(query)
	out := make([]nameMatch, 0, len(cmds))
	for i, c := range cmds {
		if q == "" {
			out = append(out, nameMatch{cmd: i})
			continue
		}
		class, score, hits := matchName(c.Name, q)
		best := nameMatch{cmd: i, class: class, score: score * 2, hits: hits}
		for _, a := range c.Aliases {
			ac, as, _ := matchName(a, q)
			if ac < best.class || (ac == best.class && as*2+1 < best.score) {
				best = nameMatch{cmd: i, class: ac, score: as*2 + 1, alias: a}
			}
		}
		if best.class != classNone {
			out = append(out, best)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].class != out[b].class {
			return out[a].class < out[b].class
		}
		return out[a].score < out[b].score
	})
	return out
}

// matchName matches the lower-case query against an ASCII name and returns
// the class, a score within it and the matched bytes.
func matchName(name, q string) (class, score int, hits []bool) {
	switch {
	case name == q:
		return classExact, 0, span(len(name), 0, len(q))
	case strings.HasPrefix(name, q):
		return classPrefix, 0, span(len(name), 0, len(q))
	}
	if at := strings.Index(name, q); at >= 0 {
		return classSubstring, at, span(len(name), at, len(q))
	}
	// Subsequence: the leftmost end, then the latest start before it, so
	// the span is as tight as it can be; score by gaps, then start.
	j, end := 0, -1
	for i := 0; i < len(name) && end < 0; i++ {
		if name[i] == q[j] {
			j++
			if j == len(q) {
				end = i
			}
		}
	}
	if end < 0 {
		return classNone, 0, nil
	}
	hits = make([]bool, len(name))
	first := end
	j = len(q) - 1
	for i := end; i >= 0 && j >= 0; i-- {
		if name[i] == q[j] {
			hits[i] = true
			first = i
			j--
		}
	}
	return classSubsequence, (end-first+1-len(q))*8 + first, hits
}

// span marks n bytes from at.
func span(size, at, n int) []bool {
	h := make([]bool, size)
	for i := at; i < at+n && i < size; i++ {
		h[i] = true
	}
	return h
}

// FilterCompletions keeps the candidates whose Value matches word, best
// first, the way the command list filters names: values that start with
// word (ignoring case), then values that contain it, then values that
// contain its letters in order; each group keeps the given order. An empty
// word keeps everything. Complete functions over a fixed list (model names,
// themes) can return FilterCompletions(arg.Word, all).
func FilterCompletions(word string, all []Completion) []Completion {
	if word == "" {
		return all
	}
	q := []rune(strings.ToLower(word))
	type scored struct {
		c     Completion
		class int
	}
	var kept []scored
	for _, c := range all {
		v := []rune(strings.ToLower(c.Value))
		switch {
		case hasPrefixRunes(v, q):
			kept = append(kept, scored{c, classPrefix})
		case indexRunes(v, q) >= 0:
			kept = append(kept, scored{c, classSubstring})
		case isSubsequence(v, q):
			kept = append(kept, scored{c, classSubsequence})
		}
	}
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].class < kept[b].class })
	out := make([]Completion, len(kept))
	for i, k := range kept {
		out[i] = k.c
	}
	return out
}

func hasPrefixRunes(s, p []rune) bool {
	return len(s) >= len(p) && indexRunes(s[:len(p)], p) == 0
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

func isSubsequence(s, sub []rune) bool {
	j := 0
	for _, c := range s {
		if j < len(sub) && c == sub[j] {
			j++
		}
	}
	return j == len(sub)
}
