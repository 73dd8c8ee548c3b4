package slash

import (
	"slices"
	"testing"
)

func matchedNames(r *Registry[env], q string) []string {
	var out []string
	for _, m := range filterCommands(r.cmds, q) {
		out = append(out, r.cmds[m.cmd].Name)
	}
	return out
}

func TestFilterOrder(t *testing.T) {
	r := NewRegistry[env]()
	if err := r.Register(
		Command[env]{Name: "image", Summary: "x"},
		Command[env]{Name: "images", Summary: "x"},
		Command[env]{Name: "edit", Summary: "x"},
		Command[env]{Name: "sessions", Summary: "x"},
		Command[env]{Name: "system", Summary: "x"},
		Command[env]{Name: "new", Summary: "x"},
		Command[env]{Name: "quit", Aliases: []string{"exit"}, Summary: "x"},
		Command[env]{Name: "export", Summary: "x"},
	); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q    string
		want []string
	}{
		// Empty: everything, as registered.
		{"", []string{"image", "images", "edit", "sessions", "system", "new", "quit", "export"}},
		// Exact before prefix.
		{"images", []string{"images"}},
		{"image", []string{"image", "images"}},
		// Prefixes in registration order, then substrings by where they
		// start.
		{"s", []string{"sessions", "system", "images"}},
		// A prefix of an alias ranks with prefixes, after the names; then
		// substrings: "e" at 1 (sessions, new), then at 4.
		{"e", []string{"edit", "export", "quit", "sessions", "new", "image", "images", "system"}},
		{"ex", []string{"export", "quit"}},
		{"exi", []string{"quit"}},
		// Case does not matter.
		{"SYS", []string{"system"}},
		// Letters in order: the tighter span first.
		{"ss", []string{"sessions", "system"}},
		{"sm", []string{"system"}},
		{"zz", nil},
	}
	for _, c := range cases {
		if got := matchedNames(r, c.q); !slices.Equal(got, c.want) {
			t.Errorf("filter %q = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestFilterHighlights(t *testing.T) {
	_, _, hits := matchName("system", "sm")
	// "system" has s at 0 and 2: the latest s before the m (5) is marked.
	want := []bool{false, false, true, false, false, true}
	if !slices.Equal(hits, want) {
		t.Errorf("hits = %v, want %v", hits, want)
	}
	_, _, hits = matchName("model", "od")
	if !slices.Equal(hits, []bool{false, true, true, false, false}) {
		t.Errorf("substring hits = %v", hits)
	}
}

func TestFilterCompletions(t *testing.T) {
	all := valuesOf([]string{"gpt-4o", "gpt-4o-mini", "o1", "llava-13b", "GPT-Image-1"})
	values := func(cs []Completion) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Value)
		}
		return out
	}
	cases := map[string][]string{
		"":      {"gpt-4o", "gpt-4o-mini", "o1", "llava-13b", "GPT-Image-1"},
		"gpt":   {"gpt-4o", "gpt-4o-mini", "GPT-Image-1"},
		"mini":  {"gpt-4o-mini"},
		"o":     {"o1", "gpt-4o", "gpt-4o-mini"},
		"g4m":   {"gpt-4o-mini"},
		"image": {"GPT-Image-1"},
		"xyz":   nil,
	}
	for q, want := range cases {
		if got := values(FilterCompletions(q, all)); !slices.Equal(got, want) {
			t.Errorf("FilterCompletions(%q) = %q, want %q", q, got, want)
		}
	}
}
