package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
)

// Environment of the child process of TestKilledWhileARegeneratedReplyStreams.
const (
	crashDirEnv     = "PARLEY_TREE_CRASH_DIR"
	crashURLEnv     = "PARLEY_TREE_CRASH_URL"
	crashSessionEnv = "PARLEY_TREE_CRASH_SESSION"
)

// TestKilledWhileARegeneratedReplyStreams: a second process reopens a
// session, regenerates its reply through a real gateway and is killed
// with SIGKILL while the new reply streams. The session keeps the earlier
// reply as an alternative and the new one as far as its progress writes
// got, interrupted, on the active path.
func TestKilledWhileARegeneratedReplyStreams(t *testing.T) {
	if dir := os.Getenv(crashDirEnv); dir != "" {
		regenerateUntilKilled(t, dir, os.Getenv(crashURLEnv), os.Getenv(crashSessionEnv))
		return
	}
	c := newClock()
	dir := filepath.Join(t.TempDir(), "parley")
	s := openIn(t, dir, nil)
	r := s.NewRecorder(context.Background())
	conv := chat(t, r, c, "", "tell me a story", "Once upon a time.")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	story := strings.Repeat("word ", 400)
	gw := apitest.New(t)
	// 4 runes every 50 ms: 20 seconds in all, far longer than the test.
	gw.Enqueue(apitest.Reply{Text: story, DeltaRunes: 4, Interval: 50 * time.Millisecond})
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWhileARegeneratedReplyStreams$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashURLEnv+"="+gw.URL(), crashSessionEnv+"="+conv.ID())
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Wait for two progress writes of the new reply (about two seconds of
	// streaming), then kill without warning.
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	var saved int
	for saved < 2*4*20 {
		select {
		case err := <-done:
			t.Fatalf("the child ended before the kill: %v\n%s", err, out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			t.Fatalf("no progress of the regenerated reply was written:\n%s", out.String())
		}
		s.db.QueryRowContext(ctx, "SELECT length("+textSoFar+") FROM messages WHERE session_id = ? AND seq = 3", conv.ID()).Scan(&saved)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done

	got, err := s.Load(ctx, conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	msgs := got.Snapshot.Messages
	if len(msgs) != 3 || msgs[1].Text != "Once upon a time." || msgs[1].State != conversation.StateDone || msgs[1].AltCount != 2 {
		t.Fatalf("after the kill: %q", shape(msgs))
	}
	partial := msgs[2]
	if partial.Parent != 1 || partial.AltIndex != 1 || partial.State != conversation.StateInterrupted ||
		len(partial.Text) < saved || !strings.HasPrefix(story, partial.Text) || got.Snapshot.Leaf != 3 {
		t.Fatalf("the regenerated reply: %+v (leaf %d, %d bytes seen saved)", partial, got.Snapshot.Leaf, saved)
	}
}

// regenerateUntilKilled is the child: it reopens the session, asks for a
// new reply to its last question and streams it until it is killed.
func regenerateUntilKilled(t *testing.T, dir, url, id string) {
	ctx := context.Background()
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	r := s.NewRecorder(ctx)
	conv := conversation.Restore(conversation.Options{ID: id, Listeners: []conversation.Listener{r}}, sess.Snapshot)
	client, err := api.NewClient(api.ClientConfig{BaseURL: url, APIKey: apitest.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	turn, err := conv.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := client.ChatStream(ctx, turn.Chat)
	if err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			// Killed long before the end (io.EOF): reaching here is a
			// failure of the test.
			t.Fatalf("the stream ended before the kill: %v", err)
		}
		conv.Receive(turn, ev.Text, ev.Usage, ev.FinishReason)
	}
}
