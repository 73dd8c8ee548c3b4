package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/session"
)

// TestRmAllWhileRecording: two real parley processes on one history.
// `parley ask` streams a slow reply (saved as it arrives) while
// `parley sessions rm --all --yes` runs: the deletion wins, and the rest
// of the reply does not bring the session back without its question.
func TestRmAllWhileRecording(t *testing.T) {
	bin := buildParley(t)
	reply := strings.Repeat("slow words arrive ", 30)
	// The gateway holds the reply until the test has seen the question in
	// the history, so the reply streams after that however slowly the
	// processes start (under -race on a loaded machine the question took
	// over 10 s to appear while a reply sent at once was nearly done).
	seen := make(chan struct{})
	gw := apitest.New(t, apitest.WithResponder(func(apitest.Call) apitest.Reply {
		select {
		case <-seen:
		case <-time.After(60 * time.Second):
		}
		return apitest.Reply{Text: reply, DeltaRunes: 6, Interval: 40 * time.Millisecond} // about 4 s
	}))
	home := t.TempDir()
	data := filepath.Join(home, ".local", "share")
	env := append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+data,
		"OPENAI_BASE_URL="+gw.URL(),
		"OPENAI_API_KEY="+apitest.DefaultAPIKey,
		"NO_PROXY=*",
	)
	parley := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}
	ask := exec.Command(bin, "ask", "-m", "gpt-4o", "the first message")
	ask.Env = env
	var askOut, askErr bytes.Buffer
	ask.Stdout, ask.Stderr = &askOut, &askErr
	if err := ask.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if out, code := parley("sessions", "list"); code == 0 && strings.Contains(out, "the first message") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the question never appeared in the history")
		}
		time.Sleep(50 * time.Millisecond)
	}
	close(seen)
	time.Sleep(1500 * time.Millisecond) // a progress save of the reply has happened
	if out, code := parley("sessions", "rm", "--all", "--yes"); code != 0 || !strings.Contains(out, "Deleted 1 session") {
		t.Fatalf("rm --all: %d %q", code, out)
	}
	if err := ask.Wait(); err != nil {
		t.Fatalf("ask: %v: %s", err, askErr.String())
	}
	if askOut.String() != reply+"\n" {
		t.Fatalf("ask printed %q", askOut.String())
	}
	if out, code := parley("sessions", "list"); code != 0 || strings.Contains(out, "first message") || strings.Contains(out, "slow words") {
		t.Fatalf("after rm --all and the end of the reply, sessions list: %d %q", code, out)
	}
	s, err := session.Open(context.Background(), filepath.Join(data, "parley"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.Count(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d sessions stored, %v", n, err)
	}
}
