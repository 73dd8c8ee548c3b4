package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"parley/api"
	"parley/conversation"
)

// applied is what writing a change found: how many messages other
// processes had added to the session since the conversation last knew it
// (see numbering).
type applied struct {
	others int
}

// apply writes one conversation change in its own short transaction,
// with the conversation's ids mapped to the store's numbers by n. Image
// bytes are stored before the rows that refer to them. Only the changes
// that move the active path (an append, a switch, a removal) write the
// active leaf: the late end of a reply must not take the session back
// from a turn another process added since.
func (s *Store) apply(ctx context.Context, ch conversation.Change, n *numbering) (applied, error) {
	switch ch.Kind {
	case conversation.ChangeProgress:
		if ch.Message == nil {
			return applied{}, nil
		}
		return s.writeProgress(ctx, ch, n)
	case conversation.ChangeTools:
		if ch.Message == nil {
			return applied{}, nil
		}
		return s.writeTools(ctx, ch, n)
	case conversation.ChangeAppend, conversation.ChangeUpdate:
		if ch.Message == nil {
			return applied{}, nil
		}
		return s.writeMessage(ctx, ch, n)
	case conversation.ChangeRemove:
		return applied{}, s.removeMessages(ctx, ch, n)
	case conversation.ChangeTitle, conversation.ChangeSystem, conversation.ChangeSettings, conversation.ChangeSwitch:
		// Every change carries the role and the params; a switch carries
		// the active leaf, and nothing else.
		return applied{}, s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
			return s.upsertSession(ctx, tx, ch, sessionRow{model: switchModel(ch), leaf: n.leaf(ch), setLeaf: ch.Kind == conversation.ChangeSwitch})
		})
	case conversation.ChangeExclude:
		if ch.Message == nil {
			return applied{}, nil
		}
		seq, ok := n.seq(ch.Message.ID)
		if !ok {
			return applied{}, nil // its message was never stored: nothing to mark
		}
		return applied{}, s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
			if err := s.upsertSession(ctx, tx, ch, sessionRow{leaf: n.leaf(ch)}); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "UPDATE messages SET excluded = ? WHERE session_id = ? AND seq = ?",
				ch.Message.Excluded, ch.ConversationID, seq)
			return err
		})
	}
	return applied{}, nil
}

// writeMessage inserts an appended message under the store's next
// number, or rewrites a message that ended (a reply, an image turn)
// whole. A message that ended without having been stored is inserted
// then.
func (s *Store) writeMessage(ctx context.Context, ch conversation.Change, n *numbering) (applied, error) {
	m := ch.Message
	withParts, atts, b, err := s.putParts(ch)
	if err != nil {
		return applied{}, err
	}
	if err := s.folder.put(toolBlobs(m.Tools)); err != nil {
		return applied{}, classify(s.path, "save a tool's image", err)
	}
	var (
		candidates []string
		res        applied
		newSeq     int
	)
	err = s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		if ch.Kind == conversation.ChangeAppend && m.Role == api.RoleUser {
			// A message was sent: what the composer held is gone from it.
			var err error
			if candidates, err = clearDraft(ctx, tx, ch.ConversationID); err != nil {
				return err
			}
		}
		// A message stored already is rewritten: the end of a reply, or
		// an append tried again after its images failed to be kept. A new
		// one takes the next number, and an appended one becomes the
		// active leaf in the same write of the session's row: a statement
		// less keeps the write lock shorter for a process waiting on it.
		row := rowOf(ch, n)
		seq, stored := n.seq(m.ID)
		var err error
		if !stored {
			if newSeq, res.others, err = nextSeq(ctx, tx, ch.ConversationID, n); err != nil {
				return err
			}
			if ch.Kind == conversation.ChangeAppend {
				row.leaf, row.setLeaf = newSeq, true
			}
		}
		if err := s.upsertSession(ctx, tx, ch, row); err != nil {
			return err
		}
		var id int64
		if stored {
			id, err = s.finishMessage(ctx, tx, ch.ConversationID, seq, m)
			if errors.Is(err, sql.ErrNoRows) {
				id, newSeq, res.others, err = s.insertNew(ctx, tx, ch, n)
			}
		} else {
			parent, _ := n.seq(m.Parent)
			id, err = s.insertMessage(ctx, tx, ch.ConversationID, newSeq, parent, m)
		}
		if err != nil {
			return err
		}
		if err := indexTools(ctx, tx, id, m); err != nil {
			return err
		}
		if !withParts {
			return nil
		}
		return replaceParts(ctx, tx, id, atts)
	})
	if err != nil {
		return applied{}, err
	}
	if newSeq > 0 {
		n.inserted(m.ID, newSeq)
	}
	if err := s.folder.ensure(b); err != nil {
		return res, classify(s.path, "save an image", err)
	}
	return res, s.collect(ctx, candidates)
}

