package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrSessionDeleted is returned (wrapped) by a write for a session that
// was deleted on purpose (Store.Delete: sessions rm, the browser) while a
// conversation still had it open: the deletion wins, and what the
// conversation does next is not saved.
var ErrSessionDeleted = errors.New("the session was deleted")

// deletedError names the session and says what it means for the user.
type deletedError struct{ id string }

func (e *deletedError) Error() string {
	return fmt.Sprintf("session %s was deleted (parley sessions rm, or the browser) while this chat had it open, so this conversation is no longer saved", shortID(e.id))
}

func (e *deletedError) Is(target error) bool { return target == ErrSessionDeleted }

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// refuseDeleted fails a write that would create again a session deleted
// on purpose.
func refuseDeleted(ctx context.Context, tx *sql.Tx, id string) error {
	var gone bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM deleted_sessions WHERE id = ?)", id).Scan(&gone); err != nil {
		return err
	}
	if gone {
		return &deletedError{id: id}
	}
	return nil
}
