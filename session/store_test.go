package session

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

var updateFixtures = flag.Bool("update", false, "rewrite the schema fixtures in testdata")

func TestOpenMakesAPrivateWALDatabase(t *testing.T) {
	s, dir := openStore(t, newClock())
	for _, p := range []string{dir, filepath.Join(dir, BlobDir)} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v, want a folder only the user can read", p, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(s.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("database file mode %v %v", fi.Mode(), err)
	}
	var mode string
	var fk int
	s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	s.db.QueryRow("PRAGMA foreign_keys").Scan(&fk)
	version, app, err := userVersion(context.Background(), s.db)
	if err != nil || mode != "wal" || fk != 1 || version != SchemaVersion() || app != applicationID {
		t.Fatalf("journal %q fk %d version %d app %#x (%v)", mode, fk, version, app, err)
	}
	// Opening again (a second start) changes nothing.
	s.Close()
	again := openIn(t, dir, nil)
	if v, _, _ := userVersion(context.Background(), again.db); v != SchemaVersion() {
		t.Fatalf("version after reopening %d", v)
	}
}

func TestDefaultDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		home string
		want string
	}{
		{map[string]string{"XDG_DATA_HOME": "/data"}, "/home/u", "/data/parley"},
		{map[string]string{"XDG_DATA_HOME": "relative"}, "/home/u", "/home/u/.local/share/parley"},
		{nil, "/home/u", "/home/u/.local/share/parley"},
		{nil, "", ""},
	}
	for _, c := range cases {
		if got := DefaultDir(env(c.env), c.home); got != c.want {
			t.Errorf("DefaultDir(%v, %q) = %q, want %q", c.env, c.home, got, c.want)
		}
	}
}

