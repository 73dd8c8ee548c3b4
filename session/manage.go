package session

import (
	"context"
	"database/sql"
	"strings"
)

// Rename gives a session a title of its own, which no longer follows its
// first message.
func (s *Store) Rename(ctx context.Context, id, title string) error {
	if err := s.Opened(ctx); err != nil {
		return err
	}
	title = strings.TrimSpace(title)
	return s.write(ctx, "rename the session", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE sessions SET title = ?, titled = 1, updated = max(updated, ?) WHERE id = ?",
			title, millis(s.now()), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound("there is no session %s; see \"parley sessions list\"", id)
		}
		return nil
	})
}

// Delete removes sessions with their messages, drafts and generated-image
// records, then the stored images nothing refers to any more. It returns
// how many sessions were removed; unknown ids are not an error. A deleted
// session's id is remembered for a while (keepDeleted): a chat still
// recording it in another process cannot bring it back (ErrSessionDeleted).
func (s *Store) Delete(ctx context.Context, ids ...string) (int, error) {
	if err := s.Opened(ctx); err != nil {
		return 0, err
	}
	return s.deleteSessions(ctx, "delete sessions", true, ids...)
}

// deleteSessions removes sessions; tombstone remembers their ids.
func (s *Store) deleteSessions(ctx context.Context, op string, tombstone bool, ids ...string) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	var candidates []string
	var removed int64
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		for _, id := range ids {
			hashes, err := strings1(ctx, tx, `
				SELECT p.sha256 FROM parts p JOIN messages m ON m.id = p.message_id WHERE m.session_id = ?1 AND p.sha256 <> ''
				UNION SELECT sha256 FROM parts WHERE draft_of = ?1 AND sha256 <> ''
				UNION SELECT sha256 FROM generated_images WHERE session_id = ?1`, id)
			if err != nil {
				return err
			}
			candidates = append(candidates, hashes...)
			res, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			removed += n
			if n > 0 && tombstone {
				if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO deleted_sessions (id, deleted) VALUES (?, ?)", id, millis(s.now())); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int(removed), s.collect(ctx, candidates)
}

// DeleteAll removes every session, and every stored image that only they
// referred to.
func (s *Store) DeleteAll(ctx context.Context) (int, error) {
	if err := s.Opened(ctx); err != nil {
		return 0, err
	}
	ids, err := strings1(ctx, s.db, "SELECT id FROM sessions")
	if err != nil {
		return 0, classify(s.path, "delete sessions", err)
	}
	return s.Delete(ctx, ids...)
}
