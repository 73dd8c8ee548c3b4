package session

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// oldDatabase copies the fixture of schema 6, which an earlier parley
// made with SQLite's 4 KB pages, into a data folder of the test's own,
// in WAL mode as that parley left it.
func oldDatabase(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "parley")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "schema-v6"))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, DBName)
	if got := pageSizeOf(t, path); got != 4096 {
		t.Fatalf("the fixture has %d-byte pages; this test needs one made with 4 KB pages", got)
	}
	// As an earlier parley leaves it: in WAL mode.
	db := rawDB(t, path)
	if _, err := db.Exec("PRAGMA journal_mode = WAL"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pageSizeOf reads the page size of the database at path from its
// header, without opening it in SQLite.
func pageSizeOf(t *testing.T, path string) int {
	t.Helper()
	h, err := readHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	return h.pageSize()
}

// journalModeOf is the journal mode the header of the database at path
// says (bytes 18–19: 2 for WAL, 1 for the rollback journal).
func journalModeOf(t *testing.T, path string) string {
	t.Helper()
	h, err := readHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	if h[18] == 2 && h[19] == 2 {
		return "wal"
	}
	return "rollback"
}

// TestAnOldDatabaseGetsSmallPages: a database an earlier parley made with
// 4 KB pages has 1 KB pages once this one opened it, is in WAL mode
// again, and holds what the same database opened without the rewrite
// holds (opening recovers an interrupted reply of the fixture, so the
// comparison is with a copy opened while another process kept it).
func TestAnOldDatabaseGetsSmallPages(t *testing.T) {
	dir, kept := oldDatabase(t), oldDatabase(t)
	path, keptPath := filepath.Join(dir, DBName), filepath.Join(kept, DBName)
	holdOpen(t, keptPath)
	s := openIn(t, dir, nil)
	openIn(t, kept, nil)
	if got := pageSizeOf(t, path); got != pageSize {
		t.Fatalf("after the open: %d-byte pages, want %d", got, pageSize)
	}
	if got := pageSizeOf(t, keptPath); got != 4096 {
		t.Fatalf("the copy another process kept open: %d-byte pages, want them left at 4096", got)
	}
	if got := journalModeOf(t, path); got != "wal" {
		t.Fatalf("after the open: %s mode, want WAL", got)
	}
	if got, want := fixtureTexts(t, path), fixtureTexts(t, keptPath); !slices.Equal(got, want) {
		t.Fatalf("the messages read %q after the rewrite, %q without it", got, want)
	}
	if got := texts(t, s, fixtureSession); len(got) == 0 {
		t.Fatal("the session loads empty after the rewrite")
	}
}

// TestAnOldDatabaseInUseKeepsItsPages: while another process has the
// database open, the open leaves its pages alone and works as before;
// the next start, alone, rewrites them.
func TestAnOldDatabaseInUseKeepsItsPages(t *testing.T) {
	dir := oldDatabase(t)
	path := filepath.Join(dir, DBName)
	other := holdOpen(t, path)
	s := openIn(t, dir, nil)
	if got := pageSizeOf(t, path); got != 4096 {
		t.Fatalf("with another process on it: %d-byte pages, want them left at 4096", got)
	}
	if got := texts(t, s, fixtureSession); len(got) == 0 {
		t.Fatal("the session reads empty")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	openIn(t, dir, nil)
	if got := pageSizeOf(t, path); got != pageSize {
		t.Fatalf("the next start, alone: %d-byte pages, want %d", got, pageSize)
	}
}

// holdOpen opens the database at path as another parley process would
// (in WAL mode) and keeps a connection to it open until the test ends.
func holdOpen(t *testing.T, path string) *sql.DB {
	t.Helper()
	db := rawDB(t, path)
	db.SetMaxIdleConns(1)
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode = WAL").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("the other process's connection: mode %q, %v; want wal", mode, err)
	}
	return db
}

// TestALargeOldDatabaseKeepsItsPages: a file over the size the rewrite
// may take, alone or with its WAL, is left as it is (the rewrite would
// hold the lock too long).
func TestALargeOldDatabaseKeepsItsPages(t *testing.T) {
	dir := oldDatabase(t)
	path := filepath.Join(dir, DBName)
	s := &Store{path: path}
	done, err := s.toSmallPages(context.Background(), 4096)
	if err != nil || done {
		t.Fatalf("toSmallPages with a 4 KB limit: %v, %v; want false, nil", done, err)
	}
	if got := pageSizeOf(t, path); got != 4096 {
		t.Fatalf("%d-byte pages, want them left at 4096", got)
	}
	// The WAL counts: its pages go into the file that VACUUM copies.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", make([]byte, 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	done, err = s.toSmallPages(context.Background(), st.Size()+4096)
	if err != nil || done || pageSizeOf(t, path) != 4096 {
		t.Fatalf("toSmallPages with a file under the limit and its WAL over it: %v, %v, %d-byte pages", done, err, pageSizeOf(t, path))
	}
	if err := os.Remove(path + "-wal"); err != nil {
		t.Fatal(err)
	}
	done, err = s.toSmallPages(context.Background(), smallPagesMax)
	if err != nil || !done || pageSizeOf(t, path) != pageSize {
		t.Fatalf("toSmallPages with the real limit: %v, %v, %d-byte pages", done, err, pageSizeOf(t, path))
	}
}

// fixtureTexts reads the fixture session's messages in order of their
// number, straight from the file.
func fixtureTexts(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT text FROM messages WHERE session_id = ? ORDER BY seq", fixtureSession)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("the fixture holds no message of its session")
	}
	return out
}

