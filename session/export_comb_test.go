package session

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// combTree is a conversation of turns questions in which every reply has
// one alternative: 3×turns messages and turns+1 branches, the longest
// 2×turns messages long.
func combTree(turns int) conversation.Snapshot {
	msgs := make([]conversation.Message, 0, 3*turns)
	id, parent := 0, 0
	now := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	for range turns {
		id++
		q := id
		msgs = append(msgs, conversation.Message{ID: q, Parent: parent, Role: api.RoleUser, Text: "a question of some length", Created: now})
		id++
		msgs = append(msgs, conversation.Message{ID: id, Parent: q, Role: api.RoleAssistant, Model: "gpt-4o", Text: "an answer of some length", Created: now})
		parent = id
		id++
		msgs = append(msgs, conversation.Message{ID: id, Parent: q, Role: api.RoleAssistant, Model: "gpt-4o", Text: "another answer", Created: now})
	}
	return conversation.Snapshot{Messages: msgs, Leaf: parent}
}

// exportComb writes every branch of a comb of turns to a Markdown file and
// returns the bytes it allocated and the file's size.
func exportComb(t *testing.T, turns int) (alloc uint64, size int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "comb.md")
	snap := combTree(turns)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := ExportSnapshotFile(snap, "comb", time.Time{}, path, ExportOptions{Format: FormatMarkdown, AllBranches: true, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc, st.Size()
}

// TestExportEveryBranchOfACombIsLinear: exporting every branch of a comb
// twice as long costs about twice as much, in memory and on disk: each
// message is written once, with the branch that first holds it, and the
// file is written as it is made. Before, every branch's whole path was
// copied and written and the file held in memory: 4 times as much.
func TestExportEveryBranchOfACombIsLinear(t *testing.T) {
	a1, s1 := exportComb(t, 500)
	a2, s2 := exportComb(t, 1000)
	if a2 > 3*a1 || s2 > 3*s1 {
		t.Fatalf("500 turns: %d KB allocated, a file of %d KB; 1,000 turns: %d KB, %d KB: more than linear", a1>>10, s1>>10, a2>>10, s2>>10)
	}
	if s2 > 1<<20 {
		t.Fatalf("a comb of 3,000 messages made a file of %d KB", s2>>10)
	}
	path := filepath.Join(t.TempDir(), "comb.md")
	if err := ExportSnapshotFile(combTree(3), "comb", time.Time{}, path, ExportOptions{Format: FormatMarkdown, AllBranches: true, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	doc := string(b)
	// 9 messages, each once; branch 2 (the last reply's alternative)
	// goes on from message 6.
	if n := strings.Count(doc, "\n### "); n != 9 {
		t.Fatalf("%d messages written, want 9:\n%s", n, doc)
	}
	if !strings.Contains(doc, "## Branch 2 of 4\n\n*6 messages; the first 5 are the same as in branch 1, written above, so this one goes on from message 6.*") {
		t.Fatalf("branch 2:\n%s", doc)
	}
}
