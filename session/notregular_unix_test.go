//go:build unix

package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeInPlaceOfTheDatabase: a named pipe (or a directory) where
// the database or its journal should be is refused at once, with a
// sentence naming the file, what it is and what to do, instead of hanging
// on a read that waits for a writer.
func TestNamedPipeInPlaceOfTheDatabase(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
		make             func(string) error
	}{
		{"fifo database", DBName, "is a named pipe (FIFO), not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"fifo journal", DBName + "-wal", "is a named pipe (FIFO), not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"directory", DBName, "is a directory, not a regular file", func(p string) error { return os.Mkdir(p, 0o700) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "parley")
			os.MkdirAll(dir, 0o700)
			path := filepath.Join(dir, tc.file)
			if err := tc.make(path); err != nil {
				t.Skipf("cannot make it here: %v", err)
			}
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				s, err := Open(context.Background(), dir, Options{})
				if err == nil {
					s.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				var se *Error
				if !errors.As(err, &se) || se.Kind != KindNotRegular || !strings.Contains(err.Error(), tc.want) ||
					!strings.Contains(err.Error(), "mv "+path) || !strings.Contains(err.Error(), "history = false") {
					t.Fatalf("Open = %v", err)
				}
				t.Logf("refused in %v: %v", time.Since(start).Round(time.Microsecond), err)
			case <-time.After(5 * time.Second):
				// Unblock the reader so the test binary can end.
				if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("Open hung on the named pipe")
			}
		})
	}
}