// putParts stores the blobs of the change's message when its parts are
// written with this change (withParts): a message's parts are written
// once, with a user message, or when an image turn ends with its images.
// atts are the parts as stored (keys redacted) and b their bytes.
func (s *Store) putParts(ch conversation.Change) (withParts bool, atts []api.Attachment, b blobs, err error) {
	m := ch.Message
	// A message's parts are written once: with a user message, or when an
	// image turn ends with its images, or a reply with the images its
	// model made.
	withParts = ch.Kind == conversation.ChangeAppend ||
		ch.Kind == conversation.ChangeUpdate && m.IsImages() && m.State != conversation.StateStreaming ||
		ch.Kind == conversation.ChangeUpdate && m.Role == api.RoleAssistant && m.State != conversation.StateStreaming && len(m.Attachments) > 0
	if !withParts {
		return false, nil, nil, nil
	}
	atts = s.keys.redactParts(m.Attachments)
	b = attachmentBlobs(atts)
	if err := s.folder.put(b); err != nil {
		return false, nil, nil, classify(s.path, "save an image", err)
	}
	return true, atts, b, nil
}

// rowOf is what the change's message says of its session: the model of a
// reply on the active path (the session's model is the chat model, never
// an image model, and the model of the branch a continued session goes on
// from: a compare's other replies, ending after it, must not name theirs),
// the preview, the active leaf.
func rowOf(ch conversation.Change, n *numbering) sessionRow {
	m := ch.Message
	model := ""
	if m.Role == api.RoleAssistant && !ch.OffPath {
		model = m.Model
	}
	return sessionRow{model: model, preview: previewOf(m.Text), leaf: n.leaf(ch)}
}

// switchModel is the model of the reply a switch's path ends at ("" for
// any other change, or a path ending elsewhere): the session's model
// follows the branch it goes on from, as a compare's kept column does.
func switchModel(ch conversation.Change) string {
	if ch.Kind != conversation.ChangeSwitch || len(ch.Path) == 0 {
		return ""
	}
	if last := ch.Path[len(ch.Path)-1]; last.Role == api.RoleAssistant {
		return last.Model
	}
	return ""
}

// replaceParts writes the parts of the message with row id id, in place
// of any it had.
func replaceParts(ctx context.Context, tx *sql.Tx, id int64, atts []api.Attachment) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM parts WHERE message_id = ?", id); err != nil {
		return err
	}
	return insertParts(ctx, tx, "message_id", id, atts)
}

// insertNew inserts ch's message under the session's next number, below
// its parent's number, and makes it the active leaf. It returns the row
// id, the number, and how many messages other processes added since n
// last knew the session. A parent that was never stored (it cannot be:
// changes are written in order) leaves the message opening the
// conversation rather than lost.
func (s *Store) insertNew(ctx context.Context, tx *sql.Tx, ch conversation.Change, n *numbering) (rowID int64, seq, others int, err error) {
	seq, others, err = nextSeq(ctx, tx, ch.ConversationID, n)
	if err != nil {
		return 0, 0, 0, err
	}
	parent, _ := n.seq(ch.Message.Parent)
	rowID, err = s.insertMessage(ctx, tx, ch.ConversationID, seq, parent, ch.Message)
	if err != nil {
		return 0, 0, 0, err
	}
	if ch.Kind == conversation.ChangeAppend {
		_, err = tx.ExecContext(ctx, "UPDATE sessions SET active_leaf = ? WHERE id = ?", seq, ch.ConversationID)
	}
	return rowID, seq, others, err
}

