package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unicode"

	"parley/api"
	"parley/conversation"
)

// Meta describes a session without its messages.
type Meta struct {
	ID     string
	Title  string
	Titled bool
	// Model is the model of the reply the active branch ends at (the
	// latest reply written on it).
	Model        string
	SystemPrompt string
	Created      time.Time
	Updated      time.Time
	// Messages is how many messages the session holds.
	Messages int
	// Preview is the beginning of the latest message with text, on one
	// line, as plain text (no Markdown syntax).
	Preview string
	// HasDraft: a composer draft is kept with the session.
	HasDraft bool
	// Role and Params are the conversation's role and /set parameters
	// (conversation.Snapshot has them too).
	Role   string
	Params api.Params
	// lastSeq is the largest number a message of the session ever had
	// (sessions.last_seq): the conversation restored from it numbers its
	// next message one past it (Snapshot.NextID).
	lastSeq int
}

// Session is a stored session: its description and its messages (all of
// them, or a window when loaded with LoadTail).
type Session struct {
	Meta
	Snapshot conversation.Snapshot
}

// previewRunes bounds Meta.Preview.
const previewRunes = 100

const metaColumns = `s.id, s.title, s.titled, s.model, s.system_prompt, s.created, s.updated, s.message_count, s.has_draft, s.preview, s.role, s.params, s.last_seq`

// listed is the condition for a session to be listed: it has messages or
// a draft (a conversation that was only named or given a system prompt is
// not worth listing).
const listed = `(s.message_count > 0 OR s.has_draft = 1)`

func scanMeta(sc interface{ Scan(...any) error }) (Meta, error) {
	var m Meta
	var created, updated int64
	var preview, params string
	err := sc.Scan(&m.ID, &m.Title, &m.Titled, &m.Model, &m.SystemPrompt, &created, &updated, &m.Messages, &m.HasDraft, &preview, &m.Role, &params, &m.lastSeq)
	m.Created, m.Updated = fromMillis(created), fromMillis(updated)
	m.Preview = oneLine(plainPreview(preview), previewRunes)
	m.Params = parseParams(params)
	return m, err
}

// parseParams reads stored /set parameters. Each value is checked again
// by api.ParamFrom, as the config's are: what a damaged row or a later
// parley wrote that this one does not take is left out, not sent.
func parseParams(stored string) api.Params {
	var raw map[string]any
	dec := json.NewDecoder(strings.NewReader(stored))
	dec.UseNumber() // a seed past 2^53 stays exact
	if stored == "" || dec.Decode(&raw) != nil {
		return api.Params{}
	}
	var p api.Params
	for name, v := range raw {
		if one, err := api.ParamFrom(name, v); err == nil {
			p = p.With(one)
		}
	}
	return p
}

// List returns sessions newest first (by their last change), skipping
// offset and returning at most limit (limit <= 0: all).
func (s *Store) List(ctx context.Context, limit, offset int) ([]Meta, error) {
	if err := s.Opened(ctx); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM sessions s WHERE `+listed+`
		ORDER BY s.updated DESC, s.id DESC LIMIT ? OFFSET ?`, limit, max(offset, 0))
	if err != nil {
		return nil, classify(s.path, "list the sessions", err)
	}
	defer rows.Close()
	var out []Meta
	for rows.Next() {
		m, err := scanMeta(rows)
		if err != nil {
			return nil, classify(s.path, "list the sessions", err)
		}
		out = append(out, m)
	}
	return out, classify(s.path, "list the sessions", rows.Err())
}

// Count returns how many sessions List would return in all.
func (s *Store) Count(ctx context.Context) (int, error) {
	if err := s.Opened(ctx); err != nil {
		return 0, err
	}
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sessions s WHERE `+listed).Scan(&n)
	return n, classify(s.path, "count the sessions", err)
}

