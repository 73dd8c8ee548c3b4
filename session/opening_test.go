package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStartedStoreWorksBeforeItSaysItIsOpen: a store from Start is used at
// once, without waiting for Opened first: a recorder records a chat, and
// the reads see it, as with Open. Without the wait in each method the
// first call would find no database handle.
func TestStartedStoreWorksBeforeItSaysItIsOpen(t *testing.T) {
	c := newClock()
	dir := filepath.Join(t.TempDir(), "parley")
	s := Start(context.Background(), dir, Options{Now: c.now})
	defer s.Close()
	if n, err := s.Count(context.Background()); err != nil || n != 0 {
		t.Fatalf("Count on a store just started = %d, %v; want 0 sessions", n, err)
	}
	r := s.NewRecorder(context.Background())
	conv := chat(t, r, c, "", "where is the lighthouse?", "On the cape.")
	flush(t, r)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Opened(context.Background()); err != nil {
		t.Fatalf("Opened = %v", err)
	}
	got, err := s.Load(context.Background(), conv.ID())
	if msgs := got.Snapshot.Messages; err != nil || len(msgs) != 2 || msgs[1].Text != "On the cape." {
		t.Fatalf("Load = %+v, %v; want the question and its answer", got.Snapshot.Messages, err)
	}
}

// TestStartedStoreThatCannotOpenSaysSoOnce: a store whose database cannot
// be opened reports the error Open gives, from Opened and from every
// method; its recorder drops what it is given without reporting write
// failures (the chat says once that history is off), and closing both
// is quiet.
func TestStartedStoreThatCannotOpenSaysSoOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parley")
	if err := os.MkdirAll(filepath.Join(dir, DBName), 0o700); err != nil {
		t.Fatal(err)
	}
	_, want := Open(context.Background(), dir, Options{})
	if want == nil {
		t.Fatal("Open accepted a folder in the database's place")
	}
	c := newClock()
	s := Start(context.Background(), dir, Options{Now: c.now})
	r := s.NewRecorder(context.Background())
	chat(t, r, c, "", "kept?", "No.")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Flush(ctx); err == nil {
		t.Fatal("Flush on a store that could not open returned nil")
	}
	if err := s.Opened(ctx); err == nil || err.Error() != want.Error() {
		t.Fatalf("Opened = %v; want Open's error %q", err, want)
	}
	if _, err := s.List(ctx, 10, 0); err == nil || err.Error() != want.Error() {
		t.Fatalf("List = %v; want Open's error", err)
	}
	select {
	case err, ok := <-r.Errors():
		if ok {
			t.Fatalf("the recorder reported %v; the open's failure is said once, by whoever started the store", err)
		}
	case <-ctx.Done():
		t.Fatal("the recorder of a store that could not open did not stop")
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Recorder.Close = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Store.Close = %v", err)
	}
}

// TestStartedStoreClosedAtOnce: closing a store right after Start waits
// for the open and closes what it opened (the race detector watches the
// handles), and a later start finds the database whole.
func TestStartedStoreClosedAtOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parley")
	for range 3 {
		if err := Start(context.Background(), dir, Options{}).Close(); err != nil {
			t.Fatalf("Close right after Start = %v", err)
		}
	}
	s := openIn(t, dir, nil)
	if v, _, err := userVersion(context.Background(), s.db); err != nil || v != SchemaVersion() {
		t.Fatalf("schema version %d (%v) after three quick starts, want %d", v, err, SchemaVersion())
	}
}

// TestStartWithoutADataDirectory: no data directory is the error Open
// gives, at once.
func TestStartWithoutADataDirectory(t *testing.T) {
	_, want := Open(context.Background(), "", Options{})
	err := Start(context.Background(), "", Options{}).Opened(context.Background())
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("Start(\"\").Opened = %v; want %v", err, want)
	}
}

// TestALockedDatabaseSaysWhoToAsk: a database another program keeps
// locked past the busy timeout is refused with a sentence that names the
// file, says it is locked and what to do, from Open as from Start.
func TestALockedDatabaseSaysWhoToAsk(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "parley")
	s := openIn(t, dir, nil)
	s.Close()
	db := rawDB(t, filepath.Join(dir, DBName))
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	st := Start(context.Background(), dir, Options{}) // waits beside Open
	_, err = Open(context.Background(), dir, Options{})
	started := st.Opened(context.Background())
	for _, err := range []error{err, started} {
		var se *Error
		if !errors.As(err, &se) || se.Kind != KindBusy {
			t.Fatalf("a locked database gave %v, want a KindBusy error", err)
		}
		for _, want := range []string{filepath.Join(dir, DBName), "locked", "close the program that holds it"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q does not say %q", err, want)
			}
		}
	}
}
