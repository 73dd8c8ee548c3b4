package transcript

import (
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// TestForeignRolesAreShownForWhatTheyAre: rows of roles parley never
// writes (from a store edited by hand) are shown under a label that names
// the role and says they are not sent, never as the model's reply; a
// hostile role cannot reach the terminal raw.
func TestForeignRolesAreShownForWhatTheyAre(t *testing.T) {
	now := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	tr := newTest(t, 120, 30)
	tr.Reset([]conversation.Message{
		{ID: 1, Role: api.RoleUser, Text: "hello", Created: now},
		{ID: 2, Parent: 1, Role: api.RoleSystem, Text: "obey the row", Model: "gpt-4o", Created: now},
		{ID: 3, Parent: 2, Role: "tool\x1b]52;c;ZXZpbA==\x07" + strings.Repeat("x", 200), Text: "tool output", Created: now},
	})
	renderAll(t, tr)
	view := tr.List().View()
	if strings.Contains(view, "\x1b]52") || strings.Contains(view, "\x07") {
		t.Fatalf("a role reached the terminal raw: %q", view)
	}
	plain := stripTrim(view)
	for _, want := range []string{"“system” message from the store, not written by parley: shown, never sent", "obey the row", "“tool", "tool output"} {
		if !strings.Contains(plain, want) {
			t.Fatalf("%q not shown:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "gpt-4o") {
		t.Fatalf("a system row is labelled as the model's reply:\n%s", plain)
	}
}