// TestMigrationsFromEveryReleasedSchema opens a copy of the fixture
// database of every released schema version (testdata/schema-vN) with
// this build: it is brought up to date and everything in it reads back.
func TestMigrationsFromEveryReleasedSchema(t *testing.T) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "schema-v*"))
	if len(fixtures) < SchemaVersion() {
		t.Fatalf("%d schema fixtures for schema version %d: commit one per released version (go test -run TestWriteFixture -update)", len(fixtures), SchemaVersion())
	}
	for _, fx := range fixtures {
		t.Run(filepath.Base(fx), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "parley")
			if err := os.CopyFS(dir, os.DirFS(fx)); err != nil {
				t.Fatal(err)
			}
			s := openIn(t, dir, nil)
			ctx := context.Background()
			if v, _, _ := userVersion(ctx, s.db); v != SchemaVersion() {
				t.Fatalf("version %d after opening", v)
			}
			list, err := s.List(ctx, 0, 0)
			if err != nil || len(list) != 2 {
				t.Fatalf("List: %+v, %v", list, err)
			}
			got, err := s.Load(ctx, fixtureSession)
			if err != nil {
				t.Fatal(err)
			}
			var version int
			fmt.Sscanf(filepath.Base(fx), "schema-v%d", &version)
			msgs := got.Snapshot.Messages
			wantN := 3
			if version >= 2 {
				wantN = 4 // and an image turn
			}
			if version >= 4 {
				wantN = 5 // and an alternative reply
			}
			if len(msgs) != wantN || got.Title != "Fixture chart" || got.SystemPrompt != "be brief" {
				t.Fatalf("loaded %+v", got.Meta)
			}
			checkFixtureTree(t, s, version, got)
			u := msgs[0]
			v5 := version >= 5
			wantAtts := 2
			if v5 {
				wantAtts = 3 // and a text file
			}
			if len(u.Attachments) != wantAtts || u.Attachments[0].Width != 8 || !bytes.Equal(u.Attachments[0].Data, fixturePNG(t)) ||
				u.Attachments[1].URL != "https://example.com/cat.png" {
				t.Fatalf("attachments %+v", u.Attachments)
			}
			if v5 {
				txt := u.Attachments[2]
				if !txt.IsText() || !bytes.Equal(txt.Data, fixtureText) || txt.Lines != 3 || txt.Name != "notes.md" || txt.URL != "" {
					t.Fatalf("text file %+v", txt)
				}
				r := msgs[1]
				if r.Reasoning != "A chart with a lighthouse: say so." || r.ThoughtFor() != 800*time.Millisecond || r.Usage.ReasoningTokens() != 7 {
					t.Fatalf("reasoning %q, %v, %+v", r.Reasoning, r.ThoughtFor(), r.Usage)
				}
				if got.Snapshot.Role != "pilot" || *got.Snapshot.Params.Temperature != 0.2 || got.Snapshot.Params.Stop[0] != "###" {
					t.Fatalf("settings %q %+v", got.Snapshot.Role, got.Snapshot.Params)
				}
			}
			if r := msgs[1]; r.Usage == nil || r.Usage.TotalTokens != 42 || r.Model != "gpt-4o" {
				t.Fatalf("reply %+v", r)
			}
			// Left streaming long ago: interrupted, with all its text (and
			// reasoning).
			if r := msgs[2]; r.Text != "cut sh" || r.State != conversation.StateInterrupted {
				t.Fatalf("abandoned reply %q %v", r.Text, r.State)
			}
			if r := msgs[2]; version >= numberedBy && r.Reasoning != "weighing" {
				t.Fatalf("abandoned reply's reasoning %q", r.Reasoning)
			}
			// The next message is numbered after the session's last.
			if wantNext := wantN + 1; got.Snapshot.NextID != wantNext {
				t.Fatalf("next id %d, want %d", got.Snapshot.NextID, wantNext)
			}
			if wantN == 4 {
				im := msgs[3]
				if !im.IsImages() || im.Image == nil || im.Image.Size != "1024x1024" || len(im.Attachments) != 1 ||
					!bytes.Equal(im.Attachments[0].Data, fixturePNG(t)) || im.Model != "gpt-image-1" {
					t.Fatalf("image turn %+v", im)
				}
			}
			// Every branch is searched: the alternative answer too.
			wantHits := []int{2}
			if version >= 4 {
				wantHits = []int{5, 2}
			}
			hits, err := s.Search(ctx, "chart", 10)
			var hitIDs []int
			for _, h := range hits {
				hitIDs = append(hitIDs, h.MessageID)
			}
			if err != nil || !slices.Equal(hitIDs, wantHits) {
				t.Fatalf("search %+v, %v", hits, err)
			}
			if text, atts, err := s.Draft(ctx, fixtureDraft); err != nil || text != "half-typed" || len(atts) != 1 {
				t.Fatalf("draft %q %+v %v", text, atts, err)
			}
			if imgs, err := s.GeneratedImages(ctx, fixtureSession); err != nil || len(imgs) != 1 || !bytes.Equal(imgs[0].Data, fixturePNG(t)) {
				t.Fatalf("generated %+v, %v", imgs, err)
			}
			// And it takes new writes.
			if err := s.Rename(ctx, fixtureSession, "renamed"); err != nil {
				t.Fatal(err)
			}
			checkFixtureTakesV5(t, s, got)
		})
	}
}

