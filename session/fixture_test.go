package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ids in the schema fixtures.
const (
	fixtureSession = "0190f0a1b2c3d4e5f60718293a4b5c6d"
	fixtureDraft   = "0190f0a1b2c3d4e5f60718293a4b5c6e"
)

// fixturePNG is the image stored in the fixtures (an 8×6 PNG).
func fixturePNG(t testing.TB) []byte { return pngBytes(t, 8, 6, 9) }

// TestWriteFixture writes the missing testdata/schema-vN when run with
// -update. It uses plain SQL against the schema steps up to N only, not
// the store's current code, so each file stays what a version-N parley
// wrote. A fixture that exists is never rewritten.
func TestWriteFixture(t *testing.T) {
	if !*updateFixtures {
		t.Skip("writes the fixtures only with -update")
	}
	for v := 1; v <= SchemaVersion(); v++ {
		dir := filepath.Join("testdata", fmt.Sprintf("schema-v%d", v))
		if _, err := os.Stat(dir); err == nil {
			continue
		}
		writeFixture(t, dir, v)
	}
}

func writeFixture(t *testing.T, dir string, version int) {
	if err := os.MkdirAll(filepath.Join(dir, BlobDir), 0o755); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, filepath.Join(dir, DBName))
	ctx := context.Background()
	if err := migrate(ctx, db, migrations()[:version]); err != nil {
		t.Fatal(err)
	}
	img := fixturePNG(t)
	hash := HashBytes(img)
	const t0 = 1790000000000
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO sessions (id, title, titled, model, system_prompt, created, updated, preview) VALUES (?, 'Fixture chart', 1, 'gpt-4o', 'be brief', ?, ?, 'cut sh')`,
			[]any{fixtureSession, t0, t0 + 3000}},
		{`INSERT INTO messages (session_id, seq, role, text, state, created, updated) VALUES (?, 1, 'user', 'what is in this picture?', 'done', ?, ?)`,
			[]any{fixtureSession, t0, t0}},
		{`INSERT INTO parts (message_id, idx, kind, sha256, mime, width, height, bytes, name) VALUES (1, 0, 'image', ?, 'image/png', 8, 6, ?, 'chart.png')`,
			[]any{hash, len(img)}},
		{`INSERT INTO parts (message_id, idx, kind, url, name) VALUES (1, 1, 'link', 'https://example.com/cat.png', 'cat.png')`, nil},
		{`INSERT INTO messages (session_id, seq, role, text, state, model, finish_reason, prompt_tokens, completion_tokens, total_tokens, created, updated)
			VALUES (?, 2, 'assistant', 'A lighthouse on a chart.', 'done', 'gpt-4o', 'stop', 30, 12, 42, ?, ?)`,
			[]any{fixtureSession, t0 + 1000, t0 + 2000}},
		{`INSERT INTO messages (session_id, seq, role, text, state, model, created, updated) VALUES (?, 3, 'assistant', 'cut sh', 'streaming', 'gpt-4o', ?, ?)`,
			[]any{fixtureSession, t0 + 3000, t0 + 3000}},
		{`INSERT INTO generated_images (session_id, prompt, model, size, path, sha256, mime, width, height, bytes, created)
			VALUES (?, 'a lighthouse', 'gpt-image-1', '1024x1024', '/home/u/Pictures/lighthouse.png', ?, 'image/png', 8, 6, ?, ?)`,
			[]any{fixtureSession, hash, len(img), t0 + 3000}},
		{`INSERT INTO sessions (id, created, updated, draft, has_draft) VALUES (?, ?, ?, 'half-typed', 1)`, []any{fixtureDraft, t0 + 5000, t0 + 5000}},
		{`INSERT INTO parts (draft_of, idx, kind, sha256, mime, width, height, bytes, name) VALUES (?, 0, 'image', ?, 'image/png', 8, 6, ?, 'chart.png')`,
			[]any{fixtureDraft, hash, len(img)}},
	}
	if version >= 2 {
		// An image turn: a lighthouse made in the chat, its image a part.
		stmts = append(stmts, []struct {
			q    string
			args []any
		}{
			{`INSERT INTO messages (session_id, seq, role, text, state, model, created, updated, image)
				VALUES (?, 4, 'images', 'a lighthouse at dusk', 'done', 'gpt-image-1', ?, ?, '{"size":"1024x1024","n":1}')`,
				[]any{fixtureSession, t0 + 4000, t0 + 4000}},
			{`INSERT INTO parts (message_id, idx, kind, sha256, mime, width, height, bytes, name)
				VALUES (4, 0, 'image', ?, 'image/png', 8, 6, ?, '/home/u/Pictures/parley/lighthouse.png')`,
				[]any{hash, len(img)}},
		}...)
	}
	if version >= 3 {
		// The reply cut short was saved in two pieces: "cut" with its row,
		// " sh" by a progress write. A deleted session is remembered.
		stmts = append(stmts, []struct {
			q    string
			args []any
		}{
			{`UPDATE messages SET text = 'cut' WHERE seq = 3`, nil},
			{`INSERT INTO message_pieces (message_id, start, "end", text) VALUES (3, 3, 6, ' sh')`, nil},
			{`INSERT INTO deleted_sessions (id, deleted) VALUES ('0190f0a1b2c3d4e5f60718293a4b5c6f', ?)`, []any{t0 + 6000}},
		}...)
	}
	if version >= 4 {
		// A tree: the messages follow one another (as the step made
		// them), and message 5 is a second answer to the first question,
		// an alternative of message 2, off the active path; the first
		// turn is left out of what the model sees.
		stmts = append(stmts, []struct {
			q    string
			args []any
		}{
			{`UPDATE messages SET parent = seq - 1`, nil},
			{`INSERT INTO messages (session_id, seq, parent, role, text, state, model, finish_reason, created, updated)
				VALUES (?, 5, 1, 'assistant', 'A harbour on a chart.', 'done', 'gpt-4o', 'stop', ?, ?)`,
				[]any{fixtureSession, t0 + 5000, t0 + 5000}},
			{`UPDATE messages SET excluded = 1 WHERE seq = 1`, nil},
			{`UPDATE sessions SET active_leaf = 4 WHERE id = ?`, []any{fixtureSession}},
		}...)
	}
	if version >= 5 {
		// A reply that thought first (and its alternative, reasoning of
		// its own without times), a text file beside the image, and the
		// session's role and /set parameters.
		stmts = append(stmts, []struct {
			q    string
			args []any
		}{
			{`UPDATE messages SET reasoning = 'A chart with a lighthouse: say so.', reasoning_start = ?, reasoning_end = ?, reasoning_tokens = 7 WHERE seq = 2`,
				[]any{t0 + 1000, t0 + 1800}},
			{`INSERT INTO parts (message_id, idx, kind, sha256, mime, bytes, name) VALUES (1, 2, 'image', ?, 'text/plain; charset=utf-8', ?, 'notes.md')`,
				[]any{HashBytes(fixtureText), len(fixtureText)}},
			{`UPDATE sessions SET role = 'pilot', params = '{"temperature":0.2,"stop":["###"]}' WHERE id = ?`, []any{fixtureSession}},
			{`UPDATE messages SET reasoning = 'Or a harbour?' WHERE seq = 5`, nil},
		}...)
	}
	if version >= numberedBy {
		// Every message is written by a parley that lets the store number
		// them (messages.writer); the reply cut short was thinking, its
		// reasoning saved in two pieces too; the session's last number is
		// kept.
		for i, s := range stmts {
			if strings.HasPrefix(s.q, "INSERT INTO messages (") {
				q := strings.Replace(s.q, "INSERT INTO messages (", "INSERT INTO messages (writer, ", 1)
				stmts[i].q = strings.Replace(q, "VALUES (", fmt.Sprintf("VALUES (%d, ", numberedBy), 1)
			}
		}
		stmts = append(stmts, []struct {
			q    string
			args []any
		}{
			{`UPDATE messages SET reasoning = 'weigh', reasoning_start = ?, reasoning_end = ? WHERE seq = 3`, []any{t0 + 3000, t0 + 3000}},
			{`INSERT INTO reasoning_pieces (message_id, start, "end", text) VALUES (3, 5, 8, 'ing')`, nil},
		}...)
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s.q, s.args...); err != nil {
			t.Fatalf("%s: %v", s.q, err)
		}
	}
	db.Exec("VACUUM")
	db.Close()
	blob := filepath.Join(dir, BlobDir, hash[:2], hash)
	os.MkdirAll(filepath.Dir(blob), 0o755)
	if err := os.WriteFile(blob, img, 0o644); err != nil {
		t.Fatal(err)
	}
	if version >= 5 {
		th := HashBytes(fixtureText)
		blob := filepath.Join(dir, BlobDir, th[:2], th)
		os.MkdirAll(filepath.Dir(blob), 0o755)
		if err := os.WriteFile(blob, fixtureText, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixtureText is the text file stored in the fixtures from version 5.
var fixtureText = []byte("# Notes\n\nThe lighthouse is on the chart.\n")
