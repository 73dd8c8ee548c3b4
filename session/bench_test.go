package session

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

// Benchmarks for the targets of the sessions issue. Their data is made in
// the benchmark itself (before b.Loop, so it is not timed) and only when
// benchmarks run: go test -run '^$' -bench . ./session

// vocabulary makes n pseudo-words; their frequency in generated text
// follows a Zipf law, as words in real text do.
func vocabulary(r *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	seen := map[string]bool{}
	words := make([]string, 0, n)
	for len(words) < n {
		l := 2 + r.IntN(9)
		var b strings.Builder
		for range l {
			b.WriteByte(letters[r.IntN(len(letters))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// textGen writes texts of about size bytes from a vocabulary.
type textGen struct {
	words []string
	zipf  *rand.Zipf
}

func newTextGen(seed uint64, vocab int) *textGen {
	r := rand.New(rand.NewPCG(seed, seed+1))
	return &textGen{words: vocabulary(r, vocab), zipf: rand.NewZipf(r, 1.1, 2, uint64(vocab-1))}
}

func (g *textGen) text(size int) string {
	var b strings.Builder
	for b.Len() < size {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.words[g.zipf.Uint64()])
	}
	return b.String()
}

// fill writes sessions straight into the database in one transaction:
// the rows are what the recorder writes (each message follows the one
// before, the last is the active leaf), without paying for a recorder
// per message.
func fill(b *testing.B, s *Store, sessions, perSession, size int, g *textGen) []string {
	b.Helper()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	sessStmt, _ := tx.Prepare(`INSERT INTO sessions (id, title, model, created, updated, preview, active_leaf) VALUES (?, ?, 'gpt-4o', ?, ?, ?, ?)`)
	msgStmt, _ := tx.Prepare(`INSERT INTO messages (session_id, seq, parent, role, text, state, model, created, updated, writer) VALUES (?, ?, ?, ?, ?, 'done', ?, ?, ?, 6)`)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	ids := make([]string, sessions)
	for i := range sessions {
		id := fmt.Sprintf("%032x", i+1)
		ids[i] = id
		ts := t0 + int64(i)*60_000
		if _, err := sessStmt.Exec(id, g.text(40), ts, ts+int64(perSession)*1000, g.text(300), perSession); err != nil {
			b.Fatal(err)
		}
		for n := 1; n <= perSession; n++ {
			role, model := "user", ""
			if n%2 == 0 {
				role, model = "assistant", "gpt-4o"
			}
			if _, err := msgStmt.Exec(id, n, n-1, role, g.text(size), model, ts+int64(n)*1000, ts+int64(n)*1000); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return ids
}

// cpuMeter reports the process CPU time per iteration next to ns/op: on
// a busy machine the wall clock also counts the time the benchmark waited
// for a core.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
	n     int
}

func meterCPU(b *testing.B) *cpuMeter { return &cpuMeter{b: b, start: processCPU()} }

// loop is b.Loop, counting iterations.
func (m *cpuMeter) loop() bool {
	if m.b.Loop() {
		m.n++
		return true
	}
	if m.n > 0 {
		m.b.ReportMetric(float64((processCPU()-m.start).Nanoseconds())/float64(m.n), "cpu-ns/op")
	}
	return false
}

func benchStore(b *testing.B) *Store {
	b.Helper()
	s, err := Open(context.Background(), b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkOpenLongSession: a session of 10,000 messages opens at its
// last 50 (the first window); the rest loads later.
func BenchmarkOpenLongSession(b *testing.B) {
	s := benchStore(b)
	ids := fill(b, s, 1, 10_000, 600, newTextGen(1, 5000))
	ctx := context.Background()
	cpu := meterCPU(b)
	for cpu.loop() {
		got, err := s.LoadTail(ctx, ids[0], 50)
		if err != nil || len(got.Snapshot.Messages) != 50 || got.Messages != 10_000 {
			b.Fatalf("LoadTail: %d of %d, %v", len(got.Snapshot.Messages), got.Messages, err)
		}
	}
}

// BenchmarkOpenLongSessionWithBranches: the same first window when the
// session's 10,000 messages hold alternatives: every 10th reply was
// regenerated once (1,000 alternatives), the last one on the path.
func BenchmarkOpenLongSessionWithBranches(b *testing.B) {
	s := benchStore(b)
	g := newTextGen(1, 5000)
	ids := fill(b, s, 1, 10_000, 600, g)
	// Alternatives of every 10th reply; the last one is the active leaf.
	for n := 10; n <= 10_000; n += 10 {
		if _, err := s.db.Exec(`INSERT INTO messages (session_id, seq, parent, role, text, state, model, created, updated, writer)
			VALUES (?, ?, ?, 'assistant', ?, 'done', 'gpt-4o', 1, 1, 6)`, ids[0], 10_000+n/10, n-1, g.text(600)); err != nil {
			b.Fatal(err)
		}
	}
	s.db.Exec(`UPDATE sessions SET active_leaf = 11000 WHERE id = ?`, ids[0])
	ctx := context.Background()
	cpu := meterCPU(b)
	for cpu.loop() {
		got, err := s.LoadTail(ctx, ids[0], 50)
		msgs := got.Snapshot.Messages
		if err != nil || len(msgs) != 50 || got.Messages != 11_000 || msgs[49].ID != 11_000 || msgs[49].AltIndex != 1 ||
			msgs[39].ID != 9990 || msgs[39].AltCount != 2 {
			b.Fatalf("LoadTail: %d of %d, %v", len(msgs), got.Messages, err)
		}
	}
}

// BenchmarkLoadWholeLongSession is the full load of the same session,
// for comparison (what the first window avoids).
func BenchmarkLoadWholeLongSession(b *testing.B) {
	s := benchStore(b)
	ids := fill(b, s, 1, 10_000, 600, newTextGen(1, 5000))
	ctx := context.Background()
	cpu := meterCPU(b)
	for cpu.loop() {
		if got, err := s.Load(ctx, ids[0]); err != nil || len(got.Snapshot.Messages) != 10_000 {
			b.Fatalf("Load: %v", err)
		}
	}
}

// BenchmarkReopenLongSession is what the chat does to open a session of
// 10,000 messages (--continue): its last 200 messages, the conversation
// they make, then the whole session and its conversation, whose active
// path the transcript is given; the chat restores each from the messages
// it read (RestoreTaking). B/op is what opening allocates.
func BenchmarkReopenLongSession(b *testing.B) {
	s := benchStore(b)
	ids := fill(b, s, 1, 10_000, 600, newTextGen(1, 5000))
	ctx := context.Background()
	b.ReportAllocs()
	cpu := meterCPU(b)
	for cpu.loop() {
		tail, err := s.LoadTail(ctx, ids[0], 200)
		if err != nil {
			b.Fatal(err)
		}
		conversation.RestoreTaking(conversation.Options{ID: ids[0]}, tail.Snapshot)
		whole, err := s.Load(ctx, ids[0])
		if err != nil {
			b.Fatal(err)
		}
		conv := conversation.RestoreTaking(conversation.Options{ID: ids[0]}, whole.Snapshot)
		if got := conv.Messages(); len(got) != 10_000 {
			b.Fatalf("%d messages on the path", len(got))
		}
	}
}

// BenchmarkSearch: 100,000 messages of about 500 bytes (~50 MB of text)
// in 1,000 sessions; two-word queries, newest 50 hits with snippets.
func BenchmarkSearch(b *testing.B) {
	s := benchStore(b)
	g := newTextGen(2, 20_000)
	fill(b, s, 1000, 100, 500, g)
	var total int64
	s.db.QueryRow("SELECT sum(length(text)) FROM messages").Scan(&total)
	ctx := context.Background()
	// Words by rank: 0 is in nearly every message, 300 in a few percent,
	// 3000 in a few hundred, 15000 in a handful.
	queries := map[string]string{
		"common-common": g.words[0] + " " + g.words[1],
		"common-mid":    g.words[2] + " " + g.words[300],
		"mid-mid":       g.words[200] + " " + g.words[400],
		"mid-rare":      g.words[300] + " " + g.words[3000],
		"rare-rare":     g.words[3000] + " " + g.words[15000],
		"prefix":        g.words[10] + " " + g.words[20][:2] + "*",
		"none":          "zzzzqq xxxyyy",
	}
	for name, q := range queries {
		b.Run(name, func(b *testing.B) {
			n := 0
			cpu := meterCPU(b)
			for cpu.loop() {
				hits, err := s.Search(ctx, q, 50)
				if err != nil {
					b.Fatal(err)
				}
				n = len(hits)
			}
			b.ReportMetric(float64(n), "hits")
			b.ReportMetric(float64(total)/1e6, "MB-text")
		})
	}
}

// BenchmarkList: `parley sessions list` over 5,000 sessions (all of them,
// and the browser's first page).
func BenchmarkList(b *testing.B) {
	s := benchStore(b)
	fill(b, s, 5000, 4, 300, newTextGen(3, 5000))
	ctx := context.Background()
	b.Run("all", func(b *testing.B) {
		cpu := meterCPU(b)
		for cpu.loop() {
			if list, err := s.List(ctx, 0, 0); err != nil || len(list) != 5000 {
				b.Fatalf("List: %d, %v", len(list), err)
			}
		}
	})
	b.Run("page50", func(b *testing.B) {
		cpu := meterCPU(b)
		for cpu.loop() {
			if list, err := s.List(ctx, 50, 0); err != nil || len(list) != 50 {
				b.Fatalf("List: %d, %v", len(list), err)
			}
		}
	})
}

// BenchmarkFlushOneSecondOfDeltas: one second of a reply streaming at 200
// deltas a second (1 KB of text) goes through the conversation and the
// recorder, which writes the one progress change of that second; Flush
// waits for it. A reply runs for 20 seconds (20 KB, a long answer), then
// the next starts. Each second's write adds that second's text (see
// writeProgress).
func BenchmarkFlushOneSecondOfDeltas(b *testing.B) {
	s := benchStore(b)
	var now time.Time
	clock := func() time.Time { return now }
	r := s.NewRecorder(context.Background())
	b.Cleanup(func() { r.Close() })
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: clock})
	ctx := context.Background()
	var id int
	second := 0
	cpu := meterCPU(b)
	for cpu.loop() {
		if second%20 == 0 {
			if id != 0 {
				conv.Finish(id, "stop", nil)
			}
			conv.AddUser("tell me a long story", nil)
			id, _ = conv.StartReply("gpt-4o")
		}
		second++
		for range 200 {
			now = now.Add(5 * time.Millisecond)
			conv.AppendDelta(id, "word ")
		}
		if err := r.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
	var text string
	s.db.QueryRow("SELECT "+textSoFar+" FROM messages WHERE seq = ?", id).Scan(&text)
	if text == "" {
		b.Fatal("no progress was written")
	}
}

// BenchmarkOnChangeDelta is what recording costs the UI goroutine per
// delta: the conversation's change and the recorder's OnChange.
func BenchmarkOnChangeDelta(b *testing.B) {
	s := benchStore(b)
	r := s.NewRecorder(context.Background())
	b.Cleanup(func() { r.Close() })
	var now time.Time
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: func() time.Time { return now }})
	conv.AddUser("q", nil)
	id, _ := conv.StartReply("gpt-4o")
	b.ReportAllocs()
	cpu := meterCPU(b)
	for cpu.loop() {
		conv.AppendDelta(id, "word ")
	}
}

// BenchmarkSearchHugeMessage: one 100 MiB message (a log piped into ask)
// among ordinary ones; a word at its start, a word only at its end, a
// word it does not hold. FTS5's snippet() took 15 s for a 1 MiB message.
func BenchmarkSearchHugeMessage(b *testing.B) {
	s := benchStore(b)
	fill(b, s, 100, 10, 500, newTextGen(4, 5000))
	var log strings.Builder
	log.WriteString("Started the build.\n")
	for log.Len() < 100<<20 {
		log.WriteString("INFO compile step ok, nothing to report\n")
	}
	log.WriteString("FATAL the wombats ate the cables\n")
	if _, err := s.db.Exec(`INSERT INTO sessions (id, created, updated) VALUES ('f00d', 1, 1);
		INSERT INTO messages (session_id, seq, role, text, state, created, updated, writer) VALUES ('f00d', 1, 'user', ?, 'done', 1, 1, 6)`, log.String()); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for name, q := range map[string]string{"start": "started", "end": "cables", "elsewhere": "zzzzqq"} {
		b.Run(name, func(b *testing.B) {
			cpu := meterCPU(b)
			for cpu.loop() {
				if _, err := s.Search(ctx, q, 50); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProgressOfALongReply: the progress saves of a reply that grows
// by 128 KiB a second up to 8 MiB (64 saves) and its final write; the
// bytes the process wrote are reported per reply (wchar of /proc/self/io).
func BenchmarkProgressOfALongReply(b *testing.B) {
	s := benchStore(b)
	var now time.Time
	r := s.NewRecorder(context.Background())
	b.Cleanup(func() { r.Close() })
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: func() time.Time { return now }})
	ctx := context.Background()
	piece := strings.Repeat("log line x\n", 128<<10/11)
	start, _ := bytesWritten()
	cpu := meterCPU(b)
	n := 0
	for cpu.loop() {
		n++
		conv.AddUser("print the log", nil)
		id, _ := conv.StartReply("gpt-4o")
		for range 64 {
			now = now.Add(time.Second)
			conv.AppendDelta(id, piece)
			if err := r.Flush(ctx); err != nil {
				b.Fatal(err)
			}
		}
		conv.Finish(id, "stop", nil)
		if err := r.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if end, ok := bytesWritten(); ok {
		b.ReportMetric(float64(end-start)/float64(n)/(1<<20), "MiB-written/op")
	}
}