// checkFixtureTree: a session stored as a line is a chain (each message
// follows the one before, the active leaf is the last), and the tree of
// the fixtures that have one reads back.
func checkFixtureTree(t *testing.T, s *Store, version int, got Session) {
	t.Helper()
	last := 3
	if version >= 2 {
		last = 4
	}
	path := got.Snapshot.Path()
	for i, m := range path {
		if m.ID != i+1 || m.Parent != i || m.AltCount != 1 && m.ID != 2 {
			t.Fatalf("message %d of the path: id %d, parent %d, %d alternatives", i, m.ID, m.Parent, m.AltCount)
		}
	}
	if len(path) != last || got.Snapshot.Leaf != last || got.Snapshot.Partial {
		t.Fatalf("path of %d to leaf %d (partial %v), want a chain to %d", len(path), got.Snapshot.Leaf, got.Snapshot.Partial, last)
	}
	tail, err := s.LoadTail(context.Background(), fixtureSession, 2)
	if err != nil || len(tail.Snapshot.Messages) != 2 || tail.Snapshot.Messages[1].ID != last || !tail.Snapshot.Partial {
		t.Fatalf("LoadTail: %+v, %v", tail.Snapshot, err)
	}
	if version < 4 {
		return
	}
	alt := got.Snapshot.Messages[4]
	if alt.ID != 5 || alt.Parent != 1 || alt.AltIndex != 1 || alt.AltCount != 2 || path[1].AltCount != 2 || !path[0].Excluded {
		t.Fatalf("the tree of the fixture: %+v / %+v", alt, path[:2])
	}
	conv := conversation.Restore(conversation.Options{}, got.Snapshot)
	if req := conv.BuildRequest(conversation.RequestOptions{}); len(req.Excluded) != 1 || req.Excluded[0] != 1 {
		t.Fatalf("the first turn is not left out: %+v", req)
	}
	// Each alternative has its own reasoning (none before version 5).
	want2, want5 := "", ""
	if version >= 5 {
		want2, want5 = "A chart with a lighthouse: say so.", "Or a harbour?"
	}
	if path[1].Reasoning != want2 || alt.Reasoning != want5 {
		t.Fatalf("reasoning of the alternatives %q and %q, want %q and %q", path[1].Reasoning, alt.Reasoning, want2, want5)
	}
}

// checkFixtureTakesV5: a fixture brought up to date keeps the tree and
// takes what schema v5 added: a reply with reasoning on a new branch,
// the session's role and params, the active leaf moved to the reply.
func checkFixtureTakesV5(t *testing.T, s *Store, got Session) {
	t.Helper()
	ctx := context.Background()
	temp := 0.7
	params := api.Params{Temperature: &temp}
	start := time.UnixMilli(1790000009000)
	reply := conversation.Message{ID: 9, Parent: 1, Role: api.RoleAssistant, Text: "A buoy.", Model: "gpt-4o", State: conversation.StateDone,
		Reasoning: "Look again.", ReasoningStart: start, ReasoningEnd: start.Add(1500 * time.Millisecond), Created: start,
		Usage: &api.Usage{PromptTokens: 5, CompletionTokens: 9, TotalTokens: 14, CompletionTokensDetails: &api.TokensDetails{ReasoningTokens: 4}}}
	// The conversation numbers its reply 9; the store gives it the
	// session's next number.
	n := newNumbering(reply.ID)
	for _, ch := range []conversation.Change{
		{Kind: conversation.ChangeSettings, Role: "navigator", Params: params, Leaf: got.Snapshot.Leaf},
		{Kind: conversation.ChangeAppend, Message: &reply, Role: "navigator", Params: params, Leaf: reply.ID},
	} {
		ch.ConversationID, ch.Title, ch.SystemPrompt = fixtureSession, "renamed", "be brief"
		if _, err := s.apply(ctx, ch, n); err != nil {
			t.Fatalf("%v: %v", ch.Kind, err)
		}
	}
	seq := n.seqs[reply.ID]
	if want := got.lastSeq + 1; seq != want {
		t.Fatalf("the reply was numbered %d, want %d (one past the session's last)", seq, want)
	}
	again, err := s.Load(ctx, fixtureSession)
	if err != nil {
		t.Fatal(err)
	}
	snap := again.Snapshot
	if snap.Role != "navigator" || snap.Params.Temperature == nil || *snap.Params.Temperature != 0.7 || snap.Leaf != seq {
		t.Fatalf("settings %q %+v, leaf %d", snap.Role, snap.Params, snap.Leaf)
	}
	path := snap.Path()
	r := path[len(path)-1]
	if len(path) != 2 || path[0].ID != 1 || r.ID != seq || r.Parent != 1 || r.AltCount < 2 {
		t.Fatalf("the new branch: %+v", path)
	}
	if r.Reasoning != "Look again." || r.ThoughtFor() != 1500*time.Millisecond || r.Usage.ReasoningTokens() != 4 {
		t.Fatalf("reasoning %q, %v, %+v", r.Reasoning, r.ThoughtFor(), r.Usage)
	}
}

