package session

import (
	"context"
	"database/sql"
	"fmt"
)

// applicationID marks a parley database ("prly"), so parley never migrates
// another program's SQLite file that happens to sit at its path.
const applicationID = 0x70726c79

// migration is one step of the schema: it brings a database at version-1
// to version.
type migration struct {
	version int
	sql     string
}

// migrations returns the schema's history, oldest first. A released step is
// never edited: a change is a new step, and a fixture database of every
// released version lives in testdata so the way up from it stays tested.
func migrations() []migration {
	return []migration{{version: 1, sql: schemaV1}, {version: 2, sql: schemaV2}, {version: 3, sql: schemaV3}, {version: 4, sql: schemaTree}, {version: 5, sql: schemaV5}, {version: 6, sql: schemaNumbered}, {version: 7, sql: schemaTools}, {version: 8, sql: schemaSearchCap}}
}

// SchemaVersion is the schema this build writes.
func SchemaVersion() int {
	m := migrations()
	return m[len(m)-1].version
}

// numberedBy is the first schema whose parley lets the store number
// messages; messages.writer holds it for every row this parley inserts.
const numberedBy = 6

// schemaTools keeps the tool calls of a reply (conversation.ToolStep as
// JSON in messages.tools, empty for none; the images of results are blobs
// like attachments, named by their SHA-256 in the JSON) and makes them
// searchable: tools_fts indexes each reply's calls (names, arguments,
// results) under the message's row id, written by the store with the
// message (contentless: the JSON is the content), and a deleted message
// takes its entry along. Older parleys are refused the file as too new;
// one still running when the file was migrated writes no tools, and its
// inserts are numbered as before (messages_numbered still holds).
const schemaTools = `
ALTER TABLE messages ADD COLUMN tools TEXT NOT NULL DEFAULT '';
CREATE VIRTUAL TABLE tools_fts USING fts5 (
	body,
	content = '',
	contentless_delete = 1,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
CREATE TRIGGER messages_tools_delete AFTER DELETE ON messages WHEN old.tools <> '' BEGIN
	DELETE FROM tools_fts WHERE rowid = old.id;
END;
`

// schemaNumbered makes the store give messages their numbers (seq), so
// two processes appending to one session (a chat and an ask --session,
// two asks) never take the same one. Before it each process numbered
// its conversation's messages itself and wrote them with an upsert on
// (session_id, seq): the second of two writers overwrote the first's
// turn.
//
// sessions.last_seq is the largest seq the session ever had (kept by the
// insert trigger, so rows written with their own numbers, a fork, a
// session written back, count too); a new message takes last_seq + 1
// inside the write transaction, so a number is never given twice, even
// after its message was removed.
//
// messages.writer is the schema version of the parley that inserted the
// row (0: older than this one). A parley older than this one still
// running when the database was migrated numbers messages itself and
// upserts them: messages_numbered refuses its inserts (and so its
// upserts, whose insert comes first), with a message saying to restart
// it, rather than letting it overwrite another process's message or
// write a message without its parent.
//
// reasoning_pieces holds a streaming reply's reasoning as it arrives, as
// message_pieces holds its text: each progress write appends what came
// since the last one (rewriting the whole reasoning at every save wrote
// 178 MB for 6.1 MB of reasoning). A reply's reasoning is
// messages.reasoning followed by its pieces in order of start, while it
// streams and after: the write that ends it adds the last piece rather
// than writing it all again (see reasoning_pieces.go).
const schemaNumbered = `
ALTER TABLE sessions ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET last_seq = coalesce((SELECT max(seq) FROM messages WHERE session_id = sessions.id), 0);
ALTER TABLE messages ADD COLUMN writer INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER messages_insert;
CREATE TRIGGER messages_insert AFTER INSERT ON messages BEGIN
	UPDATE sessions SET message_count = message_count + 1, last_seq = max(last_seq, new.seq) WHERE id = new.session_id;
	INSERT INTO messages_fts (rowid, text) SELECT new.id, new.text WHERE new.state <> 'streaming';
END;
CREATE TRIGGER messages_numbered BEFORE INSERT ON messages WHEN new.writer < 6 BEGIN
	SELECT RAISE(ABORT, 'this history database was upgraded by a newer parley while this one was running; quit this parley and start it again to go on saving');
END;
CREATE TABLE reasoning_pieces (
	id         INTEGER PRIMARY KEY,
	message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
	start      INTEGER NOT NULL,
	"end"      INTEGER NOT NULL,
	text       TEXT NOT NULL
);
CREATE INDEX reasoning_pieces_by_message ON reasoning_pieces (message_id, start);
`

// schemaV5 adds reasoning and a session's settings.
//
// messages.reasoning is a reply's thinking apart from its text (not
// indexed for search: search finds what was said), with the times of its
// first and last delta (Unix milliseconds, 0 without reasoning) and
// usage.completion_tokens_details.reasoning_tokens (NULL: not reported).
// A streaming reply's reasoning was written whole by its progress writes
// while it grew; schemaNumbered gives it pieces.
//
// sessions.role and sessions.params are the conversation's role and /set
// parameters (api.Params as JSON, empty for none), so a reopened session
// has them again.
//
// Text files are parts like images: kind 'image' means bytes stored by
// SHA-256 (as against 'link'), and a text file is told by its mime,
// api.TextMIME.
const schemaV5 = `
ALTER TABLE messages ADD COLUMN reasoning TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN reasoning_start INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN reasoning_end INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER;
ALTER TABLE sessions ADD COLUMN role TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN params TEXT NOT NULL DEFAULT '';
`

