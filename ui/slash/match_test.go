package slash

import (
	"slices"
	"testing"
)

// matchedNames types "/"+q into a list over r and returns the commands
// it shows, in order.
func matchedNames(t *testing.T, r *Registry[env], q string) []string {
	l := NewList(testCtx(t, false), r)
	typeInto(t, &l, "/"+q)
	var out []string
	for i := range l.names.Len() {
		c, _ := l.names.Row(i)
		out = append(out, r.cmds[c].Name)
	}
	return out
}

// The command list filters with the UI's one matcher (ui/list): names
// and aliases, exact first, then prefixes, substrings and letters in
// order.
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
		{"", []string{"image", "images", "edit", "sessions", "system", "new", "quit", "export"}},
		{"images", []string{"images"}},
		{"image", []string{"image", "images"}},
		{"s", []string{"sessions", "system", "images"}},
		{"e", []string{"edit", "export", "quit", "sessions", "new", "image", "images", "system"}},
		{"ex", []string{"export", "quit"}},
		{"exi", []string{"quit"}},
		{"SYS", []string{"system"}},
		{"ss", []string{"sessions", "system"}},
		{"sm", []string{"system"}},
		{"zz", nil},
	}
	for _, c := range cases {
		if got := matchedNames(t, r, c.q); !slices.Equal(got, c.want) {
			t.Errorf("filter %q = %q, want %q", c.q, got, c.want)
		}
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
