package session

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestANewDatabaseIsCheapToCreate: the schema of a new database is
// created in one transaction on small pages, so the first `parley ask`
// in a new data folder writes it once rather than seven commits' worth
// of 4 KB pages twice (with the WAL's checkpoint): 321 KB before, for a
// schema that is the fixed cost of the first reply.
func TestANewDatabaseIsCheapToCreate(t *testing.T) {
	start, measured := bytesWritten()
	s, err := Open(context.Background(), t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	end, _ := bytesWritten()
	if !measured {
		t.Skip("the kernel does not report bytes written here")
	}
	t.Logf("a new database: %d KB written", (end-start)/1000)
	if n := end - start; n > 64<<10 {
		t.Fatalf("creating a new database wrote %d KiB", n>>10)
	}
}

// TestACreateCutOffIsRolledBack: a process killed while it created the
// database (the schema written in the rollback journal's mode) leaves a
// hot journal beside a half-written file. The next open rolls it back
// and creates the database, rather than failing on the journal its
// read-only check cannot roll back.
func TestACreateCutOffIsRolledBack(t *testing.T) {
	ctx := context.Background()
	dir, crashed := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, DBName)
	db, err := sql.Open("sqlite", dsnCreate(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// A cache of one page makes SQLite write pages to the file before
	// the commit, as a large create does; the copy taken now is what a
	// kill at this point leaves.
	for _, q := range []string{"PRAGMA cache_size = 1", "CREATE TABLE half (x)"} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for range 200 {
		if _, err := tx.ExecContext(ctx, "INSERT INTO half VALUES (?)", strings.Repeat("x", 500)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{DBName, DBName + "-journal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %d bytes, %v; want the file as a create leaves it", name, len(b), err)
		}
		if err := os.WriteFile(filepath.Join(crashed, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, crashed, Options{})
	if err != nil {
		t.Fatalf("opening after a create was cut off: %v", err)
	}
	defer s.Close()
	var half int
	s.db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'half'").Scan(&half)
	if v, _, err := userVersion(ctx, s.db); err != nil || v != SchemaVersion() || half != 0 {
		t.Fatalf("version %d (%v), the cut-off table there: %v", v, err, half != 0)
	}
}
