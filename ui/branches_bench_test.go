package ui

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/chat"
	"parley/conversation"
)

// combSession is a session of turns questions in which every reply has
// one alternative: turns+1 branches, 3×turns messages.
func combSession(turns int) conversation.Snapshot {
	msgs := make([]conversation.Message, 0, 3*turns)
	id, parent := 0, 0
	now := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	for i := range turns {
		id++
		q := id
		msgs = append(msgs, conversation.Message{ID: q, Parent: parent, Role: api.RoleUser, Text: "question " + strings.Repeat("q", i%7), Created: now})
		id++
		msgs = append(msgs, conversation.Message{ID: id, Parent: q, Role: api.RoleAssistant, Model: "gpt-4o", Text: "answer", Created: now})
		parent = id
		id++
		msgs = append(msgs, conversation.Message{ID: id, Parent: q, Role: api.RoleAssistant, Model: "gpt-4o", Text: "another answer", Created: now})
	}
	return conversation.Snapshot{Messages: msgs, Leaf: parent}
}

// combModel is the chat at 120x40 with a comb session of turns open, and
// its engine; its clock stands at combNow.
func combModel(tb testing.TB, turns int) (*Model, *chat.Engine) {
	tb.Helper()
	m, eng := newWithEngine(context.Background(), Options{
		Model: "gpt-4o", Theme: "dark", Width: 120, Height: 40,
		Now:       combNow,
		NewClient: func(string) (*api.Client, error) { return nil, errBadKey },
	})
	snap := combSession(turns)
	m.openConversation(eng.Restore(conversation.NewID(), snap), len(snap.Messages))
	renderAll(m)
	return m, eng
}

func combNow() time.Time { return time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC) }

// openBranchesFrame opens /branches and takes the frame that shows it.
func openBranchesFrame(tb testing.TB, m *Model) string {
	tb.Helper()
	m.perform(opBranches, call{})
	if m.layerName() != "branches" {
		tb.Fatal("the branch list did not open")
	}
	m.Update(frameMsg{})
	return ansi.Strip(m.View().Content)
}

// TestBranchesOfAComb: the list of a comb's 4,001 branches names each by
// the reply it alone holds, and opening it copies no branch's path: it
// allocated 4.5 GB before (every path copied for its label), a few MB now.
func TestBranchesOfAComb(t *testing.T) {
	m, eng := combModel(t, 4000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	frame := openBranchesFrame(t, m)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Fatalf("opening the list of 4,001 branches allocated %d MB", n>>20)
	}
	if !strings.Contains(frame, "Branches (4001)") || !strings.Contains(frame, "reply: answer") || !strings.Contains(frame, "at message 8000 of 8000") {
		t.Fatalf("the list:\n%s", frame)
	}
	items := branchItems(eng.Conv(), combNow())
	if len(items) != 4001 || items[1].Title != "2. reply: another answer" || !strings.HasPrefix(items[1].Detail, "gpt-4o · ") || !strings.HasSuffix(items[1].Detail, " · at message 8000 of 8000") || !strings.HasSuffix(items[4000].Detail, " · at message 2 of 2") {
		t.Fatalf("items %+v … %+v", items[:2], items[4000])
	}
}

// TestBranchTitleReadsOnlyTheStart: a branch that starts at a 2 MB
// message is named by its start, cut with an ellipsis.
func TestBranchTitleReadsOnlyTheStart(t *testing.T) {
	long := strings.Repeat("é", 1<<20)
	got := branchTitle(conversation.Message{Role: api.RoleUser, Text: long})
	if n := len([]rune(got)); n != branchSnippet+1 || !strings.HasSuffix(got, "…") {
		t.Fatalf("title of %d runes: %q", n, got[:40])
	}
	if got := branchTitle(conversation.Message{Role: api.RoleUser, Text: "short"}); got != "short" {
		t.Fatalf("title %q", got)
	}
}

// BenchmarkOpenBranches4000 is /branches on a comb of 4,000 turns: the
// list built and the picker drawn in the frame (issue 27: 8 s before).
// The thread's CPU time (cpu-ms/op) is the figure to compare on a busy
// machine: the work runs on this goroutine, locked to its thread.
func BenchmarkOpenBranches4000(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m, _ := combModel(b, 4000)
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		c0 := threadCPU()
		openBranchesFrame(b, m)
		cpu += threadCPU() - c0
		m.layers.pop()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