// BenchmarkToSmallPages rewrites a 4 KB-page database of about 32 MiB
// (the largest toSmallPages takes) to 1 KB pages: the time another
// process starting meanwhile waits.
//
//	go test -run '^$' -bench ToSmallPages -benchtime 5x ./session/
func BenchmarkToSmallPages(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	template := filepath.Join(dir, "template.db")
	db, err := sql.Open("sqlite", "file:"+template+"?_pragma=page_size(4096)")
	if err != nil {
		b.Fatal(err)
	}
	if err := migrate(ctx, db, migrations()); err != nil {
		b.Fatal(err)
	}
	fill(b, &Store{db: db, path: template}, 12, 1000, 1000, newTextGen(1, 5000))
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(template)
	if err != nil {
		b.Fatal(err)
	}
	if len(data) > smallPagesMax {
		b.Fatalf("the database made is over smallPagesMax; make fewer messages")
	}
	path := filepath.Join(dir, DBName)
	s := &Store{path: path}
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if done, err := s.toSmallPages(ctx, smallPagesMax); !done || err != nil {
			b.Fatalf("toSmallPages: %v, %v", done, err)
		}
	}
	b.ReportMetric(float64(len(data))/(1<<20), "MiB")
}

// TestARewriteCutOffIsRolledBack: parley killed while it rewrites a
// database to small pages leaves the file in the rollback journal's mode
// with a hot journal, pages of the rewrite already in it. The next start
// rolls the journal back (the file reads as before), rewrites it then,
// and every message is there.
func TestARewriteCutOffIsRolledBack(t *testing.T) {
	ctx := context.Background()
	dir, crashed := oldDatabase(t), filepath.Join(t.TempDir(), "parley")
	path := filepath.Join(dir, DBName)
	want := fixtureTexts(t, path)
	db, err := sql.Open("sqlite", dsnSmallPages(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var mode string
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode = DELETE").Scan(&mode); err != nil || mode != "delete" {
		t.Fatalf("leaving WAL: %q, %v", mode, err)
	}
	// A cache of one page makes SQLite write changed pages to the file
	// before the commit, as the copy VACUUM makes does: the files copied
	// now are what a kill at this point leaves.
	for _, q := range []string{"PRAGMA cache_size = 1", "BEGIN IMMEDIATE", "UPDATE messages SET text = text || ' (cut off)'",
		"CREATE TABLE rewrite (x)", "INSERT INTO rewrite SELECT text FROM messages"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := os.MkdirAll(crashed, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{DBName, DBName + "-journal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %d bytes, %v; want the file as a cut-off rewrite leaves it", name, len(b), err)
		}
		if err := os.WriteFile(filepath.Join(crashed, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, crashed, Options{})
	if err != nil {
		t.Fatalf("opening after a rewrite was cut off: %v", err)
	}
	defer s.Close()
	crashedPath := filepath.Join(crashed, DBName)
	if got := pageSizeOf(t, crashedPath); got != pageSize {
		t.Fatalf("after the next start: %d-byte pages, want %d", got, pageSize)
	}
	var leftover int
	if err := s.db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'rewrite'").Scan(&leftover); err != nil || leftover != 0 {
		t.Fatalf("the cut-off transaction's table is there (%d, %v)", leftover, err)
	}
	got := fixtureTexts(t, crashedPath)
	if len(got) != len(want) {
		t.Fatalf("%d messages after the next start, %d before", len(got), len(want))
	}
	for i := range got {
		if strings.HasSuffix(got[i], " (cut off)") {
			t.Fatalf("message %d kept the cut-off change: %q", i, got[i])
		}
	}
}
