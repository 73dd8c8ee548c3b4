package session

import (
	"context"
	"fmt"
)

// Start opens the history database in dir as Open does, but in the
// background, and returns the store at once: the chat draws its first
// frame while the database is opened and its schema checked, which is a
// sixth of a start on a slow machine. Every method that reads or writes
// waits for the open to finish and fails with its error, as does a
// recorder's first write; Opened reports it. A store from Start is closed
// like one from Open (Close waits for the open).
//
// The open runs on a goroutine the store owns; ctx stops it (its queries
// end) and it ends on its own once the database is open or refused.
func Start(ctx context.Context, dir string, opts Options) *Store {
	s := newStore(dir, opts)
	if dir == "" {
		s.openErr = errNoDataDir()
		close(s.ready)
		return s
	}
	go func() {
		defer close(s.ready)
		if err := s.open(ctx); err != nil {
			s.openErr = openError(dir, err)
		}
	}()
	return s
}

// Opened waits for the store's open to finish and returns why it failed
// (nil when the store is open), or ctx's error if ctx ends first.
func (s *Store) Opened(ctx context.Context) error {
	select {
	case <-s.ready:
		return s.openErr
	case <-ctx.Done():
		return fmt.Errorf("waiting for the history database %s to open: %w", s.path, ctx.Err())
	}
}
