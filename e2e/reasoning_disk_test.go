package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/session"
)

// What a reasoning reply costs on disk, measured on the built binary the
// way a user would (issue 27 §4: the bytes written at most three times the
// bytes streamed): every byte `parley ask` hands to the kernel (wchar of
// /proc: the database, its WAL, the checkpoint at exit, the shared memory,
// blobs, stdout, the request), in a fresh data folder (the database
// created by this ask) and in a session that already has history (the
// question is the session's seventh turn).

// reasoningAnswer is the short answer that follows the reasoning.
const reasoningAnswer = "Option x."

// diskPace is how the fake gateway streams the reasoning.
type diskPace struct {
	size     int           // bytes of reasoning
	delta    int           // bytes a delta
	interval time.Duration // pause before each delta
}

// TestReasoningOnDiskWithinThreeTimes streams 122 KB of reasoning in
// deltas of 16 KB every 0.4 s, saved once 32 KB wait (conversation's
// ReasoningProgressBytes) and a second has passed: a run of a few
// seconds whose saves touch the pages a slow stream's do, in CI, where
// TestReasoningOnDiskSlow takes minutes.
func TestReasoningOnDiskWithinThreeTimes(t *testing.T) {
	pace := diskPace{size: 122_000, delta: 16_000, interval: 400 * time.Millisecond}
	for _, sc := range []scenario{freshFolder, withHistory, earlierDatabase} {
		ratio := reasoningOnDisk(t, pace, sc)
		if ratio > 3 {
			t.Errorf("%s: wrote %.2f× the streamed bytes, want at most 3×", sc, ratio)
		}
	}
}

// TestReasoningOnDiskSlow is the issue's own measurement: 122 KB at 1
// KB/s, in deltas of 100 bytes. It takes about six minutes, so it runs
// only with PARLEY_PERF set:
//
//	PARLEY_PERF=1 go test ./e2e/ -run TestReasoningOnDiskSlow -count 1 -v
//
// At this pace reasoning is saved every 30 s (conversation's
// ReasoningProgressEvery), four times; a fresh data folder also pays for
// creating the database (about 41 KB, 0.34× of this stream, once per
// folder), and a database an earlier parley made is rewritten to small
// pages by the ask that builds its history, before the measured one.
func TestReasoningOnDiskSlow(t *testing.T) {
	if os.Getenv("PARLEY_PERF") == "" {
		t.Skip("streams 122 KB at 1 KB/s three times (about six minutes); set PARLEY_PERF=1 to run it")
	}
	pace := diskPace{size: 122_000, delta: 100, interval: 100 * time.Millisecond}
	for _, sc := range []scenario{freshFolder, withHistory, earlierDatabase} {
		if ratio := reasoningOnDisk(t, pace, sc); ratio > 3 {
			t.Errorf("%s: wrote %.2f× the streamed bytes, want at most 3×", sc, ratio)
		}
	}
}

// scenario is the data folder a measured ask runs in.
type scenario int

const (
	// freshFolder: the ask creates the database.
	freshFolder scenario = iota
	// withHistory: the question is the seventh turn of a session.
	withHistory
	// earlierDatabase: the database an earlier parley made (4 KB
	// pages, schema 6), opened once by an ask before the measured one
	// continues that ask's session.
	earlierDatabase
)

func (sc scenario) String() string {
	switch sc {
	case freshFolder:
		return "a fresh data folder"
	case withHistory:
		return "a session with history"
	}
	return "a database an earlier parley made"
}