// Latest returns the most recently changed session; ErrNotFound when there
// is none.
func (s *Store) Latest(ctx context.Context) (Meta, error) {
	if err := s.Opened(ctx); err != nil {
		return Meta{}, err
	}
	m, err := scanMeta(s.db.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM sessions s WHERE `+listed+`
		ORDER BY s.updated DESC, s.id DESC LIMIT 1`))
	if errors.Is(err, sql.ErrNoRows) {
		return Meta{}, notFound("there is no saved session yet")
	}
	return m, classify(s.path, "find the latest session", err)
}

// Get returns the description of one session.
func (s *Store) Get(ctx context.Context, id string) (Meta, error) {
	if err := s.Opened(ctx); err != nil {
		return Meta{}, err
	}
	m, err := scanMeta(s.db.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM sessions s WHERE s.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Meta{}, notFound("there is no session %s; see \"parley sessions list\"", id)
	}
	return m, classify(s.path, "read a session", err)
}

// Resolve turns a unique prefix of a session id into the whole id.
func (s *Store) Resolve(ctx context.Context, prefix string) (string, error) {
	if err := s.Opened(ctx); err != nil {
		return "", err
	}
	p := strings.ToLower(strings.TrimSpace(prefix))
	if p == "" || strings.Trim(p, "0123456789abcdef") != "" {
		return "", notFound("%q is not a session id: ids are hexadecimal, as \"parley sessions list\" shows them", prefix)
	}
	// Ids are lower-case hex, so every id starting with p sorts in
	// [p, p+"g").
	rows, err := s.db.QueryContext(ctx, `SELECT id, title FROM sessions WHERE id >= ? AND id < ? ORDER BY id LIMIT ?`, p, p+"g", maxCandidates+1)
	if err != nil {
		return "", classify(s.path, "find a session", err)
	}
	var ids, titles []string
	for rows.Next() {
		var id, title string
		if err := rows.Scan(&id, &title); err != nil {
			rows.Close()
			return "", classify(s.path, "find a session", err)
		}
		ids, titles = append(ids, id), append(titles, title)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", classify(s.path, "find a session", err)
	}
	switch {
	case len(ids) == 0:
		return "", notFound("no session id starts with %q; see \"parley sessions list\"", p)
	case len(ids) > 1 && ids[0] != p:
		return "", s.ambiguous(ctx, p, ids, titles)
	}
	return ids[0], nil
}

// maxCandidates is how many sessions an ambiguous prefix names.
const maxCandidates = 8

// ambiguous lists the sessions a prefix matches, each by as much of its
// id as tells it from the others and its title, so the user can pick one.
func (s *Store) ambiguous(ctx context.Context, p string, ids, titles []string) error {
	more := ""
	if len(ids) > maxCandidates {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id >= ? AND id < ?`, p, p+"g").Scan(&n); err == nil {
			more = fmt.Sprintf(" and %d more", n-maxCandidates)
		}
		ids, titles = ids[:maxCandidates], titles[:maxCandidates]
	}
	n := distinctPrefix(ids)
	list := make([]string, len(ids))
	for i, id := range ids {
		t := oneLine(titles[i], 40)
		if t == "" {
			t = "(untitled)"
		}
		list[i] = fmt.Sprintf("%s (%s)", id[:min(n, len(id))], t)
	}
	return &lookupError{msg: fmt.Sprintf("%q matches several sessions: %s%s; give more of the id", p, strings.Join(list, ", "), more), kind: ErrAmbiguous}
}

// distinctPrefix is the shortest length (at least 12) at which the ids
// all differ.
func distinctPrefix(ids []string) int {
	n := 12
	for {
		seen := map[string]bool{}
		unique := true
		for _, id := range ids {
			k := id[:min(n, len(id))]
			if seen[k] {
				unique = false
				break
			}
			seen[k] = true
		}
		if unique || n >= 32 {
			return n
		}
		n++
	}
}

