package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestTwoAsksIntoOneSessionAtOnceKeepBothTurns runs the real binary
// twice at once, `parley ask --session S`, ten times over. The gateway
// holds the first question of each round until the second arrives, so
// both processes have read the session and stored their question before
// either answer streams: the two always overlap. Every question and every
// answer is kept in the session. Before the store numbered messages, both
// processes stored their turn as messages 3 and 4 (upserted): with the
// hold, the build before lost turns in 6 of 7 runs of this test (two or
// three rounds of ten each); without it, in 4 of 8.
func TestTwoAsksIntoOneSessionAtOnceKeepBothTurns(t *testing.T) {
	bin := buildParley(t)
	var (
		mu    sync.Mutex
		held  int
		pairs = map[int]chan struct{}{}
	)
	gw := apitest.New(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		msgs := c.Chat.Messages
		q := msgs[len(msgs)-1].Content.PlainText()
		if strings.HasPrefix(q, "round ") {
			mu.Lock()
			n := held
			held++
			both, ok := pairs[n/2]
			if !ok {
				both = make(chan struct{})
				pairs[n/2] = both
			}
			if n%2 == 1 {
				close(both)
			}
			mu.Unlock()
			// A process that fails before asking leaves its partner to
			// go on alone after a while, so the test reports the failure
			// rather than hanging.
			select {
			case <-both:
			case <-time.After(30 * time.Second):
			}
		}
		return apitest.Reply{Text: "answer to " + q, DeltaRunes: 3, Interval: 5 * time.Millisecond}
	}))
	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"OPENAI_BASE_URL="+gw.URL(),
		"OPENAI_API_KEY="+apitest.DefaultAPIKey,
		"NO_PROXY=*",
	)
	// run returns stdout, and stderr with the error. (An ask that reads
	// the session while the other's reply still streams leaves that turn
	// out of its request and says so on stderr.)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Dir = home
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, stderr.String())
		}
		return string(out), err
	}
	if _, err := run("ask", "-m", "gpt-4o", "opening question"); err != nil {
		t.Fatalf("ask: %v", err)
	}
	out, err := run("sessions", "list", "--json")
	if err != nil {
		t.Fatalf("sessions list: %v", err)
	}
	var list []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions list: %q, %v", out, err)
	}
	id := list[0].ID
	var want []string
	for round := range 10 {
		var wg sync.WaitGroup
		for _, who := range []string{"A", "B"} {
			q := fmt.Sprintf("round %d from %s", round, who)
			want = append(want, q, "answer to "+q)
			wg.Go(func() {
				if out, err := run("ask", "--session", id, q); err != nil {
					t.Errorf("ask --session %s %q: %v", id, q, err)
				} else if strings.TrimSpace(out) != "answer to "+q {
					t.Errorf("ask %q printed %q", q, out)
				}
			})
		}
		wg.Wait()
	}
	out, err = run("sessions", "export", "--format", "json", "--all-branches", id)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	lost := 0
	for _, w := range want {
		if !strings.Contains(out, fmt.Sprintf("%q", w)) {
			t.Errorf("lost: %q", w)
			lost++
		}
	}
	if lost > 0 {
		t.Fatalf("%d of %d messages lost over ten rounds of two simultaneous asks", lost, len(want))
	}
}