// schemaTree makes a session's messages a tree (conversation.Message's
// Parent): messages.parent is the seq of the message a message follows,
// 0 for one that opens the conversation; messages with one parent are
// alternatives of each other. sessions.active_leaf is the seq of the
// active path's last message (0: none known, read as the newest).
// messages.excluded marks a user message whose turn is left out of what
// the model sees. Every stored session was a line: each message follows
// the one before it, and the active leaf is the last.
const schemaTree = `
ALTER TABLE messages ADD COLUMN parent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN excluded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN active_leaf INTEGER NOT NULL DEFAULT 0;
UPDATE messages SET parent = coalesce((SELECT max(p.seq) FROM messages p
	WHERE p.session_id = messages.session_id AND p.seq < messages.seq), 0);
UPDATE sessions SET active_leaf = coalesce((SELECT max(seq) FROM messages WHERE session_id = sessions.id), 0);
CREATE INDEX messages_by_parent ON messages (session_id, parent, seq);
`

// schemaV3 adds two tables.
//
// message_pieces holds a streaming reply's text as it arrives: each
// progress write (about once a second) appends the piece that came since
// the last one, instead of rewriting the whole text, which made a long
// reply cost its length times the number of saves (a 100 MiB reply wrote
// about 1 GB in ten seconds). While a reply streams, its text is
// messages.text followed by its pieces in order of start (a byte offset);
// the write that ends it puts the whole text in messages.text, once, and
// drops the pieces.
//
// deleted_sessions remembers the sessions deleted on purpose (sessions
// rm, the browser) for a while, so that a chat still recording one of
// them elsewhere does not bring it back with only its later messages: the
// deletion wins.
const schemaV3 = `
CREATE TABLE message_pieces (
	id         INTEGER PRIMARY KEY,
	message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
	start      INTEGER NOT NULL,
	"end"      INTEGER NOT NULL,
	text       TEXT NOT NULL
);
CREATE INDEX pieces_by_message ON message_pieces (message_id, start);

CREATE TABLE deleted_sessions (
	id      TEXT PRIMARY KEY,
	deleted INTEGER NOT NULL
);
`

// schemaV2 adds image turns (images made in the chat): messages.image is
// how they were asked for, as JSON (conversation.ImageTurn), "" for other
// messages. Their images are the message's parts, as for user messages.
const schemaV2 = `ALTER TABLE messages ADD COLUMN image TEXT NOT NULL DEFAULT '';`

