package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// busyTimeout is how long a statement waits for another connection or
// process that holds the write lock. Write transactions are short, so
// this is only reached when something is stuck.
const busyTimeout = 5 * time.Second

// Options configure a Store.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Secrets returns the API keys known so far (the configured ones and
	// those resolved since); they are replaced by "[redacted]" in every
	// text the store writes. It is called for each write, from any
	// goroutine, so keys resolved later (api_key_cmd) count from then on.
	Secrets func() []string
}

// Store is the history database of one data directory.
type Store struct {
	db     *sql.DB
	stmts  statements
	path   string
	folder blobFolder
	// read reads messages and their parts (on db, once it is open).
	read messageReader
	now  func() time.Time
	keys redactor
	// ready is closed once the open has finished, and openErr is then why
	// it failed (see Start); a store from Open is ready when returned.
	ready   chan struct{}
	openErr error
}

// Open opens (creating it when missing) the history database in dir and
// brings its schema up to date. Every failure is an *Error that names the
// file and what to do. A database written by a newer parley, or by another
// program, is refused without being changed.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	s := newStore(dir, opts)
	defer close(s.ready)
	if dir == "" {
		return nil, errNoDataDir()
	}
	if err := s.open(ctx); err != nil {
		return nil, openError(dir, err)
	}
	return s, nil
}

// newStore is a store of dir that is not open yet.
func newStore(dir string, opts Options) *Store {
	s := &Store{path: filepath.Join(dir, DBName), folder: blobFolder{dir: filepath.Join(dir, BlobDir)}, now: opts.Now, keys: redactor{secrets: opts.Secrets}, ready: make(chan struct{})}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

func errNoDataDir() error {
	return &Error{Kind: KindReadOnly, Path: DBName, Op: "open", Err: errors.New("no data directory is known: set XDG_DATA_HOME or HOME")}
}

func (s *Store) open(ctx context.Context) error {
	if err := os.MkdirAll(s.folder.dir, 0o700); err != nil {
		return classify(s.path, "open", err)
	}
	// Stat before opening: SQLite would wait forever reading a named pipe
	// put in the database's place (or in its journal's).
	for _, p := range []string{s.path, s.path + "-wal", s.path + "-shm", s.path + "-journal"} {
		if err := regularOrMissing(p); err != nil {
			return err
		}
	}
	if err := createFile(s.path); err != nil {
		return classify(s.path, "open", err)
	}
	// SQLite opens a file it may not write read-only without a word, and
	// fails only at the first write; say so now.
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if err != nil {
		return classify(s.path, "open", err)
	}
	f.Close()
	fresh, err := s.check(ctx)
	if err != nil {
		return err
	}
	if fresh {
		if err := s.create(ctx); err != nil {
			return classify(s.path, "open", err)
		}
	} else {
		// Best effort: a database that keeps its 4 KB pages works as
		// before, and the next start tries again.
		_, _ = s.toSmallPages(ctx, smallPagesMax)
	}
	db, err := sql.Open("sqlite", dsn(s.path, false))
	if err != nil {
		return classify(s.path, "open", err)
	}
	// A few connections: the recorder writes while the UI searches.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	// The migration takes the write lock (BEGIN IMMEDIATE) even when there
	// is nothing to do, so a database that cannot be written fails here,
	// at start, rather than on the first message.
	if err := migrate(ctx, db, migrations()); err != nil {
		db.Close()
		return classify(s.path, "open", err)
	}
	s.db = db
	s.read = messageReader{db: db, path: s.path, folder: s.folder}
	if err := s.stmts.prepare(ctx, db); err != nil {
		s.stmts.close()
		db.Close()
		return classify(s.path, "open", err)
	}
	if err := s.recoverStale(ctx); err != nil {
		s.stmts.close()
		db.Close()
		return err
	}
	return nil
}

// keepDeleted is how long a deleted session's id is remembered, so that
// a chat still open on it elsewhere does not bring it back.
const keepDeleted = 30 * 24 * time.Hour

// staleAfter is how long a reply may go without a progress write before
// it counts as abandoned: far longer than any stream waits for data.
const staleAfter = 10 * time.Minute

// recoverStale marks replies still stored as streaming long after their
// last write as interrupted: their process ended mid-reply. That also
// indexes them for search. Should the process still be streaming after
// all, its next write sets the state back.
func (s *Store) recoverStale(ctx context.Context) error {
	return s.write(ctx, "open", func(tx *sql.Tx) error {
		// The pieces of its text become its text (textSoFar is read before
		// the state changes); those of its reasoning stay its reasoning.
		if _, err := tx.ExecContext(ctx, "UPDATE messages SET text = "+textSoFar+", state = 'interrupted' WHERE state = 'streaming' AND updated < ?",
			millis(s.now().Add(-staleAfter))); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM message_pieces WHERE message_id NOT IN (SELECT id FROM messages WHERE state = 'streaming')"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM deleted_sessions WHERE deleted < ?", millis(s.now().Add(-keepDeleted)))
		return err
	})
}