// TestFixtureIsSchemaV1 checks that each committed fixture really has the
// tables its version made, so it keeps testing the way up from there.
func TestFixtureIsSchemaV1(t *testing.T) {
	ctx := context.Background()
	for v := 1; v <= SchemaVersion(); v++ {
		fresh := filepath.Join(t.TempDir(), fmt.Sprintf("v%d.db", v))
		db := rawDB(t, fresh)
		if err := migrate(ctx, db, migrations()[:v]); err != nil {
			t.Fatal(err)
		}
		fixture := rawDB(t, filepath.Join("testdata", fmt.Sprintf("schema-v%d", v), DBName)+"?mode=ro")
		if a, b := schemaOf(t, db), schemaOf(t, fixture); a != b {
			t.Fatalf("the v%d fixture's schema differs from what its steps make:\n%s\n---\n%s", v, b, a)
		}
	}
}

func schemaOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := strings1(context.Background(), db, "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, "\n")
}

// rawDB opens a database with no settings of the store's own.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	name := "file:" + path
	db, err := sql.Open("sqlite", name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestMigrationStepsAreAtomic: a step that fails leaves the database at
// the version before it, with nothing of the step applied, and a later
// open retries it. A new database takes all its steps at once, so a
// failure leaves it empty.
func TestMigrationStepsAreAtomic(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	db := rawDB(t, path)
	steps := []migration{
		{version: 1, sql: "CREATE TABLE a (x)"},
		{version: 2, sql: "CREATE TABLE b (x); CREATE TABLE broken (x, x)"},
	}
	tables := func() (n int) {
		db.QueryRow("SELECT count(*) FROM sqlite_schema").Scan(&n)
		return n
	}
	err := migrate(ctx, db, steps)
	if err == nil || !strings.Contains(err.Error(), "schema version 2") {
		t.Fatalf("migrate = %v, want the failure of step 2", err)
	}
	if v, _, _ := userVersion(ctx, db); v != 0 || tables() != 0 {
		t.Fatalf("a new database at version %d with %d tables after a failed step 2, want it empty", v, tables())
	}
	if err := migrate(ctx, db, steps[:1]); err != nil {
		t.Fatal(err)
	}
	err = migrate(ctx, db, steps)
	if err == nil || !strings.Contains(err.Error(), "schema version 2") {
		t.Fatalf("migrate = %v, want the failure of step 2", err)
	}
	if v, _, _ := userVersion(ctx, db); v != 1 {
		t.Fatalf("version %d after a failed step 2, want 1", v)
	}
	if tables() != 1 {
		t.Fatal("step 2 was half applied")
	}
	steps[1].sql = "CREATE TABLE b (x)"
	if err := migrate(ctx, db, steps); err != nil {
		t.Fatal(err)
	}
	if v, _, _ := userVersion(ctx, db); v != 2 {
		t.Fatalf("version %d", v)
	}
	// A gap in the steps is refused rather than skipped.
	if err := migrate(ctx, db, []migration{{version: 4, sql: "SELECT 1"}}); err == nil {
		t.Fatal("a step from 3 to 4 ran on a version-2 database")
	}
}

// fileState is what must not change when a database is refused.
func fileState(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNewerSchemaIsRefusedAndUntouched(t *testing.T) {
	s, dir := openStore(t, newClock())
	r := record(t, s)
	chat(t, r, newClock(), "", "q", "a")
	r.Close()
	s.db.Exec("PRAGMA user_version = 99")
	s.Close()
	before := fileState(t, filepath.Join(dir, DBName))
	_, err := Open(context.Background(), dir, Options{})
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindTooNew {
		t.Fatalf("Open = %v, want a too-new error", err)
	}
	for _, w := range []string{filepath.Join(dir, DBName), "newer parley", "schema 99", "left untouched", "update parley"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if !bytes.Equal(before, fileState(t, filepath.Join(dir, DBName))) {
		t.Fatal("the refused database was changed")
	}
}

func TestCorruptFileIsReportedWithWhatToDo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parley")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, DBName)
	garbage := bytes.Repeat([]byte("this is not a database at all. "), 200)
	os.WriteFile(path, garbage, 0o600)
	_, err := Open(context.Background(), dir, Options{})
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindCorrupt {
		t.Fatalf("Open = %v, want a corrupt-file error", err)
	}
	for _, w := range []string{path, "damaged", "mv " + path, "history off"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if !bytes.Equal(garbage, fileState(t, path)) {
		t.Fatal("the damaged file was changed")
	}
}

// TestDamagedPagesAreReportedAsCorrupt: a database whose header is fine
// but whose pages are not fails on use, with the same kind of message.
func TestDamagedPagesAreReportedAsCorrupt(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	for i := 0; i < 30; i++ {
		chat(t, r, c, "", strings.Repeat("question ", 50), strings.Repeat("answer ", 200))
	}
	r.Close()
	s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	s.Close()
	path := filepath.Join(dir, DBName)
	b := fileState(t, path)
	// Keep page 1 (the header and schema), scribble over the rest.
	for i := 4096; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	os.WriteFile(path, b, 0o600)
	s2, err := Open(context.Background(), dir, Options{})
	if err == nil {
		t.Cleanup(func() { s2.Close() })
		_, err = s2.List(context.Background(), 0, 0)
	}
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindCorrupt || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want a corrupt-file error naming %s", err, path)
	}
}

func TestForeignDatabaseIsLeftAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parley")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, DBName)
	db := rawDB(t, path)
	if _, err := db.Exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := fileState(t, path)
	_, err := Open(context.Background(), dir, Options{})
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindForeign || !strings.Contains(err.Error(), "not a parley history database") {
		t.Fatalf("Open = %v", err)
	}
	if !bytes.Equal(before, fileState(t, path)) {
		t.Fatal("another program's database was changed")
	}
}

func TestNoDataDirectory(t *testing.T) {
	_, err := Open(context.Background(), "", Options{})
	if err == nil || !strings.Contains(err.Error(), "XDG_DATA_HOME") {
		t.Fatalf("Open(\"\") = %v", err)
	}
	// A file where the folder should be.
	file := filepath.Join(t.TempDir(), "parley")
	os.WriteFile(file, nil, 0o600)
	_, err = Open(context.Background(), file, Options{})
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), file) {
		t.Fatalf("Open over a file = %v", err)
	}
}

