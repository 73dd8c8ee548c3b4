package session

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestTmpProbe(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	ctx := context.Background()
	big := strings.Repeat("lorem ipsum dolor sit amet ", 4<<20/27*25) + " wombats end"
	t0 := time.Now()
	_, err := s.db.ExecContext(ctx, `INSERT INTO sessions (id, created, updated) VALUES ('ab', 1, 1)`)
	if err != nil { t.Fatal(err) }
	_, err = s.db.ExecContext(ctx, `INSERT INTO messages (session_id, seq, role, text, state, created, updated) VALUES ('ab', 0, 'user', ?, 'done', 1, 1)`, big)
	if err != nil { t.Fatal(err) }
	t.Logf("insert %d MiB: %v", len(big)>>20, time.Since(t0))
	for _, q := range []string{
		`SELECT length(substr(text,1,100)) FROM messages`,
		`SELECT instr(lower(text), 'wombats') FROM messages`,
		`SELECT instr(text, 'wombats') FROM messages`,
		`SELECT length(substr(text,104857000,100)) FROM messages`,
		`SELECT created FROM messages`,
		`SELECT seq FROM messages`,
		`SELECT length(text) FROM messages`,
		`SELECT m.seq FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH '"wombats"'`,
		`SELECT m.created FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH '"wombats"'`,
	} {
		t0 := time.Now()
		var v int64
		if err := s.db.QueryRowContext(ctx, q).Scan(&v); err != nil { t.Fatal(q, err) }
		t.Logf("%v  %s -> %d", time.Since(t0), q, v)
	}
}
