package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/session"
)

// The long-history budget of issue 14: streaming the 20 KB answer with a
// 10,000-message session open costs at most this much more than in a
// fresh chat.
const (
	historyMaxExtraCPU = 300 * time.Millisecond
	historyMaxExtraRSS = 20 << 20
)

// TestPerfStreamLongHistory streams the 20 KB benchmark answer twice into
// the real binary in a 120x40 pane: in a fresh chat, and after --continue
// opened a session of 10,000 messages (replies shaped like the answer:
// paragraphs, lists, code, tables). For each it measures parley's CPU
// during the stream and its peak memory (VmHWM), and for the long session
// also what opening it cost until parley was idle. PARLEY_PERF_ENV="K=v
// K2=v2" adds to parley's environment in both runs. About two minutes:
//
//	PARLEY_PERF=1 go test ./e2e/ -run TestPerfStreamLongHistory -count 1 -v
func TestPerfStreamLongHistory(t *testing.T) {
	answer, _ := perfStream(t)
	gw := apitest.New(t)
	for range 2 {
		gw.Enqueue(apitest.Reply{Text: string(answer), DeltaRunes: perfDeltaRunes, Interval: perfInterval})
	}

	env := strings.Fields(os.Getenv("PARLEY_PERF_ENV"))
	fresh := startParley(t, launch{Width: 120, Height: 40, Gateway: gw, Config: chatConfig, Env: env})
	fresh.waitText(composerReady)
	f := measureStream(t, fresh, answer)
	t.Logf("fresh chat: stream CPU %v, %.1f KB written, peak RSS %d MB", f.cpu, float64(f.written)/1024, f.rss>>20)
	fresh.keys("C-q")
	fresh.waitExit()

	home := t.TempDir()
	makeHistory(t, filepath.Join(home, ".local", "share", "parley"), 10_000, answer)
	start := time.Now()
	long := startParley(t, launch{Width: 120, Height: 40, Gateway: gw, Config: chatConfig, Env: env, home: home, args: []string{"--continue"}})
	pid := long.parleyPID()
	long.waitText("reply 9999 ends here")
	openCPU, quiet := waitIdle(t, pid, time.Minute)
	t.Logf("10,000 messages: idle %v after exec, %v of CPU to open, peak RSS %d MB", (time.Since(start) - quiet).Round(time.Millisecond), openCPU, peakRSS(t, pid)>>20)
	l := measureStream(t, long, answer)
	t.Logf("10,000 messages: stream CPU %v, %.1f KB written, peak RSS %d MB", l.cpu, float64(l.written)/1024, l.rss>>20)
	t.Logf("the long session adds %v of CPU and %d MB", l.cpu-f.cpu, (l.rss-f.rss)>>20)
	// The whole active path goes to the model (max_history_messages = 0):
	// the 10,000 messages and the new question.
	if reqs := chatRequests(gw); len(reqs) != 2 || reqs[1].Chat == nil || len(reqs[1].Chat.Messages) != 10_001 {
		t.Errorf("the long session's request did not carry the whole path and the question (want 10,001 messages)")
	}
	if extra := l.cpu - f.cpu; extra > historyMaxExtraCPU {
		t.Errorf("streaming with the long session open cost %v more CPU than in a fresh chat (budget %v)", extra, historyMaxExtraCPU)
	}
	if extra := l.rss - f.rss; extra > historyMaxExtraRSS {
		t.Errorf("the long session took %d MB more memory (budget %d MB)", extra>>20, historyMaxExtraRSS>>20)
	}
	long.keys("C-q")
	long.waitExit()
}

// streamCost is what one stream cost parley.
type streamCost struct {
	cpu     time.Duration
	written int
	rss     int64 // peak resident memory of the process so far
}

// measureStream sends a prompt, waits for the whole answer on screen and
// returns the CPU and the bytes written in between, and the peak memory.
func measureStream(t *testing.T, tm *term, answer []byte) streamCost {
	t.Helper()
	pid := tm.parleyPID()
	tm.typeText("Explain streaming Markdown")
	tm.waitText("Explain streaming Markdown")
	time.Sleep(500 * time.Millisecond)
	before := readProc(t, pid)
	raw := len(tm.rawOutput())
	tm.keys("Enter")
	want := lastLineWords(string(answer))
	deadline := time.Now().Add(3 * time.Minute)
	for {
		s := tm.screen()
		if !strings.Contains(s, "writing…") && strings.Contains(s, want) {
			break
		}
		if strings.Contains(s, exitedMark) || time.Now().After(deadline) {
			t.Fatalf("the reply did not finish on screen; the screen:\n%s", frame(s))
		}
		time.Sleep(20 * time.Millisecond)
	}
	after := readProc(t, pid)
	time.Sleep(300 * time.Millisecond)
	return streamCost{cpu: after.cpu - before.cpu, written: len(tm.rawOutput()) - raw, rss: peakRSS(t, pid)}
}

// waitIdle waits until the process uses less than 2% of a core for a
// second and returns the CPU it had used by then and how long the quiet
// second took (to subtract from the time to idle).
func waitIdle(t *testing.T, pid int, limit time.Duration) (time.Duration, time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		a := readProc(t, pid)
		time.Sleep(time.Second)
		b := readProc(t, pid)
		if b.cpu-a.cpu <= 2*clockTick {
			return b.cpu, time.Second
		}
		if time.Now().After(deadline) {
			t.Fatalf("parley was still busy %v after opening the session", limit)
		}
	}
}

// makeHistory writes a session of n messages (user questions and replies
// cut from answer) into the history database in dir, as the recorder
// would have, in one transaction: one path, each message the child of the
// one before it, so the whole session is the active path that is shown
// and sent.
func makeHistory(t *testing.T, dir string, n int, answer []byte) {
	t.Helper()
	ctx := context.Background()
	store, err := session.Open(ctx, dir, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, session.DBName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const id = "0190f0a1b2c3d4e5f60718293a4b5c6d"
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	if _, err := tx.Exec(`INSERT INTO sessions (id, title, model, created, updated, preview) VALUES (?, 'A long one', 'gpt-4o', ?, ?, 'a long one')`,
		id, t0, t0+int64(n)*1000); err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare(`INSERT INTO messages (session_id, seq, parent, role, text, state, model, created, updated, writer) VALUES (?, ?, ?, ?, ?, 'done', ?, ?, ?, 6)`)
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(answer), "\n\n")
	for i := range n {
		role, model, text := "user", "", "Question "+strconv.Itoa(i)+": how does "+blocks[i%len(blocks)][:min(40, len(blocks[i%len(blocks)]))]+" work?"
		if i%2 == 1 {
			// A reply of two to five blocks of the answer.
			k := 2 + i%4
			var parts []string
			for j := range k {
				parts = append(parts, blocks[(i*7+j)%len(blocks)])
			}
			role, model, text = "assistant", "gpt-4o", strings.Join(parts, "\n\n")+"\n\nreply "+strconv.Itoa(i)+" ends here."
		}
		ts := t0 + int64(i)*1000
		if _, err := stmt.Exec(id, i+1, i, role, text, model, ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, session.DBName)); err != nil {
		t.Fatal(fmt.Errorf("the history database was not made: %w", err))
	}
}