// openError says "read-only" for a failure that comes from a folder the
// user cannot write (SQLite reports it as a file it cannot open), since
// that is what has to change.
func openError(dir string, err error) error {
	var se *Error
	if !errors.As(err, &se) || (se.Kind != KindUnreadable && se.Kind != KindIO) || writable(dir) {
		return err
	}
	se.Kind = KindReadOnly
	return se
}

// writable reports whether files can be created in dir.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".parley-probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database. Recorders of the store must be closed first.
func (s *Store) Close() error {
	<-s.ready
	if s.openErr != nil {
		return nil
	}
	s.stmts.close()
	return classify(s.path, "close", s.db.Close())
}

// check reads the schema version through a read-only connection before
// anything can write: a newer or foreign database must stay untouched
// (opening it read-write in WAL mode would already change it). fresh
// reports a database that holds nothing yet.
//
// A create cut off while it wrote (the process killed) leaves a hot
// journal, which only a connection that may write can roll back: the
// read-only one fails on it. Then the check is made again through
// create's connection, which rolls it back as any SQLite opener would,
// and finds the file new again.
func (s *Store) check(ctx context.Context) (fresh bool, err error) {
	fresh, err = s.checkThrough(ctx, dsn(s.path, true))
	if err != nil && hotJournal(s.path) {
		return s.checkThrough(ctx, dsnCreate(s.path))
	}
	return fresh, err
}

// hotJournal reports whether a rollback journal is left beside the
// database at path.
func hotJournal(path string) bool {
	st, err := os.Lstat(path + "-journal")
	return err == nil && st.Mode().IsRegular() && st.Size() > 0
}

// checkThrough is check on a connection opened with dsn.
func (s *Store) checkThrough(ctx context.Context, dsn string) (fresh bool, err error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return false, classify(s.path, "open", err)
	}
	defer db.Close()
	version, appID, err := userVersion(ctx, db)
	if err != nil {
		return false, classify(s.path, "open", err)
	}
	if appID != 0 && appID != applicationID {
		return false, &Error{Kind: KindForeign, Path: s.path, Op: "open", Err: fmt.Errorf("application id %#x", appID)}
	}
	if appID == 0 && version != 0 {
		return false, &Error{Kind: KindForeign, Path: s.path, Op: "open", Err: fmt.Errorf("schema version %d without parley's mark", version)}
	}
	if known := SchemaVersion(); version > known {
		return false, &Error{Kind: KindTooNew, Path: s.path, Op: "open", found: version, known: known}
	}
	if version != 0 {
		return false, nil
	}
	// A version-0 file is new only when it holds nothing at all.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return false, classify(s.path, "open", err)
	}
	if n > 0 {
		return false, &Error{Kind: KindForeign, Path: s.path, Op: "open", Err: fmt.Errorf("%d tables without parley's mark", n)}
	}
	return true, nil
}

