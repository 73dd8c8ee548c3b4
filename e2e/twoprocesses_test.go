package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestAChatAndAnAskIntoItsSessionBothKeepTheirTurns: a chat is open on a
// session when `parley ask --continue` adds a turn to that session from
// another process; the chat's next send keeps it (before, the chat's
// next turn took the same message numbers and overwrote it, with no
// word) and says another parley added two messages; the export of every
// branch holds all three turns.
func TestAChatAndAnAskIntoItsSessionBothKeepTheirTurns(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := t.TempDir()
	tm := startParley(t, launch{Width: 160, Height: 40, Gateway: gw, Config: chatConfig, home: home})
	tm.waitText(composerReady)
	tm.send("first from the chat")
	tm.waitText("You said: first from the chat")

	env := []string{
		"PATH=/usr/bin:/bin",
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"OPENAI_BASE_URL=" + gw.URL(),
		"OPENAI_API_KEY=" + apitest.DefaultAPIKey,
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(parleyBinary(t), args...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("parley %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return string(out)
	}
	if out := run("ask", "--continue", "IMPORTANT from B"); out != "You said: IMPORTANT from B\n" {
		t.Fatalf("ask printed %q", out)
	}

	tm.send("second from the chat")
	tm.waitText("You said: second from the chat", "another parley added 2 messages to this session")
	quitChat(t, tm)

	id := strings.Fields(run("sessions", "list"))[0]
	export := run("sessions", "export", "--all-branches", "--format", "json", id)
	for _, want := range []string{"first from the chat", "IMPORTANT from B", "You said: IMPORTANT from B", "second from the chat", "You said: second from the chat"} {
		if !strings.Contains(export, `"`+want+`"`) {
			t.Errorf("the session lost %q:\n%s", want, export)
		}
	}
}
