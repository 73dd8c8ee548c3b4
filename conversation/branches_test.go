package conversation

import (
	"math/rand/v2"
	"testing"
	"time"

	"parley/api"
)

// combSnapshot is a tree of turns questions in which every reply has one
// alternative: turns+1 branches, 3×turns messages, each path up to
// 2×turns long, the shape that made /branches and export slow.
func combSnapshot(turns int) Snapshot {
	msgs := make([]Message, 0, 3*turns)
	id, parent := 0, 0
	now := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	for range turns {
		id++
		q := id
		msgs = append(msgs, Message{ID: q, Parent: parent, Role: api.RoleUser, Text: "question", Created: now})
		id++
		msgs = append(msgs, Message{ID: id, Parent: q, Role: api.RoleAssistant, Text: "answer", Created: now})
		parent = id
		id++
		msgs = append(msgs, Message{ID: id, Parent: q, Role: api.RoleAssistant, Text: "another answer", Created: now})
	}
	return Snapshot{Messages: msgs, Leaf: parent}
}

// referenceBranches is what Branches computed before it stopped copying
// paths: each leaf's whole path, compared with the one before.
func referenceBranches(c *Conversation) []Branch {
	var leaves []*node
	var walk func(n *node)
	walk = func(n *node) {
		if len(n.children) == 0 && n != c.tree.root {
			leaves = append(leaves, n)
		}
		for _, ch := range n.children {
			walk(ch)
		}
	}
	walk(c.tree.root)
	out := make([]Branch, len(leaves))
	var prev []*node
	for i, n := range leaves {
		p := pathTo(n)
		shared := 0
		for shared < len(p) && shared < len(prev) && p[shared] == prev[shared] {
			shared++
		}
		out[i] = Branch{Leaf: n.msg.ID, Len: len(p), Shared: shared, Active: n == c.tree.leaf()}
		prev = p
	}
	for i := range out {
		p := pathTo(leaves[i])
		shared := out[i].Shared
		if i+1 < len(out) {
			shared = max(shared, out[i+1].Shared)
		}
		from := min(shared, len(p)-1)
		out[i].From, out[i].FromAt = p[from].msg.ID, from
	}
	return out
}

// TestBranchesMatchTheirPaths: on random trees, Branches says what the
// branches' whole paths say.
func TestBranchesMatchTheirPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 6))
	for round := range 200 {
		n := 1 + r.IntN(60)
		msgs := make([]Message, n)
		for i := range msgs {
			parent := 0
			if i > 0 && r.IntN(8) > 0 {
				parent = 1 + r.IntN(i)
			}
			role := api.RoleUser
			if i%2 == 1 {
				role = api.RoleAssistant
			}
			msgs[i] = Message{ID: i + 1, Parent: parent, Role: role, Text: "m"}
		}
		c := Restore(Options{}, Snapshot{Messages: msgs, Leaf: 1 + r.IntN(n)})
		got, want := c.Tree().Branches(), referenceBranches(c)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d branches, want %d", round, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("round %d, branch %d: %+v, want %+v", round, i, got[i], want[i])
			}
		}
	}
}

// BenchmarkBranches4000: listing the 4,001 branches of a comb of 4,000
// turns (12,000 messages).
func BenchmarkBranches4000(b *testing.B) {
	c := Restore(Options{}, combSnapshot(4000))
	b.ReportAllocs()
	for b.Loop() {
		if n := len(c.Tree().Branches()); n != 4001 {
			b.Fatalf("%d branches", n)
		}
	}
}
