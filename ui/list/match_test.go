package list

import (
	"slices"
	"testing"
)

func ranked(q string, items []string, aliases map[string][]string) []string {
	ms := Rank(q, len(items), func(i int) string { return items[i] }, func(i int) []string { return aliases[items[i]] })
	var out []string
	for _, m := range ms {
		out = append(out, items[m.Index])
	}
	return out
}

// One ranking for every list: the whole text, then prefixes, then
// substrings by where they start, then letters in order by how tightly
// they fit; ties keep the given order; an alias loses a tie to a name;
// every word of the filter must match; case does not matter.
func TestRank(t *testing.T) {
	cmds := []string{"image", "images", "edit", "sessions", "system", "new", "quit", "export"}
	aliases := map[string][]string{"quit": {"exit"}}
	models := []string{"gpt-4o", "gpt-4o-mini", "o3", "llama3.2-vision", "Claude-Opus"}
	cases := []struct {
		items []string
		q     string
		want  []string
	}{
		{cmds, "", cmds},
		{cmds, "images", []string{"images"}},
		{cmds, "image", []string{"image", "images"}},
		{cmds, "s", []string{"sessions", "system", "images"}},
		{cmds, "e", []string{"edit", "export", "quit", "sessions", "new", "image", "images", "system"}},
		{cmds, "ex", []string{"export", "quit"}},
		{cmds, "exi", []string{"quit"}},
		{cmds, "SYS", []string{"system"}},
		{cmds, "ss", []string{"sessions", "system"}},
		{cmds, "zz", nil},
		{models, "4o", []string{"gpt-4o", "gpt-4o-mini"}},
		{models, "claude", []string{"Claude-Opus"}},
		{models, "gmini", []string{"gpt-4o-mini"}},
		{models, "o", []string{"o3", "gpt-4o", "gpt-4o-mini", "Claude-Opus", "llama3.2-vision"}},
		{models, "vis lla", []string{"llama3.2-vision"}},
		{[]string{"m-i-n-i", "mini"}, "mini", []string{"mini", "m-i-n-i"}},
	}
	for _, c := range cases {
		if got := ranked(c.q, c.items, aliases); !slices.Equal(got, c.want) {
			t.Errorf("%q over %v = %q, want %q", c.q, c.items, got, c.want)
		}
	}
}

func TestHits(t *testing.T) {
	_, hits, ok := Score(Fold("system"), Terms("sm"))
	// The latest s before the m is marked, so the span is tight.
	if !ok || !slices.Equal(hits, []bool{false, false, true, false, false, true}) {
		t.Errorf("subsequence hits = %v", hits)
	}
	_, hits, _ = Score(Fold("Model"), Terms("OD"))
	if !slices.Equal(hits, []bool{false, true, true, false, false}) {
		t.Errorf("substring hits = %v", hits)
	}
	// Runes, not bytes.
	_, hits, _ = Score(Fold("日本語"), Terms("語"))
	if !slices.Equal(hits, []bool{false, false, true}) {
		t.Errorf("rune hits = %v", hits)
	}
	// An alias match highlights nothing.
	ms := Rank("exit", 1, func(int) string { return "quit" }, func(int) []string { return []string{"exit"} })
	if len(ms) != 1 || ms[0].Hits != nil {
		t.Errorf("alias match %+v", ms)
	}
}
