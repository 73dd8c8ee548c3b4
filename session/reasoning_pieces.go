package session

import (
	"context"
	"database/sql"
	"strings"

	"parley/conversation"
)

// A streaming reply's reasoning is saved in pieces (reasoning_pieces, see
// schemaNumbered), and the pieces stay its reasoning when it ends: writing
// the whole reasoning again at the end would double what a long
// reasoning costs on disk (6 MB written as pieces, then 6 MB again, each
// also copied by a checkpoint). The end only adds the last piece. The one
// exception is redaction: a key that arrived split over two saves was
// not recognised in either piece, so when redacting the whole reasoning
// differs from redacting it piece by piece, the end writes it whole
// (redacted) and drops the pieces.

// finishReasoning ends the reasoning of a reply that was saved in pieces
// (row rowID): it adds what came after the last piece and reports true,
// or reports false when the reasoning must be written whole (no pieces,
// pieces that do not lead the reasoning, or a redaction that spans
// them).
func (s *Store) finishReasoning(ctx context.Context, tx *sql.Tx, rowID int64, m *conversation.Message) (bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT start, "end" FROM reasoning_pieces WHERE message_id = ? ORDER BY start`, rowID)
	if err != nil {
		return false, err
	}
	var bounds []int
	for rows.Next() {
		var start, end int
		if err := rows.Scan(&start, &end); err != nil {
			rows.Close()
			return false, err
		}
		if len(bounds) == 0 {
			bounds = append(bounds, start)
		}
		if start != bounds[len(bounds)-1] {
			rows.Close()
			return false, nil // not contiguous: write it whole
		}
		bounds = append(bounds, end)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(bounds) == 0 || bounds[len(bounds)-1] > len(m.Reasoning) {
		return false, err
	}
	if !s.keys.redactsAlike(m.Reasoning, bounds) {
		return false, nil
	}
	if last := bounds[len(bounds)-1]; last < len(m.Reasoning) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO reasoning_pieces (message_id, start, "end", text) VALUES (?, ?, ?, ?)`,
			rowID, last, len(m.Reasoning), s.keys.redact(m.Reasoning[last:])); err != nil {
			return false, err
		}
	}
	return true, nil
}

// redactsAlike reports whether redacting text whole gives what its
// stored parts give, each redacted alone: the part before bounds[0]
// (written with the row), the pieces between the bounds, and the rest.
func (k redactor) redactsAlike(text string, bounds []int) bool {
	whole := k.redact(text)
	if whole == text {
		return true // no key in it, so none in any part
	}
	var b strings.Builder
	b.Grow(len(text))
	prev := 0
	for _, at := range append(bounds, len(text)) {
		b.WriteString(k.redact(text[prev:at]))
		prev = at
	}
	return b.String() == whole
}