// TestMigrationPassesAppliedStepsInOneTransaction: a database that has
// some steps is brought past them in the transaction that applies the next
// one, and an up-to-date one in a single transaction, not one per step
// (every start pays it).
func TestMigrationPassesAppliedStepsInOneTransaction(t *testing.T) {
	ctx := context.Background()
	db := rawDB(t, filepath.Join(t.TempDir(), "m.db"))
	steps := []migration{
		{version: 1, sql: "CREATE TABLE a (x)"},
		{version: 2, sql: "CREATE TABLE b (x)"},
		{version: 3, sql: "CREATE TABLE c (x)"},
		{version: 4, sql: "CREATE TABLE d (x)"},
	}
	if err := migrate(ctx, db, steps[:2]); err != nil {
		t.Fatal(err)
	}
	n, err := migrateSteps(ctx, db, steps)
	if err != nil || n != 3 {
		t.Fatalf("migrateSteps on version 2 went past %d steps (%v), want 3: steps 1 and 2 passed, step 3 applied", n, err)
	}
	if v, _, _ := userVersion(ctx, db); v != 3 {
		t.Fatalf("version %d after one transaction, want 3 (one step applied)", v)
	}
	if err := migrate(ctx, db, steps); err != nil {
		t.Fatal(err)
	}
	if n, err := migrateSteps(ctx, db, steps); err != nil || n != len(steps) {
		t.Fatalf("migrateSteps on an up-to-date database went past %d of %d steps (%v), want all in one transaction", n, len(steps), err)
	}
}
