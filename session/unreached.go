package session

import (
	"context"
	"database/sql"

	"parley/api"
	"parley/conversation"
)

// A conversation whose every reply failed before any text came (a 401, an
// unreachable host, a name that does not resolve) never reached a model:
// it is not kept as a session (when the recorder made the session: one
// reopened from the history stays). Its user message is still written before
// the request goes out (a crash must not lose it); when the reply fails
// that way the session is taken out of the database again and held in
// memory by the recorder, which writes it back whole as soon as the
// conversation goes on (a retry, another message). Replies interrupted by
// the user, or that failed after some text or reasoning, count as reached.

// heldSession is a session taken out of the database because no reply of
// it reached a model, as it was.
type heldSession struct {
	title, system, role string
	titled              bool
	leaf                int
	params              api.Params
	msgs                []conversation.Message
}

// unreached reports whether m is a reply that failed before any text or
// reasoning (a reply that failed while thinking reached the model).
func unreached(m *conversation.Message) bool {
	return m != nil && m.Role != api.RoleUser && m.State == conversation.StateFailed && m.Text == "" && m.Reasoning == "" && len(m.Attachments) == 0
}

// takeUnreached removes session id when none of its replies reached a
// model and returns what it held (nil when the session stays). The
// removal leaves no tombstone: the session may come back.
func (s *Store) takeUnreached(ctx context.Context, id string) (*heldSession, error) {
	reached, err := s.reached(ctx, s.db, id)
	if err != nil || reached {
		return nil, err
	}
	sess, err := s.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	held := &heldSession{title: sess.Title, titled: sess.Titled, system: sess.SystemPrompt, role: sess.Role, params: sess.Params, leaf: sess.Snapshot.Leaf, msgs: sess.Snapshot.Messages}
	var candidates []string
	err = s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		// Checked again under the write lock: another process may have
		// added to the session since.
		var count int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM messages WHERE session_id = ?", id).Scan(&count); err != nil {
			return err
		}
		if reached, err := s.reached(ctx, tx, id); err != nil || reached || count != len(held.msgs) {
			held = nil
			return err
		}
		candidates, err = strings1(ctx, tx, `SELECT p.sha256 FROM parts p JOIN messages m ON m.id = p.message_id
			WHERE m.session_id = ?1 AND p.sha256 <> '' UNION SELECT sha256 FROM parts WHERE draft_of = ?1 AND sha256 <> ''`, id)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id)
		return err
	})
	if err != nil || held == nil {
		return nil, err
	}
	return held, s.collect(ctx, candidates)
}

// reached reports whether session id has something from a model: a reply
// with text or reasoning, one that did not fail, an image, a generated
// image.
func (s *Store) reached(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM messages m WHERE m.session_id = ?1 AND m.role <> 'user'
			AND NOT (m.state = 'failed' AND m.text = '' AND m.reasoning = '' AND NOT EXISTS (SELECT 1 FROM parts WHERE message_id = m.id)
				AND NOT EXISTS (SELECT 1 FROM reasoning_pieces WHERE message_id = m.id)))
		+ (SELECT count(*) FROM generated_images WHERE session_id = ?1)`, id).Scan(&n)
	if err != nil {
		return false, classify(s.path, "save the conversation", err)
	}
	return n > 0, nil
}

// restore writes a held session back, whole, in one transaction (the
// images first), without touching its draft. A forked session is
// written the same way.
func (s *Store) restore(ctx context.Context, id string, h *heldSession) error {
	var b blobs
	// Stored redacted; the messages are the caller's and stay as they are.
	atts := make([][]api.Attachment, len(h.msgs))
	for i, m := range h.msgs {
		atts[i] = s.keys.redactParts(m.Attachments)
		for h, data := range attachmentBlobs(atts[i]) {
			if b == nil {
				b = blobs{}
			}
			b[h] = data
		}
	}
	if err := s.folder.put(b); err != nil {
		return classify(s.path, "save an image", err)
	}
	err := s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		kind := conversation.ChangeAppend
		if h.titled {
			kind = conversation.ChangeTitle
		}
		meta := conversation.Change{Kind: kind, ConversationID: id, Title: h.title, SystemPrompt: h.system, Role: h.role, Params: h.params, Leaf: h.leaf}
		for i, m := range h.msgs {
			meta.Message = &m
			model := ""
			if m.Role == api.RoleAssistant {
				model = m.Model
			}
			if err := s.upsertSession(ctx, tx, meta, sessionRow{model: model, preview: previewOf(m.Text), leaf: h.leaf, setLeaf: true}); err != nil {
				return err
			}
			// The messages keep their numbers: they are the session's
			// (taken out of it, or a fork's own).
			rowID, err := s.insertMessage(ctx, tx, id, m.ID, m.Parent, &m)
			if err != nil {
				return err
			}
			if err := insertParts(ctx, tx, "message_id", rowID, atts[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return classify(s.path, "save an image", s.folder.ensure(b))
}

// hasSession reports whether a session row exists for id.
func (s *Store) hasSession(ctx context.Context, id string) (bool, error) {
	var ok bool
	err := s.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?)", id).Scan(&ok)
	return ok, err
}