// sessionRow is what a change writes to its session's row besides what
// every change carries: the model and preview when not "", and the active
// leaf (the store's number) when setLeaf is set; a new row always takes
// leaf.
type sessionRow struct {
	model, preview string
	leaf           int
	setLeaf        bool
}

// upsertSession creates the session row on a conversation's first change
// and keeps its title, system prompt, model, preview, active leaf, role,
// params and time current.
func (s *Store) upsertSession(ctx context.Context, tx *sql.Tx, ch conversation.Change, row sessionRow) error {
	if err := refuseDeleted(ctx, tx, ch.ConversationID); err != nil {
		return err
	}
	now := millis(s.now())
	created := now
	if ch.Message != nil && !ch.Message.Created.IsZero() {
		created = min(created, millis(ch.Message.Created))
	}
	titled := 0
	if ch.Kind == conversation.ChangeTitle {
		titled = 1
	}
	params, err := paramsJSON(ch.Params)
	if err != nil {
		return err
	}
	_, err = tx.StmtContext(ctx, s.stmts.upsertSession).ExecContext(ctx,
		ch.ConversationID, s.keys.redact(ch.Title), titled, row.model, s.keys.redact(ch.SystemPrompt), created, now, s.keys.redact(row.preview), row.leaf, ch.Role, params, row.setLeaf)
	return err
}

// paramsJSON is a session's /set parameters as stored: JSON, "" for none.
func paramsJSON(p api.Params) (string, error) {
	if p.IsZero() {
		return "", nil
	}
	b, err := json.Marshal(p)
	return string(b), err
}

// previewBytes bounds the stored preview; a listing shows far less.
const previewBytes = 400

// previewOf is the beginning of a message's text, cut on a character
// boundary.
func previewOf(text string) string {
	if len(text) <= previewBytes {
		return text
	}
	cut := previewBytes
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut]
}

// sqlUpsertSession: a title made from the first message never replaces
// one given by name (here or by another process); ChangeTitle always does.
// The active leaf changes only when ?12 says so (see Store.apply).
const sqlUpsertSession = `
	INSERT INTO sessions (id, title, titled, model, system_prompt, created, updated, preview, active_leaf, role, params)
	VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
	ON CONFLICT (id) DO UPDATE SET
		active_leaf = CASE WHEN ?12 THEN excluded.active_leaf ELSE sessions.active_leaf END,
		role = excluded.role,
		params = excluded.params,
		preview = CASE WHEN excluded.preview <> '' THEN excluded.preview ELSE sessions.preview END,
		title = CASE WHEN excluded.titled = 1 OR sessions.titled = 0 THEN excluded.title ELSE sessions.title END,
		titled = max(sessions.titled, excluded.titled),
		model = CASE WHEN excluded.model <> '' THEN excluded.model ELSE sessions.model END,
		system_prompt = excluded.system_prompt,
		updated = max(sessions.updated, excluded.updated)`

// sqlInsertMessage inserts a message under a number the store gave it
// (?2), marked as written by this schema (messages.writer, see
// schemaNumbered). It has no ON CONFLICT: a number is never given twice,
// and a row is never written over by an insert.
const sqlInsertMessage = `
	INSERT INTO messages (session_id, seq, role, text, state, error, model, finish_reason,
		prompt_tokens, completion_tokens, total_tokens, created, updated, image, parent, excluded,
		reasoning, reasoning_start, reasoning_end, reasoning_tokens, tools, writer)
	VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)
	RETURNING id`

// sqlUpdateMessage rewrites a stored message whole (a reply that ended),
// its reasoning too unless ?22 (kept in its pieces); its number, parent
// (?15) and creation (?12) stay.
const sqlUpdateMessage = `
	UPDATE messages SET role = ?3, text = ?4, state = ?5, error = ?6, model = ?7, finish_reason = ?8,
		prompt_tokens = ?9, completion_tokens = ?10, total_tokens = ?11, updated = ?13, image = ?14, excluded = ?16,
		reasoning = CASE WHEN ?22 THEN reasoning ELSE ?17 END, reasoning_start = ?18, reasoning_end = ?19, reasoning_tokens = ?20, tools = ?21
	WHERE session_id = ?1 AND seq = ?2
	RETURNING id`

