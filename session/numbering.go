package session

import (
	"context"
	"database/sql"

	"parley/conversation"
)

// The store numbers a session's messages (messages.seq), not the
// conversation: two processes appending to one session would otherwise
// give their messages the same numbers and the second would overwrite
// the first (see schemaNumbered). A conversation numbers its messages
// itself, synchronously, for the screen; the recorder maps those ids to
// the store's numbers per conversation value (conversation.Change.Source):
// ids below Change.FirstOwnID came from the store and are its numbers,
// the others are mapped when their message is first inserted. While
// nobody else writes to the session the two agree (a restored
// conversation continues from the store's next number, Snapshot.NextID).

// numbering maps the ids of one conversation value to the store's
// numbers, and remembers how far it knows the session.
type numbering struct {
	firstOwn int
	seqs     map[int]int
	// known is the largest number of the session this conversation knows
	// of: what it was restored with, then each message it inserted.
	// Messages above it that it did not insert were added by another
	// process.
	known int
}

func newNumbering(firstOwn int) *numbering {
	return &numbering{firstOwn: firstOwn, seqs: map[int]int{}, known: max(firstOwn-1, 0)}
}

// seq returns the store's number of the message with the conversation's
// id (0 for 0); ok is false for a message of this conversation that was
// never inserted.
func (n *numbering) seq(id int) (seq int, ok bool) {
	if id <= 0 {
		return 0, true
	}
	if s, found := n.seqs[id]; found {
		return s, true
	}
	if id < n.firstOwn {
		return id, true
	}
	return 0, false
}

// leaf is the store's number of a change's leaf: 0 when it was never
// inserted (the stored leaf is then left alone; see upsertSession).
func (n *numbering) leaf(ch conversation.Change) int {
	s, _ := n.seq(ch.Leaf)
	return s
}

// inserted records the number the store gave the conversation's message
// id.
func (n *numbering) inserted(id, seq int) {
	n.seqs[id] = seq
	n.known = max(n.known, seq)
}

// numberKey names a numbering: one conversation value's messages in one
// session.
type numberKey struct {
	source  uint64
	session string
}

// numberings are a recorder's mappings, one per conversation value it
// has heard.
type numberings map[numberKey]*numbering

// of returns the numbering of ch's conversation value, made on first
// sight.
func (ns numberings) of(ch conversation.Change) *numbering {
	k := numberKey{ch.Source, ch.ConversationID}
	n := ns[k]
	if n == nil {
		n = newNumbering(ch.FirstOwnID)
		ns[k] = n
	}
	return n
}

// nextSeq takes the session's next number inside a write transaction
// (the lock is taken at BEGIN, see dsn, so no other process can take it
// too) and counts the messages other processes added since n last knew
// the session.
func nextSeq(ctx context.Context, tx *sql.Tx, sessionID string, n *numbering) (seq, others int, err error) {
	var last int
	if err := tx.QueryRowContext(ctx, "SELECT coalesce((SELECT last_seq FROM sessions WHERE id = ?), 0)", sessionID).Scan(&last); err != nil {
		return 0, 0, err
	}
	if last > n.known {
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM messages WHERE session_id = ? AND seq > ?", sessionID, n.known).Scan(&others); err != nil {
			return 0, 0, err
		}
	}
	return last + 1, others, nil
}
