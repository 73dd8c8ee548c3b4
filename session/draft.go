package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"parley/api"
)

// SaveDraft keeps what is being typed in a session's composer, text and
// attachments, replacing the previous draft. A session that has no
// messages yet is created for it (and removed again when the draft is
// emptied), so a new chat's draft survives a quit or a crash too.
func (s *Store) SaveDraft(ctx context.Context, sessionID, text string, atts []api.Attachment) error {
	if err := s.Opened(ctx); err != nil {
		return err
	}
	const op = "save the draft"
	atts = s.keys.redactParts(atts)
	b := attachmentBlobs(atts)
	if err := s.folder.put(b); err != nil {
		return classify(s.path, op, err)
	}
	empty := strings.TrimSpace(text) == "" && len(atts) == 0
	var candidates []string
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var err error
		if candidates, err = clearDraft(ctx, tx, sessionID); err != nil {
			return err
		}
		if empty {
			_, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE id = ? AND message_count = 0", sessionID)
			return err
		}
		if err := refuseDeleted(ctx, tx, sessionID); err != nil {
			return err
		}
		// A draft does not reorder the list: updated moves only for a
		// session made for it.
		now := millis(s.now())
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, created, updated, draft, has_draft) VALUES (?1, ?2, ?2, ?3, 1)
			ON CONFLICT (id) DO UPDATE SET draft = excluded.draft, has_draft = 1`, sessionID, now, s.keys.redact(text)); err != nil {
			return err
		}
		return insertParts(ctx, tx, "draft_of", sessionID, atts)
	})
	if err != nil {
		return err
	}
	if err := s.folder.ensure(b); err != nil {
		return classify(s.path, op, err)
	}
	return s.collect(ctx, candidates)
}

// clearDraft empties a session's draft and returns the hashes of its
// images, for collection.
func clearDraft(ctx context.Context, tx *sql.Tx, sessionID string) ([]string, error) {
	hashes, err := strings1(ctx, tx, "SELECT sha256 FROM parts WHERE draft_of = ? AND sha256 <> ''", sessionID)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM parts WHERE draft_of = ?", sessionID); err != nil {
		return nil, err
	}
	_, err = tx.ExecContext(ctx, "UPDATE sessions SET draft = '', has_draft = 0 WHERE id = ? AND has_draft = 1", sessionID)
	return hashes, err
}

// Draft returns a session's draft ("" and nil when it has none).
func (s *Store) Draft(ctx context.Context, sessionID string) (string, []api.Attachment, error) {
	if err := s.Opened(ctx); err != nil {
		return "", nil, err
	}
	var text string
	err := s.db.QueryRowContext(ctx, "SELECT draft FROM sessions WHERE id = ?", sessionID).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, classify(s.path, fmt.Sprintf("read the draft of session %s", sessionID), err)
	}
	atts, err := s.read.draftParts(ctx, sessionID)
	return text, atts, err
}