// reasoningOnDisk runs one `parley ask` whose reply streams pace's
// reasoning and then reasoningAnswer, checks that all of it is stored,
// and returns the bytes the process wrote over the bytes streamed.
func reasoningOnDisk(t *testing.T, pace diskPace, sc scenario) float64 {
	t.Helper()
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("the kernel does not report the bytes a process writes here (/proc/self/io)")
	}
	gw := apitest.New(t)
	env := askEnv(t, gw)
	args := []string{"ask", "-m", "gpt-4o"}
	turns := map[scenario]int{withHistory: 6, earlierDatabase: 1}[sc]
	if sc == earlierDatabase {
		data := filepath.Join(envValue(env, "HOME"), ".local", "share", "parley")
		if err := os.CopyFS(data, os.DirFS(filepath.Join("..", "session", "testdata", "schema-v6"))); err != nil {
			t.Fatal(err)
		}
	}
	if turns > 0 {
		history := strings.Repeat("An answer of some length, as replies are. ", 50)
		for i := range turns {
			gw.Enqueue(apitest.Reply{Text: history})
			turn := append(slices.Clip(args), fmt.Sprintf("question %d", i))
			if i > 0 {
				turn = append(slices.Clip(args), "--continue", fmt.Sprintf("question %d", i))
			}
			if out, err := runAsk(t, env, turn...); err != nil {
				t.Fatalf("building the history: %v\n%s", err, out)
			}
		}
		args = append(args, "--continue")
	}
	reasoning := strings.Repeat("weighing option x. ", pace.size/19+1)[:pace.size]
	gw.Enqueue(apitest.Reply{Reasoning: reasoning, Text: reasoningAnswer, DeltaRunes: pace.delta, Interval: pace.interval})
	start := time.Now()
	written, out := askWritten(t, env, append(args, "think it through")...)
	took := time.Since(start)
	if out != reasoningAnswer+"\n" {
		t.Fatalf("%s: stdout %q, want the answer", sc, out)
	}
	checkStoredReasoning(t, env, reasoning)
	streamed := len(reasoning) + len(reasoningAnswer)
	ratio := float64(written) / float64(streamed)
	t.Logf("%s: %d B of reasoning in deltas of %d B every %v (%.1f s): %d B written, %.2f× the streamed bytes",
		sc, len(reasoning), pace.delta, pace.interval, took.Seconds(), written, ratio)
	return ratio
}

// runAsk runs parley with env and returns its combined output.
func runAsk(t *testing.T, env []string, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, parleyBinary(t), args...)
	cmd.Env = env
	return cmd.CombinedOutput()
}

// askWritten runs parley under sh, which reads its own /proc/<pid>/io
// once it has waited for parley: a parent's counts take in those of the
// children it reaped, and sh writes nothing itself, so wchar is every
// byte parley wrote, to the end of its exit (the checkpoint at close
// included). It returns that and parley's stdout.
func askWritten(t *testing.T, env []string, args ...string) (int64, string) {
	t.Helper()
	ioFile := filepath.Join(t.TempDir(), "io")
	script := `"$0" "$@"; rc=$?; cat /proc/$$/io > "$PARLEY_IO"; exit $rc`
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", script, parleyBinary(t)}, args...)...)
	cmd.Env = append(env, "PARLEY_IO="+ioFile)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("parley %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	io, err := os.ReadFile(ioFile)
	if err != nil {
		t.Fatalf("reading the shell's /proc/<pid>/io: %v", err)
	}
	for _, l := range strings.Split(string(io), "\n") {
		if v, ok := strings.CutPrefix(l, "wchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				t.Fatalf("wchar %q: %v", v, err)
			}
			return n, stdout.String()
		}
	}
	t.Fatalf("no wchar in /proc/<pid>/io:\n%s", io)
	return 0, ""
}

// checkStoredReasoning reads the most recent session of env's data folder
// and fails unless its last reply holds reasoning and the answer whole.
func checkStoredReasoning(t *testing.T, env []string, reasoning string) {
	t.Helper()
	home := envValue(env, "HOME")
	ctx := context.Background()
	s, err := session.Open(ctx, filepath.Join(home, ".local", "share", "parley"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.List(ctx, 1, 0)
	if err != nil || len(list) == 0 {
		t.Fatalf("sessions: %v, %v", list, err)
	}
	got, err := s.Load(ctx, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := got.Snapshot.Messages
	last := msgs[len(msgs)-1]
	if last.Reasoning != reasoning || last.Text != reasoningAnswer {
		t.Fatalf("stored reply: %d of %d bytes of reasoning, text %q", len(last.Reasoning), len(reasoning), last.Text)
	}
}

// envValue is the value env gives name ("" when none).
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if rest, ok := strings.CutPrefix(kv, name+"="); ok {
			v = rest
		}
	}
	return v
}