// statements are prepared once per store: with the search triggers,
// compiling an upsert costs more than running it, and the recorder runs
// one every second of a reply.
type statements struct {
	upsertSession, insertMessage, updateMessage *sql.Stmt
	// pathWindow and children open a session (see window.go): compiling
	// the recursive query took as long as running it.
	pathWindow, children *sql.Stmt
}

func (st *statements) prepare(ctx context.Context, db *sql.DB) error {
	var err error
	if st.upsertSession, err = db.PrepareContext(ctx, sqlUpsertSession); err != nil {
		return err
	}
	if st.insertMessage, err = db.PrepareContext(ctx, sqlInsertMessage); err != nil {
		return err
	}
	if st.updateMessage, err = db.PrepareContext(ctx, sqlUpdateMessage); err != nil {
		return err
	}
	if st.pathWindow, err = db.PrepareContext(ctx, sqlPathWindow); err != nil {
		return err
	}
	st.children, err = db.PrepareContext(ctx, sqlChildren)
	return err
}

func (st *statements) close() {
	for _, s := range []*sql.Stmt{st.upsertSession, st.insertMessage, st.updateMessage, st.pathWindow, st.children} {
		if s != nil {
			s.Close()
		}
	}
}

// insertMessage inserts m under number seq, after the message numbered
// parent, and returns its row id.
func (s *Store) insertMessage(ctx context.Context, tx *sql.Tx, sessionID string, seq, parent int, m *conversation.Message) (int64, error) {
	args, err := s.messageArgs(sessionID, seq, parent, m)
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.StmtContext(ctx, s.stmts.insertMessage).QueryRowContext(ctx, append(args, numberedBy)...).Scan(&id)
	return id, err
}

// finishMessage writes the end of a stored message (numbered seq): its
// text whole, its reasoning by its last piece when it was saved in pieces
// (see finishReasoning), else whole. It returns the row id
// (sql.ErrNoRows when there is none).
func (s *Store) finishMessage(ctx context.Context, tx *sql.Tx, sessionID string, seq int, m *conversation.Message) (int64, error) {
	if m.Reasoning == "" {
		// No reasoning, so no pieces of it: a statement less.
		rowID, err := s.updateMessage(ctx, tx, sessionID, seq, m, false)
		if err != nil {
			return 0, err
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM message_pieces WHERE message_id = ?", rowID)
		return rowID, err
	}
	var rowID int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM messages WHERE session_id = ? AND seq = ?", sessionID, seq).Scan(&rowID); err != nil {
		return 0, err
	}
	kept, err := s.finishReasoning(ctx, tx, rowID, m)
	if err != nil {
		return 0, err
	}
	if _, err := s.updateMessage(ctx, tx, sessionID, seq, m, kept); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM message_pieces WHERE message_id = ?", rowID); err != nil {
		return 0, err
	}
	if !kept {
		_, err = tx.ExecContext(ctx, "DELETE FROM reasoning_pieces WHERE message_id = ?", rowID)
	}
	return rowID, err
}

// updateMessage rewrites the message numbered seq with m (its reasoning
// too unless keepReasoning) and returns its row id (sql.ErrNoRows when
// there is none).
func (s *Store) updateMessage(ctx context.Context, tx *sql.Tx, sessionID string, seq int, m *conversation.Message, keepReasoning bool) (int64, error) {
	args, err := s.messageArgs(sessionID, seq, 0, m)
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.StmtContext(ctx, s.stmts.updateMessage).QueryRowContext(ctx, append(args, keepReasoning)...).Scan(&id)
	return id, err
}

