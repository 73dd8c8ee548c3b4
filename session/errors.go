package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Kind says what is wrong with the history database.
type Kind int

// Kinds of Error.
const (
	// KindIO: reading or writing failed (disk full, I/O error).
	KindIO Kind = iota
	// KindCorrupt: the file is not a database, or a damaged one.
	KindCorrupt
	// KindUnreadable: the file cannot be opened (permissions).
	KindUnreadable
	// KindReadOnly: the data directory or the file cannot be written.
	KindReadOnly
	// KindTooNew: a newer parley wrote the file; it was left untouched.
	KindTooNew
	// KindForeign: the file is an SQLite database of another program.
	KindForeign
	// KindNotRegular: the file (or its -wal or -shm companion) is not a
	// regular file: a named pipe, a device, a directory, a socket. It was
	// not opened (opening a pipe waits for a writer forever).
	KindNotRegular
	// KindBusy: another process held the database's lock for longer than
	// the busy timeout.
	KindBusy
)

// Error is a problem with the history database. Its message names the file
// and says what to do; callers that cannot use the store go on with history
// off for the run.
type Error struct {
	Kind Kind
	Path string
	// Op is what was being done ("open", "save the conversation", …).
	Op  string
	Err error
	// found and known are the schema versions of a KindTooNew error.
	found, known int
	// what the file is instead, for KindNotRegular ("a named pipe (FIFO)").
	what string
}

func (e *Error) Error() string {
	switch e.Kind {
	case KindCorrupt:
		return fmt.Sprintf("the history database %s is damaged (%v); move it aside (mv %s %s.broken) and parley starts a new one, with history off until then",
			e.Path, e.Err, e.Path, e.Path)
	case KindUnreadable:
		return fmt.Sprintf("cannot open the history database %s (%v); make it readable and writable by you (chmod u+rw %s), or set history = false in the config",
			e.Path, e.Err, e.Path)
	case KindReadOnly:
		dir := filepath.Dir(e.Path)
		return fmt.Sprintf("cannot write the history database %s (%v); make it and its folder writable by you (chmod u+rw %s; chmod u+rwx %s), or set history = false in the config",
			e.Path, e.Err, e.Path, dir)
	case KindTooNew:
		return fmt.Sprintf("the history database %s was written by a newer parley (schema %d; this one knows up to %d) and was left untouched; update parley, or move the file aside to start a new history",
			e.Path, e.found, e.known)
	case KindNotRegular:
		what := "the history database " + e.Path
		if strings.HasSuffix(e.Path, "-wal") || strings.HasSuffix(e.Path, "-shm") {
			what = e.Path + ", a journal of the history database,"
		}
		return fmt.Sprintf("%s is %s, not a regular file, so parley did not open it; move it aside (mv %s %s.broken) and parley makes a new one, or set history = false in the config",
			what, e.what, e.Path, e.Path)
	case KindForeign:
		return fmt.Sprintf("%s is not a parley history database (it belongs to another program) and was left untouched; move it aside or set XDG_DATA_HOME to another folder",
			e.Path)
	case KindBusy:
		return fmt.Sprintf("another program kept the history database %s locked for %v (%v); close the program that holds it (a database browser, a stuck parley) and try again",
			e.Path, busyTimeout, e.Err)
	}
	if e.Op == "open" || e.Op == "close" {
		return fmt.Sprintf("could not %s the history database %s (%v); check that its disk has room and works", e.Op, e.Path, e.Err)
	}
	return fmt.Sprintf("could not %s in the history database %s (%v); check that its disk has room and works", e.Op, e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotFound is returned (wrapped) for a session id that matches nothing.
var ErrNotFound = errors.New("no such session")

// ErrAmbiguous is returned (wrapped) for an id prefix that matches several
// sessions.
var ErrAmbiguous = errors.New("ambiguous session id")

// lookupError is a session lookup that failed: its message is written for
// the user, and errors.Is matches it to ErrNotFound or ErrAmbiguous.
type lookupError struct {
	msg  string
	kind error
}

func (e *lookupError) Error() string        { return e.msg }
func (e *lookupError) Is(target error) bool { return target == e.kind }

func notFound(format string, args ...any) error {
	return &lookupError{msg: fmt.Sprintf(format, args...), kind: ErrNotFound}
}

// ErrClosed is returned by a Recorder used after Close.
var ErrClosed = errors.New("the history recorder is closed")

// classify wraps a database or file error as an *Error with the kind the
// user can act on. Errors that are already *Error, and context errors, are
// returned as they are.
func classify(path, op string, err error) error {
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	kind := KindIO
	var le *sqlite.Error
	switch {
	case errors.As(err, &le):
		switch le.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			kind = KindCorrupt
		case sqlite3.SQLITE_READONLY:
			kind = KindReadOnly
		case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
			kind = KindUnreadable
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			kind = KindBusy
		}
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
		kind = KindReadOnly
	}
	return &Error{Kind: kind, Path: path, Op: op, Err: err}
}
