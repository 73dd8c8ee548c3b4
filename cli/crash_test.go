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
	"parley/conversation"
	"parley/session"
)

// TestAskKilledMidReplyKeepsThePartialReply runs the real binary against a
// slow stream and kills it with SIGKILL half-way: the question and the
// reply up to about a second before the kill are in the history, the reply
// marked interrupted, and "parley ask --continue" goes on from there.
func TestAskKilledMidReplyKeepsThePartialReply(t *testing.T) {
	bin := buildParley(t)
	gw := apitest.New(t)
	home := t.TempDir()
	data := filepath.Join(home, "data")
	env := append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+data,
		"OPENAI_BASE_URL="+gw.URL(),
		"OPENAI_API_KEY="+apitest.DefaultAPIKey,
		"NO_PROXY=*",
	)
	// 4 runes every 50 ms: 80 runes a second, 25 s in all.
	story := strings.Repeat("word ", 400)
	gw.Enqueue(apitest.Reply{Text: story, DeltaRunes: 4, Interval: 50 * time.Millisecond})
	cmd := exec.Command(bin, "ask", "-m", "gpt-4o", "tell me a long story")
	cmd.Env = env
	stdout := &syncWriter{w: &bytes.Buffer{}}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for three seconds of streaming, so progress was written more
	// than once, then kill without warning.
	deadline := time.Now().Add(30 * time.Second)
	var first time.Time
	for {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no reply streamed: stdout %q stderr %q", stdout.String(), stderr.String())
		}
		if first.IsZero() && stdout.String() != "" {
			first = time.Now()
		}
		if !first.IsZero() && time.Since(first) > 3*time.Second {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// Read after the kill, once Wait has copied the last of the pipe: read
	// before it, a progress save between the read and the kill stored more
	// than had been read (seen in CI under load).
	printed := stdout.String()

	s, err := session.Open(context.Background(), filepath.Join(data, "parley"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.List(context.Background(), 0, 0)
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions after the kill: %+v, %v", list, err)
	}
	got, err := s.Load(context.Background(), list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := got.Snapshot.Messages
	if len(msgs) != 2 || msgs[0].Text != "tell me a long story" {
		t.Fatalf("stored %+v", msgs)
	}
	reply := msgs[1]
	if reply.State != conversation.StateInterrupted || reply.Text == "" || !strings.HasPrefix(printed, reply.Text) {
		t.Fatalf("stored reply %q (%v); printed %q", reply.Text, reply.State, printed)
	}
	// Progress is written about once a second: what was printed but not
	// stored is about a second of the stream (80 runes), with some slack
	// for a busy machine.
	if lost := len(printed) - len(reply.Text); lost > 160 {
		t.Fatalf("lost %d characters of the reply (printed %d, stored %d)", lost, len(printed), len(reply.Text))
	}

	// The reopened session shows the partial reply as interrupted and a
	// continued question carries it.
	show := exec.Command(bin, "sessions", "show", list[0].ID[:16])
	show.Env = env
	out, err := show.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[interrupted]") || !strings.Contains(string(out), "tell me a long story") {
		t.Fatalf("sessions show: %v\n%s", err, out)
	}
	gw.Enqueue(apitest.Reply{Text: "The end."})
	cont := exec.Command(bin, "ask", "--continue", "finish it")
	cont.Env = env
	if out, err := cont.CombinedOutput(); err != nil || string(out) != "The end.\n" {
		t.Fatalf("ask --continue: %v %q", err, out)
	}
	req, _ := gw.LastRequest()
	if n := len(req.Chat.Messages); n != 3 || req.Chat.Messages[1].Content.PlainText() != reply.Text {
		t.Fatalf("continued request: %s", req.Body)
	}
}