// messageArgs are the parameters ?1 to ?21 of sqlInsertMessage and
// sqlUpdateMessage.
func (s *Store) messageArgs(sessionID string, seq, parent int, m *conversation.Message) ([]any, error) {
	var pt, ct, tt, rt sql.NullInt64
	if u := m.Usage; u != nil {
		pt = sql.NullInt64{Int64: int64(u.PromptTokens), Valid: true}
		ct = sql.NullInt64{Int64: int64(u.CompletionTokens), Valid: true}
		tt = sql.NullInt64{Int64: int64(u.TotalTokens), Valid: true}
		if d := u.CompletionTokensDetails; d != nil {
			rt = sql.NullInt64{Int64: int64(d.ReasoningTokens), Valid: true}
		}
	}
	now := millis(s.now())
	created := millis(m.Created)
	if created == 0 {
		created = now
	}
	image := ""
	if m.Image != nil {
		b, err := json.Marshal(m.Image)
		if err != nil {
			return nil, err
		}
		image = string(b)
	}
	tools, err := s.toolsJSON(m.Tools)
	if err != nil {
		return nil, err
	}
	return []any{sessionID, seq, m.Role, s.keys.redact(m.Text), m.State.String(), m.Err, m.Model, m.FinishReason,
		pt, ct, tt, created, now, image, parent, m.Role == api.RoleUser && m.Excluded,
		s.keys.redact(m.Reasoning), millis(m.ReasoningStart), millis(m.ReasoningEnd), rt, tools}, nil
}

// insertParts writes attachments as the parts of a message or a draft
// (owner is the column that names it).
func insertParts(ctx context.Context, tx *sql.Tx, owner string, ownerID any, atts []api.Attachment) error {
	if len(atts) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, fmt.Sprintf(`INSERT INTO parts (%s, idx, kind, sha256, mime, width, height, bytes,
		name, url, orig_width, orig_height, orig_bytes, orig_mime, resized)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, owner))
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, a := range atts {
		kind, hash, url, size := "link", "", a.URL, 0
		switch {
		case a.Data != nil:
			// The data URI is rebuilt from the bytes when loaded.
			kind, hash, url, size = "image", HashBytes(a.Data), "", len(a.Data)
		case validHash(a.SHA256):
			// An image whose stored copy is missing (a fork of a message
			// loaded without it) stays what it was.
			kind, hash, url, size = "image", a.SHA256, "", a.Bytes
		}
		resized := 0
		if a.Resized {
			resized = 1
		}
		if _, err := stmt.ExecContext(ctx, ownerID, i, kind, hash, a.MIME, a.Width, a.Height, size,
			a.Name, url, a.OrigWidth, a.OrigHeight, a.OrigBytes, a.OrigMIME, resized); err != nil {
			return err
		}
	}
	return nil
}

// attachmentBlobs lists the bytes of the stored (not linked) attachments.
func attachmentBlobs(atts []api.Attachment) blobs {
	var b blobs
	for _, a := range atts {
		if a.Data == nil {
			continue
		}
		if b == nil {
			b = blobs{}
		}
		b[HashBytes(a.Data)] = a.Data
	}
	return b
}

// removeMessages drops messages (a reply without text made again, an
// image turn tried again) and then the images only they referred to.
func (s *Store) removeMessages(ctx context.Context, ch conversation.Change, n *numbering) error {
	var removed []int
	for _, id := range ch.Removed {
		if seq, ok := n.seq(id); ok {
			removed = append(removed, seq)
		}
	}
	if len(removed) == 0 {
		return nil
	}
	var candidates []string
	err := s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		args := []any{ch.ConversationID}
		marks := make([]string, len(removed))
		for i, id := range removed {
			args = append(args, id)
			marks[i] = "?"
		}
		in := strings.Join(marks, ",")
		var err error
		candidates, err = strings1(ctx, tx, `SELECT DISTINCT p.sha256 FROM parts p JOIN messages m ON m.id = p.message_id
			WHERE m.session_id = ? AND m.seq IN (`+in+`) AND p.sha256 <> ''`, args...)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ? AND seq IN (`+in+`)`, args...); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET updated = max(updated, ?1), active_leaf = ?4,
			preview = coalesce((SELECT substr(text, 1, ?3) FROM messages WHERE session_id = ?2 AND text <> '' ORDER BY seq DESC LIMIT 1), '')
			WHERE id = ?2`, millis(s.now()), ch.ConversationID, previewBytes, n.leaf(ch))
		return err
	})
	if err != nil {
		return err
	}
	return s.collect(ctx, candidates)
}

// strings1 runs a query that returns one text column.
func strings1(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
