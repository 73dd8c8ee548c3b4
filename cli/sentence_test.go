package cli

import (
	"strings"
	"testing"
)

// An error that starts with a command keeps it as it is typed:
// "parley: parley sessions export takes one session id …", not "Parley".
func TestErrorStartingWithACommandKeepsItsCase(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "sessions", "export")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "parley: parley sessions export takes one session id") {
		t.Fatalf("stderr: %q", r.stderr)
	}
	if got := sentence("the gateway answered 500"); got != "The gateway answered 500." {
		t.Fatalf("an ordinary sentence: %q", got)
	}
}