// create writes the schema of a new database before it turns to WAL. In
// the rollback journal's mode the pages of a new file are written once
// (the journal keeps what a transaction overwrites, and a new file has
// nothing to overwrite); through the WAL they were written there and
// again by its checkpoint, the largest part of what the first `parley
// ask` in a new data folder wrote. Another process creating the same
// file waits for the lock and then finds the schema made; one that
// turned the file to WAL already makes this connection use the WAL too.
func (s *Store) create(ctx context.Context) error {
	db, err := sql.Open("sqlite", dsnCreate(s.path))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return migrate(ctx, db, migrations())
}

// regularOrMissing refuses a path that exists and is not a regular file
// (symbolic links are followed: a database may live elsewhere).
func regularOrMissing(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return classify(path, "open", err)
	case st.Mode().IsRegular():
		return nil
	}
	return &Error{Kind: KindNotRegular, Path: path, Op: "open", Err: fmt.Errorf("not a regular file (%v)", st.Mode().Type()), what: fileKind(st.Mode())}
}

// fileKind names a file type that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// createFile makes the database file private to the user before SQLite
// creates it with the default mode.
func createFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// dsn is the driver's name for the database: a file: URI (so any path
// works) with the settings every connection needs. Read-write connections
// use WAL (readers never wait for the writer), synchronous=NORMAL (a commit
// survives the process being killed; only a power loss can take the last
// ones), foreign keys, and BEGIN IMMEDIATE so a write transaction takes the
// lock up front instead of failing half-way with SQLITE_BUSY. Every
// connection keeps SQLite's temporary b-trees in memory: joining a long
// reasoning's pieces in order builds one the size of the reasoning, which
// in a temporary file wrote 4.6 MB each time a session holding 6 MB of
// reasoning was read (the reasoning is bounded by max_reply_bytes, and is
// read into memory anyway).
func dsn(path string, readOnly bool) string {
	u := url.URL{Scheme: "file", Path: path}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Add("_pragma", "temp_store(memory)")
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "NORMAL")
		q.Set("_foreign_keys", "1")
		q.Set("_txlock", "immediate")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// pageSize is the page size of a database parley creates (SQLite's
// default is 4 KB). A commit writes every page it changed to the WAL, and
// the checkpoint writes each once more, so a save costs pages, not the
// bytes it adds: a piece of reasoning saved touches the database's first
// page, the pieces' table and its index besides the piece, and with 4 KB
// pages `parley ask` wrote 5.1 times the 122 KB of a reasoning streamed
// at 1 KB/s. With 1 KB pages (the row a save leaves alone, reasoning
// saved every 30 s) it writes 2.9 times or less (BENCHMARKS.md, "Slow
// reasoning on disk"). The cost is in reading and writing long messages
// and the search index, which span four times as many pages (measured on
// a loaded machine: loading a 10,000-message session whole 78–116 →
// 130–189 ms of CPU, a search 1.5–3 times as long but still under 20 ms,
// a second of a streaming answer saved 0.86 → 1.40 ms), all far inside
// their targets. The page size is chosen when a file is created; a
// database made by an earlier parley is rewritten to it when opened
// (toSmallPages).
const pageSize = 1024

// dsnCreate is dsn's read-write connection for create: the journal mode
// the file has (the rollback journal, for a new one), the page size of a
// new database, and synchronous FULL, which that journal needs to survive
// a power loss.
func dsnCreate(path string) string {
	u := url.URL{Scheme: "file", Path: path}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Add("_pragma", fmt.Sprintf("page_size(%d)", pageSize))
	q.Set("_synchronous", "FULL")
	q.Set("_txlock", "immediate")
	u.RawQuery = q.Encode()
	return u.String()
}

// write runs fn in one short write transaction.
func (s *Store) write(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return classify(s.path, op, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return classify(s.path, op, err)
	}
	return classify(s.path, op, tx.Commit())
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
