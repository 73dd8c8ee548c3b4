package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/conversation"
)

// exampleIDLen is the prefix length the sessions help documents ("twelve
// characters are nearly always enough") and its examples use.
const exampleIDLen = 12

var hexPrefix = regexp.MustCompile(`^[0-9a-f]+$`)

// The sessions help's examples give ids as the documented prefix: twelve
// lower-case hex characters, different ones where a line names several.
func TestSessionsHelpExamplesUseTheDocumentedPrefix(t *testing.T) {
	h := newHarness(t)
	top := h.run(nil, "sessions", "--help")
	top.mustCode(t, 0)
	if !strings.Contains(strings.Join(strings.Fields(top.stdout), " "), "twelve characters are nearly always enough") {
		t.Fatalf("the sessions help no longer says how long a prefix to give:\n%s", top.stdout)
	}
	seen := 0
	for _, cmd := range []string{"sessions", "sessions show", "sessions export", "sessions rm"} {
		r := h.run(nil, append(strings.Fields(cmd), "--help")...)
		r.mustCode(t, 0)
		_, examples, ok := strings.Cut(r.stdout, "Examples:\n")
		if !ok {
			t.Fatalf("%s --help has no examples:\n%s", cmd, r.stdout)
		}
		examples, _, _ = strings.Cut(examples, "\n\n")
		for _, line := range strings.Split(examples, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "parley" || f[1] != "sessions" {
				continue
			}
			switch f[2] {
			case "show", "export", "rm":
			default:
				continue
			}
			ids := map[string]bool{}
			for _, arg := range f[3:] {
				if strings.HasPrefix(arg, "-") {
					break // flags and their values follow the ids
				}
				if len(arg) != exampleIDLen || !hexPrefix.MatchString(arg) {
					t.Errorf("%s --help: %q in %q is not a %d-character lower-case hex prefix", cmd, arg, line, exampleIDLen)
				}
				if ids[arg[:min(len(arg), exampleIDLen)]] {
					t.Errorf("%s --help: %q names one session twice", cmd, line)
				}
				ids[arg[:min(len(arg), exampleIDLen)]] = true
				seen++
			}
		}
	}
	if seen < 4 {
		t.Fatalf("found %d example ids in the sessions help", seen)
	}
}

// Why twelve characters nearly always suffice: they are the millisecond a
// session was made (ids are UUID version 7), so only sessions made in the
// same millisecond share them. Sessions made one after another each
// answer to their first twelve characters.
func TestTwelveCharactersNameASession(t *testing.T) {
	before := time.Now().UnixMilli()
	id := conversation.NewID()
	after := time.Now().UnixMilli()
	ms, err := strconv.ParseInt(id[:exampleIDLen], 16, 64)
	if err != nil || ms < before || ms > after {
		t.Fatalf("the first %d characters of %s are not the millisecond it was made (%d, %v; made in [%d, %d])", exampleIDLen, id, ms, err, before, after)
	}

	h := newHarness(t)
	for _, q := range []string{"one", "two", "three"} {
		h.gw.Enqueue(apitest.Reply{Text: "answer to " + q})
		h.run(nil, "ask", "-m", "gpt-4o", q).mustCode(t, 0)
	}
	list := h.sessions()
	if len(list) != 3 {
		t.Fatalf("%d sessions", len(list))
	}
	for _, m := range list {
		r := h.run(nil, "sessions", "show", m.ID[:exampleIDLen])
		r.mustCode(t, 0)
		if !strings.Contains(r.stdout, "session "+m.ID) || !strings.Contains(r.stdout, "answer to "+m.Title) {
			t.Fatalf("sessions show %s shows another session:\n%s", m.ID[:exampleIDLen], r.stdout)
		}
	}
}
