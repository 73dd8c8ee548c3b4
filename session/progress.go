package session

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"parley/api"
	"parley/conversation"
)

// textSoFar is a message's whole text in SQL: a streaming reply's stored
// text followed by its pieces (see schemaV3). One expression, so a reader
// sees the row and its pieces from one snapshot.
const textSoFar = `CASE WHEN messages.state = 'streaming' THEN messages.text || coalesce((SELECT group_concat(p.text, '' ORDER BY p.start)
	FROM message_pieces p WHERE p.message_id = messages.id), '') ELSE messages.text END`

// reasoningSoFar is a message's whole reasoning in SQL: the stored
// reasoning followed by its pieces, while it streams and after (see
// reasoning_pieces.go). Only a message with reasoning has pieces (its
// reasoning_end is the time of its last delta), so the others, most of a
// long session, are read without looking for any.
const reasoningSoFar = `CASE WHEN messages.reasoning_end <> 0 THEN messages.reasoning || coalesce((SELECT group_concat(p.text, '' ORDER BY p.start)
	FROM reasoning_pieces p WHERE p.message_id = messages.id), '') ELSE messages.reasoning END`

// writeProgress saves a streaming reply's text and reasoning so far by
// adding only what arrived since the last save, so a long reply costs
// its length on disk and not its length times the number of saves. What
// is saved already is read from the database (not remembered), so a save
// that failed is made up by the next one. A reply without a row yet is
// inserted whole; one whose saved text or reasoning is longer than what
// it has now (it cannot lead it) is rewritten whole.
func (s *Store) writeProgress(ctx context.Context, ch conversation.Change, n *numbering) (applied, error) {
	m := ch.Message
	model := ""
	if m.Role == api.RoleAssistant {
		model = m.Model
	}
	var (
		res    applied
		newSeq int
	)
	err := s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		seq, stored := n.seq(m.ID)
		var (
			rowID, saved, savedReasoning int64
			row                          streamingRow
		)
		err := sql.ErrNoRows
		if stored {
			err = tx.QueryRowContext(ctx, `SELECT id, coalesce((SELECT max("end") FROM message_pieces WHERE message_id = messages.id), octet_length(text)),
				coalesce((SELECT max("end") FROM reasoning_pieces WHERE message_id = messages.id), octet_length(reasoning)),
				state = 'streaming', reasoning_start, reasoning_end, updated
				FROM messages WHERE session_id = ? AND seq = ?`, ch.ConversationID, seq).Scan(&rowID, &saved, &savedReasoning,
				&row.streaming, &row.reasoningStart, &row.reasoningEnd, &row.updated)
		}
		// The session's row is written only while the preview may change
		// (text came and the saved text is shorter than a preview), or
		// when the reply is written whole: a save touches as few pages as
		// it can.
		if previewSaved := saved >= previewBytes || saved == int64(len(m.Text)); err != nil || !previewSaved {
			if err := s.upsertSession(ctx, tx, ch, sessionRow{model: model, preview: previewOf(m.Text), leaf: n.leaf(ch)}); err != nil {
				return err
			}
		}
		switch {
		case errors.Is(err, sql.ErrNoRows):
			var id int64
			if id, newSeq, res.others, err = s.insertNew(ctx, tx, ch, n); err != nil {
				return err
			}
			return dropPieces(ctx, tx, id)
		case err != nil:
			return err
		case saved > int64(len(m.Text)) || savedReasoning > int64(len(m.Reasoning)):
			id, err := s.updateMessage(ctx, tx, ch.ConversationID, seq, m, false)
			if err != nil {
				return err
			}
			return dropPieces(ctx, tx, id)
		}
		if saved < int64(len(m.Text)) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO message_pieces (message_id, start, "end", text) VALUES (?, ?, ?, ?)`,
				rowID, saved, len(m.Text), s.keys.redact(m.Text[saved:])); err != nil {
				return err
			}
		}
		if savedReasoning < int64(len(m.Reasoning)) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO reasoning_pieces (message_id, start, "end", text) VALUES (?, ?, ?, ?)`,
				rowID, savedReasoning, len(m.Reasoning), s.keys.redact(m.Reasoning[savedReasoning:])); err != nil {
				return err
			}
		}
		if !row.stale(m, s.now()) {
			return nil
		}
		// The state goes back to streaming should another process have
		// marked the reply abandoned (see recoverStale): it was not.
		_, err = tx.ExecContext(ctx, "UPDATE messages SET state = 'streaming', reasoning_start = ?, reasoning_end = ?, updated = max(updated, ?) WHERE id = ?",
			millis(m.ReasoningStart), millis(m.ReasoningEnd), millis(s.now()), rowID)
		return err
	})
	if err != nil {
		return applied{}, err
	}
	if newSeq > 0 {
		n.inserted(m.ID, newSeq)
	}
	return res, nil
}

// rowRefresh is how long a save may leave a streaming reply's row as it
// is: far less than staleAfter, so another process never takes the reply
// for abandoned.
const rowRefresh = time.Minute

// streamingRow is what a save reads of a streaming reply's row.
type streamingRow struct {
	streaming                             bool
	reasoningStart, reasoningEnd, updated int64
}

// stale reports whether a save of m must write the row as well as the
// pieces. Rewriting it at every save cost two pages each time (the row's
// and the index of streaming replies: 8 KB with 4 KB pages, twice with the
// checkpoint), more than a second of reasoning adds. The row is written
// when another process marked the reply abandoned, when its reasoning
// began (reasoning_end <> 0 is what says pieces of reasoning are to be
// read), and at least every rowRefresh; between those its reasoning_end
// lags behind the pieces, so a reply cut off by a crash shows a time of
// thinking up to rowRefresh short.
func (r streamingRow) stale(m *conversation.Message, now time.Time) bool {
	return !r.streaming || r.reasoningStart != millis(m.ReasoningStart) ||
		(r.reasoningEnd == 0) != m.ReasoningEnd.IsZero() || millis(now)-r.updated >= rowRefresh.Milliseconds()
}

// dropPieces removes a message's pieces once its whole text and
// reasoning are written.
func dropPieces(ctx context.Context, tx *sql.Tx, messageRowID int64) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM message_pieces WHERE message_id = ?", messageRowID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM reasoning_pieces WHERE message_id = ?", messageRowID)
	return err
}