// Load returns a session with every message of its tree (every branch)
// and its active leaf; Snapshot.Path() is the active path, which
// conversation.Restore shows. A reply stored while it was streaming comes
// back interrupted: its process ended mid-reply (or is still streaming
// it, which a reader cannot tell apart). Every message carries its
// AltIndex and AltCount.
func (s *Store) Load(ctx context.Context, id string) (Session, error) {
	if err := s.Opened(ctx); err != nil {
		return Session{}, err
	}
	meta, err := s.Get(ctx, id)
	if err != nil {
		return Session{}, err
	}
	leaf, err := s.activeLeaf(ctx, id)
	if err != nil {
		return Session{}, err
	}
	msgs, err := s.read.messages(ctx, meta.Messages, `SELECT `+messageColumns+` FROM messages WHERE session_id = ?1 ORDER BY seq`, id)
	if err != nil {
		return Session{}, err
	}
	countAlternatives(msgs)
	return newSession(meta, msgs, leaf, false), nil
}

// LoadRange returns the messages of a session with from <= id < to, in
// order of id and of every branch (to <= 0: to the end).
func (s *Store) LoadRange(ctx context.Context, id string, from, to int) ([]conversation.Message, error) {
	if err := s.Opened(ctx); err != nil {
		return nil, err
	}
	if to <= 0 {
		to = int(^uint32(0) >> 1)
	}
	return s.read.messages(ctx, 0, `SELECT `+messageColumns+` FROM messages WHERE session_id = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq`, id, from, to)
}

func newSession(meta Meta, msgs []conversation.Message, leaf int, partial bool) Session {
	snap := meta.snapshot(msgs)
	snap.Leaf, snap.Partial = leaf, partial
	return Session{Meta: meta, Snapshot: snap}
}

// snapshot is the conversation of a session with the given messages.
func (m Meta) snapshot(msgs []conversation.Message) conversation.Snapshot {
	return conversation.Snapshot{
		Title: m.Title, Titled: m.Titled, SystemPrompt: m.SystemPrompt, Role: m.Role, Params: m.Params, Messages: msgs, NextID: m.lastSeq + 1,
	}
}

// messageReader reads stored messages with their parts, and the bytes of
// their images and text files from the blob folder.
type messageReader struct {
	db     *sql.DB
	path   string
	folder blobFolder
}

// messageColumns are read from messages (unaliased); a streaming reply's
// text and reasoning come with their pieces.
const messageColumns = `id, seq, role, ` + textSoFar + ` AS text, state, error, model, finish_reason, prompt_tokens, completion_tokens, total_tokens, created, image, parent, excluded,
	` + reasoningSoFar + ` AS reasoning, reasoning_start, reasoning_end, reasoning_tokens, tools`

// messages runs a query over messageColumns and attaches each message's
// parts, images with their bytes. expect is how many rows the query
// should return (0: not known), so the messages are read into one slice
// of their size: growing it row by row allocated five times its size
// (10,000 messages: 13 MB for a slice of 2.6 MB).
func (r messageReader) messages(ctx context.Context, expect int, query string, args ...any) ([]conversation.Message, error) {
	msgs, _, err := r.messagesWith(ctx, true, expect, query, args...)
	return msgs, err
}

// messagesWith is messages, with or without the images' bytes, and with
// the hash of each image (by message index and part index; "" for links).
func (r messageReader) messagesWith(ctx context.Context, data bool, expect int, query string, args ...any) ([]conversation.Message, [][]string, error) {
	rows, err := r.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, classify(r.path, "read the messages", err)
	}
	return r.readMessages(ctx, rows, data, expect)
}

// maxExpected bounds the rows a query is expected to return: the count
// comes from the database, and a damaged one must not allocate much.
const maxExpected = 1 << 16

