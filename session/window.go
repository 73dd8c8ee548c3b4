package session

import (
	"context"
	"database/sql"
	"errors"
	"slices"

	"parley/conversation"
)

// A session's messages are a tree (see schemaTree); what a chat opens
// first is the end of its active path. The window is read by walking up
// the parents from the leaf, one indexed look-up a message, so its cost
// is the window's and not the session's; each message's place among its
// alternatives is counted on the (session_id, parent, seq) index.

// sqlLeaf is the seq of a session's active leaf (?1): the one stored, or
// the newest message when that is not known; NULL without messages.
const sqlLeaf = `coalesce(
	(SELECT m.seq FROM sessions s JOIN messages m ON m.session_id = s.id AND m.seq = s.active_leaf WHERE s.id = ?1),
	(SELECT max(seq) FROM messages WHERE session_id = ?1))`

// sqlPathWindow reads the last ?3 messages of session ?1's path that
// ends at message ?2 (0: at the active leaf), in order.
const sqlPathWindow = `WITH RECURSIVE path (seq, n) AS (
		SELECT CASE WHEN ?2 > 0 THEN ?2 ELSE ` + sqlLeaf + ` END, 1
		UNION ALL
		SELECT m.parent, path.n + 1 FROM path JOIN messages m ON m.session_id = ?1 AND m.seq = path.seq
		WHERE m.parent <> 0 AND path.n < ?3)
	SELECT ` + messageColumns + ` FROM messages WHERE session_id = ?1 AND seq IN (SELECT seq FROM path) ORDER BY seq`

// sqlChildren lists the children of session ?1's messages ?2 to ?3 by
// parent: for a window of a path, one range of the parent index holds
// the alternatives of all its messages (counting them one by one made
// opening a session a quarter slower).
const sqlChildren = `SELECT parent, seq FROM messages WHERE session_id = ?1 AND parent BETWEEN ?2 AND ?3 ORDER BY parent, seq`

// LoadTail returns a session with only the last n messages of its active
// path, so a very long session opens at once. Each carries its AltIndex
// and AltCount, counted in the whole tree. Meta.Messages says how many
// messages the tree holds: unless the window holds them all, the
// snapshot is Partial (see conversation.Snapshot) and Load brings the
// rest; LoadBefore fetches the path's earlier messages.
func (s *Store) LoadTail(ctx context.Context, id string, n int) (Session, error) {
	if err := s.Opened(ctx); err != nil {
		return Session{}, err
	}
	meta, err := s.Get(ctx, id)
	if err != nil {
		return Session{}, err
	}
	msgs, err := s.pathWindow(ctx, id, 0, n)
	if err != nil {
		return Session{}, err
	}
	leaf := 0
	if len(msgs) > 0 {
		leaf = msgs[len(msgs)-1].ID
	}
	return newSession(meta, msgs, leaf, len(msgs) < meta.Messages), nil
}

// LoadBefore returns up to n messages of the active path through the
// message with id before that come before it, in order, with their
// AltIndex and AltCount.
func (s *Store) LoadBefore(ctx context.Context, id string, before, n int) ([]conversation.Message, error) {
	if err := s.Opened(ctx); err != nil {
		return nil, err
	}
	var parent int
	err := s.db.QueryRowContext(ctx, "SELECT parent FROM messages WHERE session_id = ? AND seq = ?", id, before).Scan(&parent)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, notFound("there is no message %d in session %s", before, id)
	case err != nil:
		return nil, classify(s.path, "read the messages", err)
	case parent == 0:
		return nil, nil
	}
	return s.pathWindow(ctx, id, parent, n)
}

// pathWindow reads the last n messages of the path ending at leaf (0:
// the active leaf).
func (s *Store) pathWindow(ctx context.Context, id string, leaf, n int) ([]conversation.Message, error) {
	if n <= 0 {
		return nil, nil
	}
	rows, err := s.stmts.pathWindow.QueryContext(ctx, id, leaf, n)
	if err != nil {
		return nil, classify(s.path, "read the messages", err)
	}
	msgs, _, err := s.read.readMessages(ctx, rows, true, n)
	if err != nil || len(msgs) == 0 {
		return msgs, err
	}
	// Parents grow along a path: the first message's is the smallest.
	rows, err = s.stmts.children.QueryContext(ctx, id, msgs[0].Parent, msgs[len(msgs)-1].Parent)
	if err != nil {
		return nil, classify(s.path, "read the messages", err)
	}
	defer rows.Close()
	sibs := map[int][]int{}
	for rows.Next() {
		var parent, seq int
		if err := rows.Scan(&parent, &seq); err != nil {
			return nil, classify(s.path, "read the messages", err)
		}
		sibs[parent] = append(sibs[parent], seq)
	}
	if err := rows.Err(); err != nil {
		return nil, classify(s.path, "read the messages", err)
	}
	place(msgs, sibs)
	return msgs, nil
}

// activeLeaf returns the id of the last message of a session's active
// path (0 for a session without messages).
func (s *Store) activeLeaf(ctx context.Context, id string) (int, error) {
	var leaf sql.NullInt64
	err := s.db.QueryRowContext(ctx, "SELECT "+sqlLeaf, id).Scan(&leaf)
	return int(leaf.Int64), classify(s.path, "read the messages", err)
}

// countAlternatives sets AltIndex and AltCount of every message of a
// whole tree, in order of id: the children of one parent are counted,
// then numbered in that order. Two counts a parent, not a list of its
// children (most messages are the only child of theirs).
func countAlternatives(msgs []conversation.Message) {
	type place struct{ count, next int }
	by := make(map[int]*place, len(msgs))
	all := make([]place, 0, len(msgs))
	for _, m := range msgs {
		p := by[m.Parent]
		if p == nil {
			all = append(all, place{})
			p = &all[len(all)-1]
			by[m.Parent] = p
		}
		p.count++
	}
	for i := range msgs {
		p := by[msgs[i].Parent]
		msgs[i].AltIndex, msgs[i].AltCount = p.next, p.count
		p.next++
	}
}

// place sets each message's AltIndex and AltCount from sibs, the ids of
// the children of each parent in order.
func place(msgs []conversation.Message, sibs map[int][]int) {
	for i := range msgs {
		m := &msgs[i]
		m.AltIndex, m.AltCount = 0, 1
		if j := slices.Index(sibs[m.Parent], m.ID); j >= 0 {
			m.AltIndex, m.AltCount = j, len(sibs[m.Parent])
		}
	}
}
