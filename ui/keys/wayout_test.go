package keys

import (
	"strings"
	"testing"
)

// quit = ["esc"] would leave cancel and close with no key (esc quit, a
// draft lost, and no key closed a picker): the config is refused for
// them with a sentence that says what to do, esc stays theirs, and quit
// keeps its default ctrl+q.
func TestWayOutKeepsAKey(t *testing.T) {
	m, problems := Load(map[string][]string{"quit": {"esc"}})
	if got := m.Cancel.Keys(); len(got) != 1 || got[0] != "esc" {
		t.Errorf("cancel has %v, want esc", got)
	}
	if got := m.Close.Keys(); len(got) != 1 || got[0] != "esc" {
		t.Errorf("close has %v, want esc", got)
	}
	if got := m.Quit.Keys(); len(got) != 1 || got[0] != "ctrl+q" {
		t.Errorf("quit has %v, want ctrl+q", got)
	}
	want := "[keys] quit cannot have esc: esc is the only key left that stops a reply, leaves edit mode and dismisses notices, so it stays cancel's; give cancel another key first (quit keeps ctrl+q)."
	if !contains(problems, want) {
		t.Errorf("problems %q, want %q", problems, want)
	}
	if len(problems) != 1 {
		t.Errorf("problems %q, want only the refusal (no \"esc now runs quit\" it overturns)", problems)
	}
	for _, p := range problems {
		if strings.Contains(p, "cannot be left without a key") {
			t.Errorf("close was not set, yet: %q", p)
		}
	}

	// Set to no key at all: kept, and told.
	m, problems = Load(map[string][]string{"close": {}})
	if got := m.Close.Keys(); len(got) != 1 || got[0] != "esc" {
		t.Errorf("close = [] leaves %v, want esc", got)
	}
	if want := "[keys] close cannot be left without a key: it closes lists and dialogs, so it keeps esc."; !contains(problems, want) {
		t.Errorf("problems %q, want %q", problems, want)
	}

	// Another key first: then esc may quit.
	m, problems = Load(map[string][]string{"quit": {"esc"}, "cancel": {"ctrl+g"}, "close": {"ctrl+g"}})
	if got := m.Quit.Keys(); len(got) != 1 || got[0] != "esc" {
		t.Errorf("quit has %v with cancel and close on ctrl+g (%q)", got, problems)
	}
}
