//go:build unix

package session

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestAnOldDatabaseInAFolderThatCannotBeWrittenStaysWhole: a database
// with 4 KB pages whose folder the user cannot write, its -wal and -shm
// left beside it (the folder made read-only while a parley had it open).
// SQLite cannot delete the -wal there, so the file never truly leaves WAL,
// and a rewrite to small pages would damage it: it is left alone, start
// after start, and reads whole.
func TestAnOldDatabaseInAFolderThatCannotBeWrittenStaysWhole(t *testing.T) {
	if os.Geteuid() == 0 && os.Getenv(asUserEnv) == "" {
		runTestAsUser(t, "TestAnOldDatabaseInAFolderThatCannotBeWrittenStaysWhole")
		return
	}
	dir := filepath.Join(t.TempDir(), "parley")
	if err := os.MkdirAll(filepath.Join(dir, BlobDir), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, DBName)
	db := oldDatabaseWithMessages(t, path, 40)
	os.Chmod(dir, 0o500) // while it is open: -wal and -shm stay after the close
	defer os.Chmod(dir, 0o700)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("the -wal did not stay beside the database: %v", err)
	}
	for i := 1; i <= 3; i++ {
		s, err := Open(context.Background(), dir, Options{})
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("start %d, close: %v", i, err)
		}
	}
	if got := pageSizeOf(t, path); got != 4096 {
		t.Errorf("%d-byte pages in a folder that cannot be written; want them left at 4096", got)
	}
	os.Chmod(dir, 0o700)
	check := rawDB(t, path)
	var result string
	var n int
	if err := check.QueryRow("PRAGMA integrity_check").Scan(&result); err != nil || result != "ok" {
		t.Fatalf("integrity_check: %q, %v", result, err)
	}
	if err := check.QueryRow("SELECT count(*) FROM messages").Scan(&n); err != nil || n != 40 {
		t.Fatalf("%d messages (%v), want 40", n, err)
	}
}

// oldDatabaseWithMessages makes at path a database as an earlier parley
// left it: parley's schema with 4 KB pages, in WAL mode, one session of n
// messages; the connection stays open (a parley running on it).
func oldDatabaseWithMessages(t *testing.T, path string, n int) *sql.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=page_size(4096)&_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if err := migrate(ctx, db, migrations()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO sessions (id, title, model, created, updated, preview, active_leaf) VALUES (?, 'old', 'gpt-4o', 1, 1, '', ?)`, fixtureSession, n); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := db.Exec(`INSERT INTO messages (session_id, seq, parent, role, text, state, model, created, updated, writer) VALUES (?, ?, ?, 'user', ?, 'done', '', 1, 1, 6)`,
			fixtureSession, i, i-1, fmt.Sprintf("message %d of an earlier parley", i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := pageSizeOf(t, path); got != 4096 {
		t.Fatalf("made with %d-byte pages, want 4096", got)
	}
	return db
}
