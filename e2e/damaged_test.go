package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/conversation"
	"parley/session"
)

// damageSession stores a session of 150 turns whose questions fill a
// page each in home's history, then overwrites the leaf page of the
// messages table that holds an early question, as a failing disk would.
// The chat's first window (the last 200 messages) does not reach it.
func damageSession(t *testing.T, home string) {
	t.Helper()
	dir := filepath.Join(home, ".local", "share", "parley")
	ctx := context.Background()
	s, err := session.Open(ctx, dir, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := s.NewRecorder(ctx)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}})
	filler := strings.Repeat("words to fill a page. ", 200)
	for i := range 150 {
		conv.AddUser(fmt.Sprintf("QUESTION-%04d %s", i, filler), nil)
		id, _ := conv.StartReply("gpt-4o")
		conv.AppendDelta(id, fmt.Sprintf("answer %d", i))
		conv.Finish(id, "stop", nil)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := filepath.Join(dir, session.DBName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pageSize int
	if err := db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	damaged := 0
	for from := 0; ; {
		at := bytes.Index(data[from:], []byte("QUESTION-0005"))
		if at < 0 {
			break
		}
		page := (from + at) / pageSize * pageSize
		from = page + pageSize
		var leaf bool
		if err := db.QueryRow("SELECT name = 'messages' AND pagetype = 'leaf' FROM dbstat WHERE pageno = ?", page/pageSize+1).Scan(&leaf); err != nil {
			t.Fatal(err)
		}
		if leaf {
			for i := page; i < page+64; i++ {
				data[i] = 0xff
			}
			damaged++
		}
	}
	if damaged != 1 {
		t.Fatalf("damaged %d pages, want 1", damaged)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestADamagedSessionGoesOnInANewOne: parley --continue on a session
// whose early rows sit on a damaged page shows its last messages, says
// the session is damaged and goes on in a new session: a message sent
// then is answered (before, every send said "the session is still
// loading; try again in a moment", for ever), and the next --continue
// opens the new session with it.
func TestADamagedSessionGoesOnInANewOne(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	home := t.TempDir()
	damageSession(t, home)
	tm := startParley(t, launch{Width: 160, Height: 40, Gateway: gw, Config: chatConfig, home: home, args: []string{"--continue"}})
	tm.waitText("answer 149", "holds this session is damaged", "200 messages that could be read")
	tm.send("still there?")
	s := tm.waitText("You said: still there?")
	if strings.Contains(s, "still loading") {
		t.Fatalf("the chat still waits for the session:\n%s", s)
	}
	quitChat(t, tm)

	again := startParley(t, launch{Width: 160, Height: 40, Gateway: gw, Config: chatConfig, home: home, args: []string{"--continue"}})
	again.waitText("You said: still there?", "answer 149")
}
