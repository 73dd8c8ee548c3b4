package session

import (
	"context"
	"database/sql"
	"errors"

	"parley/api"
	"parley/conversation"
)

// textSoFar is a message's whole text in SQL: a streaming reply's stored
// text followed by its pieces (see schemaV3). One expression, so a reader
// sees the row and its pieces from one snapshot.
const textSoFar = `CASE WHEN messages.state = 'streaming' THEN messages.text || coalesce((SELECT group_concat(p.text, '' ORDER BY p.start)
	FROM message_pieces p WHERE p.message_id = messages.id), '') ELSE messages.text END`

// writeProgress saves a streaming reply's text so far by adding only what
// arrived since the last save, so a long reply costs its length on disk
// and not its length times the number of saves. What is saved already is
// read from the database (not remembered), so a save that failed is made
// up by the next one. A reply without a row yet, or whose saved text is
// longer than the text (it cannot lead it), is written whole.
func (s *Store) writeProgress(ctx context.Context, ch conversation.Change) error {
	m := ch.Message
	model := ""
	if m.Role == api.RoleAssistant {
		model = m.Model
	}
	return s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		if err := s.upsertSession(ctx, tx, ch, model, previewOf(m.Text)); err != nil {
			return err
		}
		var rowID, saved, savedReasoning int64
		err := tx.QueryRowContext(ctx, `SELECT id, coalesce((SELECT max("end") FROM message_pieces WHERE message_id = messages.id), octet_length(text)),
			octet_length(reasoning) FROM messages WHERE session_id = ? AND seq = ?`, ch.ConversationID, m.ID).Scan(&rowID, &saved, &savedReasoning)
		switch {
		case errors.Is(err, sql.ErrNoRows) || err == nil && saved > int64(len(m.Text)):
			id, err := s.upsertMessage(ctx, tx, ch.ConversationID, m)
			if err != nil {
				return err
			}
			return dropPieces(ctx, tx, id)
		case err != nil:
			return err
		}
		if saved < int64(len(m.Text)) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO message_pieces (message_id, start, "end", text) VALUES (?, ?, ?, ?)`,
				rowID, saved, len(m.Text), s.redact(m.Text[saved:])); err != nil {
				return err
			}
		}
		if savedReasoning != int64(len(s.redact(m.Reasoning))) {
			// The reasoning grows before the answer starts; it is written
			// whole, and no more once the answer comes.
			if _, err := tx.ExecContext(ctx, `UPDATE messages SET reasoning = ?, reasoning_start = ?, reasoning_end = ? WHERE id = ?`,
				s.redact(m.Reasoning), millis(m.ReasoningStart), millis(m.ReasoningEnd), rowID); err != nil {
				return err
			}
		}
		// The state goes back to streaming should another process have
		// marked the reply abandoned (see recoverStale): it was not.
		_, err = tx.ExecContext(ctx, "UPDATE messages SET state = 'streaming', updated = max(updated, ?) WHERE id = ?", millis(s.now()), rowID)
		return err
	})
}

// dropPieces removes a message's pieces once its whole text is written.
func dropPieces(ctx context.Context, tx *sql.Tx, messageRowID int64) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM message_pieces WHERE message_id = ?", messageRowID)
	return err
}