// schemaV1: times are Unix milliseconds. Message text lives in messages
// (one text per message); parts are a message's (or a draft's) images in
// order, stored bytes by SHA-256 or links the gateway fetches itself.
// sessions.preview is the beginning of the latest message with text, kept
// by the writes so a listing reads one row per session.
//
// The search index follows messages through triggers, except a reply
// while it streams: its text is rewritten every second, and indexing each
// version would cost more than the rest of the write. It is indexed when
// it ends (or, if its process died, when a later open marks it
// interrupted; see recoverStale).
const schemaV1 = `
CREATE TABLE sessions (
	id            TEXT PRIMARY KEY,
	title         TEXT NOT NULL DEFAULT '',
	titled        INTEGER NOT NULL DEFAULT 0,
	model         TEXT NOT NULL DEFAULT '',
	system_prompt TEXT NOT NULL DEFAULT '',
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	message_count INTEGER NOT NULL DEFAULT 0,
	preview       TEXT NOT NULL DEFAULT '',
	draft         TEXT NOT NULL DEFAULT '',
	has_draft     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_updated ON sessions (updated DESC, id DESC);

CREATE TABLE messages (
	id                INTEGER PRIMARY KEY,
	session_id        TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq               INTEGER NOT NULL,
	role              TEXT NOT NULL,
	text              TEXT NOT NULL DEFAULT '',
	state             TEXT NOT NULL DEFAULT 'done',
	error             TEXT NOT NULL DEFAULT '',
	model             TEXT NOT NULL DEFAULT '',
	finish_reason     TEXT NOT NULL DEFAULT '',
	prompt_tokens     INTEGER,
	completion_tokens INTEGER,
	total_tokens      INTEGER,
	created           INTEGER NOT NULL,
	updated           INTEGER NOT NULL,
	UNIQUE (session_id, seq)
);

CREATE TABLE parts (
	id          INTEGER PRIMARY KEY,
	message_id  INTEGER REFERENCES messages (id) ON DELETE CASCADE,
	draft_of    TEXT REFERENCES sessions (id) ON DELETE CASCADE,
	idx         INTEGER NOT NULL,
	kind        TEXT NOT NULL CHECK (kind IN ('image', 'link')),
	sha256      TEXT NOT NULL DEFAULT '',
	mime        TEXT NOT NULL DEFAULT '',
	width       INTEGER NOT NULL DEFAULT 0,
	height      INTEGER NOT NULL DEFAULT 0,
	bytes       INTEGER NOT NULL DEFAULT 0,
	name        TEXT NOT NULL DEFAULT '',
	url         TEXT NOT NULL DEFAULT '',
	orig_width  INTEGER NOT NULL DEFAULT 0,
	orig_height INTEGER NOT NULL DEFAULT 0,
	orig_bytes  INTEGER NOT NULL DEFAULT 0,
	orig_mime   TEXT NOT NULL DEFAULT '',
	resized     INTEGER NOT NULL DEFAULT 0,
	CHECK ((message_id IS NULL) <> (draft_of IS NULL))
);
CREATE INDEX parts_by_message ON parts (message_id, idx) WHERE message_id IS NOT NULL;
CREATE INDEX parts_by_draft ON parts (draft_of, idx) WHERE draft_of IS NOT NULL;
CREATE INDEX parts_by_sha256 ON parts (sha256) WHERE sha256 <> '';

CREATE TABLE generated_images (
	id         INTEGER PRIMARY KEY,
	session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE,
	prompt     TEXT NOT NULL DEFAULT '',
	model      TEXT NOT NULL DEFAULT '',
	size       TEXT NOT NULL DEFAULT '',
	path       TEXT NOT NULL DEFAULT '',
	sha256     TEXT NOT NULL,
	mime       TEXT NOT NULL DEFAULT '',
	width      INTEGER NOT NULL DEFAULT 0,
	height     INTEGER NOT NULL DEFAULT 0,
	bytes      INTEGER NOT NULL DEFAULT 0,
	created    INTEGER NOT NULL
);
CREATE INDEX generated_by_session ON generated_images (session_id, id);
CREATE INDEX generated_by_sha256 ON generated_images (sha256);

CREATE VIRTUAL TABLE messages_fts USING fts5 (
	text,
	content = 'messages',
	content_rowid = 'id',
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);

CREATE INDEX messages_streaming ON messages (updated) WHERE state = 'streaming';

CREATE TRIGGER messages_insert AFTER INSERT ON messages BEGIN
	UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id;
	INSERT INTO messages_fts (rowid, text) SELECT new.id, new.text WHERE new.state <> 'streaming';
END;
CREATE TRIGGER messages_delete AFTER DELETE ON messages BEGIN
	UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id;
	INSERT INTO messages_fts (messages_fts, rowid, text) SELECT 'delete', old.id, old.text WHERE old.state <> 'streaming';
END;
CREATE TRIGGER messages_text AFTER UPDATE OF text, state ON messages
WHEN old.state <> 'streaming' OR new.state <> 'streaming' BEGIN
	INSERT INTO messages_fts (messages_fts, rowid, text) SELECT 'delete', old.id, old.text WHERE old.state <> 'streaming';
	INSERT INTO messages_fts (rowid, text) SELECT new.id, new.text WHERE new.state <> 'streaming';
END;
`

// userVersion reads the schema version and application id of a database.
func userVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (version, appID int, err error) {
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, 0, err
	}
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return 0, 0, err
	}
	return version, appID, nil
}

// migrate brings db up to the last of steps, each step in its own
// transaction together with the version it reaches, so a failed step leaves
// the database at the previous version. The version is read again inside
// the write transaction: another process may have migrated meanwhile. A
// new database takes every step in one transaction: each commit writes
// the pages it changed (the schema's first page, its table of tables) to
// the WAL and the checkpoint writes them again, so seven commits wrote
// 46 pages for a schema of 31; a step that fails leaves it empty.
func migrate(ctx context.Context, db *sql.DB, steps []migration) error {
	for len(steps) > 0 {
		n, err := migrateSteps(ctx, db, steps)
		if err != nil {
			return err
		}
		steps = steps[n:]
	}
	return nil
}

// migrateSteps applies, in one transaction, the first of steps the
// database lacks, or all of them when it is new (version 0), and returns
// how many of steps it went past. The steps it already has are passed in
// the same transaction: a database that is up to date (every start but
// the first after an upgrade) costs one write transaction, not one per
// step.
func migrateSteps(ctx context.Context, db *sql.DB, steps []migration) (int, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	version, _, err := userVersion(ctx, tx)
	if err != nil {
		return 0, err
	}
	n := 1
	for n < len(steps) && steps[n-1].version <= version {
		n++
	}
	if version == 0 {
		n = len(steps)
	}
	applied := false
	for _, step := range steps[:n] {
		if version >= step.version {
			continue
		}
		if version != step.version-1 {
			return 0, fmt.Errorf("schema version %d has no way up to %d", version, step.version)
		}
		if _, err := tx.ExecContext(ctx, step.sql); err != nil {
			return 0, fmt.Errorf("schema version %d: %w", step.version, err)
		}
		version, applied = step.version, true
	}
	if !applied {
		return n, nil
	}
	// PRAGMA takes no parameters; the values are constants of this file.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, version)); err != nil {
		return 0, err
	}
	return n, tx.Commit()
}
