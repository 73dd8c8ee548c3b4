package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
)

// TestSessionsWithBranches: a session whose reply was regenerated (as the
// chat does) and whose first reply was chosen again: "ask --continue"
// goes on from the chosen branch, "sessions show" prints it and says
// where the alternatives are, "sessions export" writes the active branch
// and with --all-branches every one.
func TestSessionsWithBranches(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "Red."})
	h.run(nil, "ask", "-m", "gpt-4o", "Name a colour").mustCode(t, 0)
	id := h.sessions()[0].ID

	// The chat regenerates the reply, then goes back to the first one.
	s := h.store()
	ctx := context.Background()
	sess, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.NewRecorder(ctx)
	conv := conversation.Restore(conversation.Options{ID: id, Listeners: []conversation.Listener{rec}}, sess.Snapshot)
	tn, err := conv.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	conv.Receive(tn, "Blue.", nil, "stop")
	conv.Close(tn, nil)
	if _, err := conv.SwitchAlternative(tn.ReplyID, -1); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	h.gw.Enqueue(apitest.Reply{Text: "It is warm."})
	h.run(nil, "ask", "--continue", "Why that one?").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	var sent []string
	for _, m := range req.Chat.Messages {
		sent = append(sent, m.Content.PlainText())
	}
	if strings.Join(sent, "|") != "Name a colour|Red.|Why that one?" {
		t.Fatalf("ask --continue sent %q", sent)
	}

	r := h.run(nil, "sessions", "show", id)
	r.mustCode(t, 0)
	for _, want := range []string{"4 messages (5 in all branches)", "2 branches, this is the active one; alternatives at message 2 (1 of 2)",
		"── gpt-4o · 2026-11-21 ", " · message 2, alternative 1 of 2\nRed.\n", "It is warm."} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Blue.") {
		t.Fatalf("show printed another branch:\n%s", r.stdout)
	}

	r = h.run(nil, "sessions", "export", id)
	r.mustCode(t, 0)
	if !strings.Contains(r.stdout, "- Branches: 2; this is the active one") || strings.Contains(r.stdout, "Blue.") {
		t.Fatalf("export of the active branch:\n%s", r.stdout)
	}
	out := filepath.Join(h.home, "all.md")
	h.run(nil, "sessions", "export", id, "--all-branches", "-o", out).mustCode(t, 0)
	md, _ := os.ReadFile(out)
	for _, want := range []string{"## Branch 1 of 2 (active)", "## Branch 2 of 2\n\n*2 messages; the first is the same as in branch 1, written above, so this one goes on from message 2.*", "Blue.", "It is warm."} {
		if !strings.Contains(string(md), want) {
			t.Errorf("export --all-branches lacks %q:\n%s", want, md)
		}
	}
	// The first message, shared by both branches, is written once.
	if n := strings.Count(string(md), "Name a colour\n"); n != 2 {
		t.Errorf("the shared first message is written %d times (with the title: want 2):\n%s", n, md)
	}
	r = h.run(nil, "sessions", "export", id, "--all-branches", "-f", "json")
	r.mustCode(t, 0)
	var doc struct {
		ActiveLeaf  int  `json:"active_leaf"`
		AllBranches bool `json:"all_branches"`
		Messages    []struct {
			ID     int    `json:"id"`
			Parent int    `json:"parent"`
			Text   string `json:"text"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || !doc.AllBranches || len(doc.Messages) != 5 || doc.ActiveLeaf != 5 {
		t.Fatalf("JSON of every branch: %v\n%s", err, r.stdout)
	}
	if m := doc.Messages[2]; m.Text != "Blue." || m.Parent != 1 {
		t.Fatalf("the regenerated reply in JSON: %+v", m)
	}
	// Every branch is searched; the hit is message 2 of its branch, as
	// show numbers it (the store's id is 3).
	if r = h.run(nil, "sessions", "search", "blue"); r.code != 0 || r.stdout != id+"  2  Blue.\n" {
		t.Fatalf("search into another branch: %+v", r)
	}
}

// TestSessionsShowTreeWithReasoning: "sessions show" prints the active
// branch with its alternatives marked, and on it each reply's reasoning,
// the text files and the session's role and params; the reasoning of the
// alternative not chosen stays out.
func TestSessionsShowTreeWithReasoning(t *testing.T) {
	h := newHarness(t)
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notes, []byte("# Notes\n\nwarm colours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.gw.Enqueue(apitest.Reply{Reasoning: "FIRST-THOUGHT", Text: "Red.", ReasoningAs: apitest.ReasoningContent})
	h.run(nil, "ask", "-m", "gpt-4o", "-a", notes, "Name a colour").mustCode(t, 0)
	id := h.sessions()[0].ID

	// The chat sets a role and a parameter, regenerates the reply (which
	// thinks otherwise), then goes back to the first one.
	s := h.store()
	ctx := context.Background()
	sess, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.NewRecorder(ctx)
	conv := conversation.Restore(conversation.Options{ID: id, Listeners: []conversation.Listener{rec}}, sess.Snapshot)
	temp, _ := api.ParseParam("temperature", "0.2")
	conv.SetRole("painter")
	conv.SetParams(temp)
	tn, err := conv.Begin(nil, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	conv.ReceiveEvent(tn, api.StreamEvent{Reasoning: "SECOND-THOUGHT"})
	conv.ReceiveEvent(tn, api.StreamEvent{Text: "Blue.", FinishReason: "stop"})
	conv.Close(tn, nil)
	if _, err := conv.SwitchAlternative(tn.ReplyID, -1); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	r := h.run(nil, "sessions", "show", id)
	r.mustCode(t, 0)
	for _, want := range []string{
		"2 messages (3 in all branches)", "2 branches, this is the active one; alternatives at message 2 (1 of 2)",
		"role: painter\nparameters: temperature=0.2\n",
		"Name a colour\n[file notes.md: 3 lines, 22 B]\n",
		" · message 2, alternative 1 of 2\n[thinking]\n│ FIRST-THOUGHT\nRed.\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "SECOND-THOUGHT") || strings.Contains(r.stdout, "Blue.") {
		t.Fatalf("show printed the other branch:\n%s", r.stdout)
	}
}

// sessions show numbers messages by their place on the path: a first
// message edited into a second alternative is message 1 (its store id is
// 3), and its reply message 2.
func TestSessionsShowNumbersByPosition(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "Red."})
	h.run(nil, "ask", "-m", "gpt-4o", "Name a colour").mustCode(t, 0)
	id := h.sessions()[0].ID

	s := h.store()
	ctx := context.Background()
	sess, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.NewRecorder(ctx)
	conv := conversation.Restore(conversation.Options{ID: id, Listeners: []conversation.Listener{rec}}, sess.Snapshot)
	first := conv.At(0).ID
	tn, err := conv.Begin(&conversation.UserInput{Text: "Name a fruit", EditOf: first}, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	conv.Receive(tn, "Apple.", nil, "stop")
	conv.Close(tn, nil)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if got := conv.At(0).ID; got == 1 {
		t.Fatalf("the edit kept the first id; the test needs ids that differ from positions")
	}

	r := h.run(nil, "sessions", "show", id)
	r.mustCode(t, 0)
	for _, want := range []string{"alternatives at message 1 (2 of 2)", " · message 1, alternative 2 of 2\nName a fruit\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, r.stdout)
		}
	}
}