// readMessages reads rows of messageColumns (about expect of them) and
// attaches each message's parts, images with their bytes when data is
// set.
func (r messageReader) readMessages(ctx context.Context, rows *sql.Rows, data bool, expect int) ([]conversation.Message, [][]string, error) {
	const op = "read the messages"
	expect = min(max(expect, 0), maxExpected)
	msgs := make([]conversation.Message, 0, expect)
	rowIDs := make([]int64, 0, expect)
	var in interner
	var tools string
	for rows.Next() {
		msgs = append(msgs, conversation.Message{})
		rowID, err := scanMessage(rows, &msgs[len(msgs)-1], &in, &tools)
		if err != nil {
			rows.Close()
			return nil, nil, classify(r.path, op, err)
		}
		r.folder.readTools(tools, &msgs[len(msgs)-1], data)
		rowIDs = append(rowIDs, rowID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, classify(r.path, op, err)
	}
	if len(msgs) < cap(msgs)/2 {
		// Far fewer rows than the count said: keep no unused room.
		msgs = slices.Clip(slices.Clone(msgs))
	}
	if len(rowIDs) == 0 {
		return msgs, nil, nil
	}
	// One query for the parts of the whole window, not one per message.
	byRow, err := r.partsOf(ctx, data, rowIDs)
	if err != nil {
		return nil, nil, err
	}
	hashes := make([][]string, len(msgs))
	for i, rid := range rowIDs {
		for _, p := range byRow[rid] {
			msgs[i].Attachments = append(msgs[i].Attachments, p.att)
			hashes[i] = append(hashes[i], p.hash)
		}
	}
	return msgs, hashes, nil
}

// scanMessage reads one row of messageColumns into m, which it fills in
// place (a message returned by value would be allocated for every row),
// and returns the row's id. The short strings that repeat from row to
// row (role, model, finish reason) are shared through in.
func scanMessage(rows *sql.Rows, m *conversation.Message, in *interner, tools *string) (rowID int64, err error) {
	var created, rstart, rend int64
	var state, image string
	var pt, ct, tt, rt sql.NullInt64
	if err := rows.Scan(&rowID, &m.ID, &m.Role, &m.Text, &state, &m.Err, &m.Model, &m.FinishReason, &pt, &ct, &tt, &created, &image, &m.Parent, &m.Excluded,
		&m.Reasoning, &rstart, &rend, &rt, tools); err != nil {
		return 0, err
	}
	m.Role, m.Model, m.FinishReason = in.of(m.Role), in.of(m.Model), in.of(m.FinishReason)
	if image != "" {
		var turn conversation.ImageTurn
		if err := json.Unmarshal([]byte(image), &turn); err == nil {
			m.Image = &turn
		}
	}
	if m.Role == conversation.RoleImages && m.Image == nil {
		m.Image = &conversation.ImageTurn{}
	}
	m.State = parseState(state)
	if m.State == conversation.StateStreaming {
		m.State = conversation.StateInterrupted
	}
	if tt.Valid {
		m.Usage = &api.Usage{PromptTokens: int(pt.Int64), CompletionTokens: int(ct.Int64), TotalTokens: int(tt.Int64)}
		if rt.Valid {
			m.Usage.CompletionTokensDetails = &api.TokensDetails{ReasoningTokens: int(rt.Int64)}
		}
	}
	m.ReasoningStart, m.ReasoningEnd = fromMillis(rstart), fromMillis(rend)
	m.Created = fromMillis(created)
	m.Version = 1
	return rowID, nil
}

// interner shares equal short strings: a long session repeats a few
// roles and model names thousands of times, each row's a string of its
// own as the driver reads it.
type interner map[string]string

// Bounds of an interner: only short strings, and a few of them.
const (
	internMaxLen   = 64
	internMaxCount = 64
)

// of returns the string equal to s that was kept first, keeping s when
// there is room.
func (in *interner) of(s string) string {
	if s == "" || len(s) > internMaxLen {
		return s
	}
	if kept, ok := (*in)[s]; ok {
		return kept
	}
	if *in == nil {
		*in = interner{}
	}
	if len(*in) < internMaxCount {
		(*in)[s] = s
	}
	return s
}

// partsOf reads the attachments of the messages with the given row ids,
// by row id. A short list (a window of a path, whose rows are far apart
// when other branches lie between) is looked up row by row; a long one
// (a whole session) as the range of row ids it spans, and the rows of
// other sessions or branches in between are read too and ignored by the
// caller (they are few).
func (r messageReader) partsOf(ctx context.Context, data bool, rowIDs []int64) (map[int64][]storedPart, error) {
	out := map[int64][]storedPart{}
	add := func(owner int64, p storedPart) { out[owner] = append(out[owner], p) }
	if len(rowIDs) <= maxListedRows {
		args := make([]any, len(rowIDs))
		for i, id := range rowIDs {
			args[i] = id
		}
		marks := strings.TrimSuffix(strings.Repeat("?,", len(rowIDs)), ",")
		return out, r.scanParts(ctx, data, add, `message_id IN (`+marks+`) ORDER BY message_id, idx`, args...)
	}
	lo, hi := slices.Min(rowIDs), slices.Max(rowIDs)
	return out, r.scanParts(ctx, data, add, `message_id BETWEEN ? AND ? ORDER BY message_id, idx`, lo, hi)
}

// maxListedRows is the longest list of row ids partsOf looks up one by
// one (SQLite takes 32766 parameters).
const maxListedRows = 500

// storedPart is an attachment as stored, with the hash of its bytes.
type storedPart struct {
	att  api.Attachment
	hash string
}

// draftParts reads the attachments of a draft.
func (r messageReader) draftParts(ctx context.Context, sessionID string) ([]api.Attachment, error) {
	var atts []api.Attachment
	err := r.scanParts(ctx, true, func(_ int64, p storedPart) { atts = append(atts, p.att) },
		`draft_of = ? ORDER BY idx`, sessionID)
	return atts, err
}

// scanParts reads the parts matching where, images with their bytes when
// data is set. An image whose blob is missing comes back without Data and
// URL, so its message still opens and says what was there.
func (r messageReader) scanParts(ctx context.Context, data bool, each func(owner int64, p storedPart), where string, args ...any) error {
	const op = "read the images"
	rows, err := r.db.QueryContext(ctx, `SELECT coalesce(message_id, 0), kind, sha256, mime, width, height, bytes, name, url,
		orig_width, orig_height, orig_bytes, orig_mime, resized FROM parts WHERE `+where, args...)
	if err != nil {
		return classify(r.path, op, err)
	}
	defer rows.Close()
	for rows.Next() {
		var a api.Attachment
		var owner int64
		var kind, hash string
		if err := rows.Scan(&owner, &kind, &hash, &a.MIME, &a.Width, &a.Height, &a.Bytes, &a.Name, &a.URL,
			&a.OrigWidth, &a.OrigHeight, &a.OrigBytes, &a.OrigMIME, &a.Resized); err != nil {
			return classify(r.path, op, err)
		}
		if kind == "image" {
			// The attachment's identity, as when it was attached: the chat
			// finds its picture and its bytes by it.
			a.SHA256 = hash
			if a.MIME == api.TextMIME {
				a.Kind = api.KindText // a text file's bytes are stored like an image's
			}
		}
		if kind == "image" && data {
			b, err := r.folder.readBlob(hash)
			switch {
			case err == nil && a.IsText():
				a.Data, a.Lines = b, api.CountLines(b)
			case err == nil:
				a.Data = b
			case errors.Is(err, fs.ErrNotExist):
			default:
				return classify(r.path, op, err)
			}
		}
		each(owner, storedPart{att: a, hash: hash})
	}
	return classify(r.path, op, rows.Err())
}

func parseState(s string) conversation.State {
	switch s {
	case "streaming":
		return conversation.StateStreaming
	case "interrupted":
		return conversation.StateInterrupted
	case "failed":
		return conversation.StateFailed
	}
	return conversation.StateDone
}

// oneLine collapses whitespace and cuts s to at most n runes (the last
// one "…" when cut). One pass that stops at the cut: a listing calls it
// for every session.
func oneLine(s string, n int) string {
	var b strings.Builder
	b.Grow(min(len(s), 4*n+4))
	count := 0
	pending := false // a run of whitespace since the last word
	for _, r := range s {
		if unicode.IsSpace(r) {
			pending = count > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			count++
			pending = false
		}
		b.WriteRune(r)
		count++
		if count > n {
			rs := []rune(b.String())
			return strings.TrimRight(string(rs[:n-1]), " ") + "…"
		}
	}
	return b.String()
}
