package session

import "unicode/utf8"

// searchIndexChars is how much of a message the search index reads, in
// bytes: a message of up to 1 MiB whole, a longer one as its first and its
// last 512 KiB joined by a line feed (schemaSearchCap's triggers), and a
// reply's tool calls likewise (capSearchText). Indexing was the costliest
// part of storing a long message: a 26 MB question piped into ask took 8.2
// s of CPU and a peak of 485 MB, 66 % of the CPU in FTS5's tokenizer and
// merge. A message is stored and shown whole; the words of a long one's
// middle are not found, its beginning and its end (where a log's error
// is) are. A word cut at an edge may be found by its piece.
const searchIndexChars = 1 << 20

// schemaSearchCap makes the message triggers index a long message's first
// and last searchIndexChars/2 bytes, joined by a line feed (the literals
// below; TestSearchCapLiterals holds them to the constant), and indexes
// again, that way, the long messages indexed whole before it. An
// external-content index must be given, to delete an entry, exactly the
// text it was given to make it: the whole text for those, the cut one from
// here on. Sizes are bytes: octet_length reads a text's size from its
// record without reading the text (the step reads only the long
// messages), and substr of a BLOB neither counts characters through 26 MB
// nor stops at a NUL, as substr of a text does, nor copies the text to
// end it with one.
//
// FTS5's 'rebuild' indexes whole texts and its 'integrity-check' with a
// rank compares the index with whole texts: parley runs neither, and a
// repair by hand that rebuilds must run this step's two last statements
// after it, or later deletes leave entries behind.
const schemaSearchCap = `
DROP TRIGGER messages_insert;
CREATE TRIGGER messages_insert AFTER INSERT ON messages BEGIN
	UPDATE sessions SET message_count = message_count + 1, last_seq = max(last_seq, new.seq) WHERE id = new.session_id;
	INSERT INTO messages_fts (rowid, text) SELECT new.id, iif(octet_length(new.text) <= 1048576, new.text, substr(CAST(new.text AS BLOB), 1, 524288) || char(10) || substr(CAST(new.text AS BLOB), -524288)) WHERE new.state <> 'streaming';
END;
DROP TRIGGER messages_delete;
CREATE TRIGGER messages_delete AFTER DELETE ON messages BEGIN
	UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id;
	INSERT INTO messages_fts (messages_fts, rowid, text) SELECT 'delete', old.id, iif(octet_length(old.text) <= 1048576, old.text, substr(CAST(old.text AS BLOB), 1, 524288) || char(10) || substr(CAST(old.text AS BLOB), -524288)) WHERE old.state <> 'streaming';
END;
DROP TRIGGER messages_text;
CREATE TRIGGER messages_text AFTER UPDATE OF text, state ON messages
WHEN old.state <> 'streaming' OR new.state <> 'streaming' BEGIN
	INSERT INTO messages_fts (messages_fts, rowid, text) SELECT 'delete', old.id, iif(octet_length(old.text) <= 1048576, old.text, substr(CAST(old.text AS BLOB), 1, 524288) || char(10) || substr(CAST(old.text AS BLOB), -524288)) WHERE old.state <> 'streaming';
	INSERT INTO messages_fts (rowid, text) SELECT new.id, iif(octet_length(new.text) <= 1048576, new.text, substr(CAST(new.text AS BLOB), 1, 524288) || char(10) || substr(CAST(new.text AS BLOB), -524288)) WHERE new.state <> 'streaming';
END;
INSERT INTO messages_fts (messages_fts, rowid, text)
	SELECT 'delete', id, text FROM messages WHERE state <> 'streaming' AND octet_length(text) > 1048576;
INSERT INTO messages_fts (rowid, text)
	SELECT id, substr(CAST(text AS BLOB), 1, 524288) || char(10) || substr(CAST(text AS BLOB), -524288) FROM messages WHERE state <> 'streaming' AND octet_length(text) > 1048576;
`

// capSearchText is what the search index reads of s (see
// searchIndexChars): all of it, or its first and last half of the limit in
// bytes, each cut at a character's start, joined by a line feed.
func capSearchText(s string) string {
	if len(s) <= searchIndexChars {
		return s
	}
	head := searchIndexChars / 2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - searchIndexChars/2
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "\n" + s[tail:]
}
