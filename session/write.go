package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"parley/api"
	"parley/conversation"
)

// apply writes one conversation change in its own short transaction.
// Image bytes are stored before the rows that refer to them.
func (s *Store) apply(ctx context.Context, ch conversation.Change) error {
	switch ch.Kind {
	case conversation.ChangeProgress:
		if ch.Message == nil {
			return nil
		}
		return s.writeProgress(ctx, ch)
	case conversation.ChangeAppend, conversation.ChangeUpdate:
		if ch.Message == nil {
			return nil
		}
		return s.writeMessage(ctx, ch)
	case conversation.ChangeRemove:
		return s.removeMessages(ctx, ch)
	case conversation.ChangeTitle, conversation.ChangeSystem, conversation.ChangeSettings, conversation.ChangeSwitch:
		// Every change carries the active leaf, the role and the params; a
		// switch carries nothing else.
		return s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
			return s.upsertSession(ctx, tx, ch, "", "")
		})
	case conversation.ChangeExclude:
		if ch.Message == nil {
			return nil
		}
		return s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
			if err := s.upsertSession(ctx, tx, ch, "", ""); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "UPDATE messages SET excluded = ? WHERE session_id = ? AND seq = ?",
				ch.Message.Excluded, ch.ConversationID, ch.Message.ID)
			return err
		})
	}
	return nil
}

func (s *Store) writeMessage(ctx context.Context, ch conversation.Change) error {
	m := ch.Message
	// A message's parts are written once: with a user message, or when an
	// image turn ends with its images.
	withParts := ch.Kind == conversation.ChangeAppend ||
		ch.Kind == conversation.ChangeUpdate && m.IsImages() && m.State != conversation.StateStreaming
	var b blobs
	var atts []api.Attachment
	if withParts {
		atts = s.redactParts(m.Attachments)
		b = attachmentBlobs(atts)
		if err := s.put(b); err != nil {
			return classify(s.path, "save an image", err)
		}
	}
	var candidates []string
	err := s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		model := ""
		if m.Role == api.RoleAssistant {
			// The session's model is the chat model, never an image model.
			model = m.Model
		}
		if ch.Kind == conversation.ChangeAppend && m.Role == api.RoleUser {
			// A message was sent: what the composer held is gone from it.
			var err error
			if candidates, err = clearDraft(ctx, tx, ch.ConversationID); err != nil {
				return err
			}
		}
		if err := s.upsertSession(ctx, tx, ch, model, previewOf(m.Text)); err != nil {
			return err
		}
		id, err := s.upsertMessage(ctx, tx, ch.ConversationID, m)
		if err != nil {
			return err
		}
		if err := dropPieces(ctx, tx, id); err != nil {
			return err
		}
		if !withParts {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM parts WHERE message_id = ?", id); err != nil {
			return err
		}
		return insertParts(ctx, tx, "message_id", id, atts)
	})
	if err != nil {
		return err
	}
	if err := s.ensure(b); err != nil {
		return classify(s.path, "save an image", err)
	}
	return s.collect(ctx, candidates)
}

// upsertSession creates the session row on a conversation's first change
// and keeps its title, system prompt, model, preview (when not ""), active
// leaf, role, params and time current.
func (s *Store) upsertSession(ctx context.Context, tx *sql.Tx, ch conversation.Change, model, preview string) error {
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
		ch.ConversationID, s.redact(ch.Title), titled, model, s.redact(ch.SystemPrompt), created, now, s.redact(preview), ch.Leaf, ch.Role, params)
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
const sqlUpsertSession = `
	INSERT INTO sessions (id, title, titled, model, system_prompt, created, updated, preview, active_leaf, role, params)
	VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
	ON CONFLICT (id) DO UPDATE SET
		active_leaf = excluded.active_leaf,
		role = excluded.role,
		params = excluded.params,
		preview = CASE WHEN excluded.preview <> '' THEN excluded.preview ELSE sessions.preview END,
		title = CASE WHEN excluded.titled = 1 OR sessions.titled = 0 THEN excluded.title ELSE sessions.title END,
		titled = max(sessions.titled, excluded.titled),
		model = CASE WHEN excluded.model <> '' THEN excluded.model ELSE sessions.model END,
		system_prompt = excluded.system_prompt,
		updated = max(sessions.updated, excluded.updated)`

// sqlUpsertMessage: excluded is the user message's own mark (a reply
// shows its turn's); excluded.x is the row that was to be inserted.
const sqlUpsertMessage = `
	INSERT INTO messages (session_id, seq, role, text, state, error, model, finish_reason,
		prompt_tokens, completion_tokens, total_tokens, created, updated, image, parent, excluded,
		reasoning, reasoning_start, reasoning_end, reasoning_tokens)
	VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
	ON CONFLICT (session_id, seq) DO UPDATE SET
		parent = excluded.parent, excluded = excluded.excluded,
		text = excluded.text, state = excluded.state, error = excluded.error, image = excluded.image,
		model = excluded.model, finish_reason = excluded.finish_reason,
		prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
		total_tokens = excluded.total_tokens, updated = excluded.updated,
		reasoning = excluded.reasoning, reasoning_start = excluded.reasoning_start,
		reasoning_end = excluded.reasoning_end, reasoning_tokens = excluded.reasoning_tokens
	RETURNING id`

// statements are prepared once per store: with the search triggers,
// compiling an upsert costs more than running it, and the recorder runs
// one every second of a reply.
type statements struct {
	upsertSession, upsertMessage *sql.Stmt
	// pathWindow and children open a session (see window.go): compiling
	// the recursive query took as long as running it.
	pathWindow, children *sql.Stmt
}

func (st *statements) prepare(ctx context.Context, db *sql.DB) error {
	var err error
	if st.upsertSession, err = db.PrepareContext(ctx, sqlUpsertSession); err != nil {
		return err
	}
	if st.upsertMessage, err = db.PrepareContext(ctx, sqlUpsertMessage); err != nil {
		return err
	}
	if st.pathWindow, err = db.PrepareContext(ctx, sqlPathWindow); err != nil {
		return err
	}
	st.children, err = db.PrepareContext(ctx, sqlChildren)
	return err
}

func (st *statements) close() {
	for _, s := range []*sql.Stmt{st.upsertSession, st.upsertMessage, st.pathWindow, st.children} {
		if s != nil {
			s.Close()
		}
	}
}

// upsertMessage writes the whole message (the final state rewrites the
// row in place) and returns its row id.
func (s *Store) upsertMessage(ctx context.Context, tx *sql.Tx, sessionID string, m *conversation.Message) (int64, error) {
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
			return 0, err
		}
		image = string(b)
	}
	var id int64
	err := tx.StmtContext(ctx, s.stmts.upsertMessage).QueryRowContext(ctx,
		sessionID, m.ID, m.Role, s.redact(m.Text), m.State.String(), m.Err, m.Model, m.FinishReason,
		pt, ct, tt, created, now, image, m.Parent, m.Role == api.RoleUser && m.Excluded,
		s.redact(m.Reasoning), millis(m.ReasoningStart), millis(m.ReasoningEnd), rt).Scan(&id)
	return id, err
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
func (s *Store) removeMessages(ctx context.Context, ch conversation.Change) error {
	if len(ch.Removed) == 0 {
		return nil
	}
	var candidates []string
	err := s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		args := []any{ch.ConversationID}
		marks := make([]string, len(ch.Removed))
		for i, id := range ch.Removed {
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
			WHERE id = ?2`, millis(s.now()), ch.ConversationID, previewBytes, ch.Leaf)
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
