package session

import "parley/conversation"

// branchView is one path of a session's tree as an export writes it: its
// messages, as the conversation sees them (alternatives counted, left-out
// turns marked), with the hashes of their images.
type branchView struct {
	msgs   []conversation.Message
	hashes [][]string
	active bool
	// shared is how many first messages it has in common with the branch
	// written before it.
	shared int
}

// exportTree is a session's tree read by the conversation, so an export
// and the chat agree on what a branch is.
type exportTree struct {
	conv   *conversation.Conversation
	at     map[int]int // message id -> index in hashes
	hashes [][]string
}

func (e exported) tree() exportTree {
	t := exportTree{at: make(map[int]int, len(e.Snapshot.Messages)), hashes: e.hashes}
	for i, m := range e.Snapshot.Messages {
		t.at[m.ID] = i
	}
	snap := e.Snapshot
	snap.Partial = false
	t.conv = conversation.Restore(conversation.Options{ID: e.ID}, snap)
	return t
}

// view is ms with the hashes of their images.
func (t exportTree) view(ms []conversation.Message) branchView {
	v := branchView{msgs: ms, hashes: make([][]string, len(ms))}
	for i, m := range ms {
		if j, ok := t.at[m.ID]; ok && j < len(t.hashes) {
			v.hashes[i] = t.hashes[j]
		}
	}
	return v
}

// branches returns what an export writes: the active path, or with
// e.all every branch in the tree's order.
func (e exported) branches() []branchView {
	t := e.tree()
	if !e.all {
		v := t.view(t.conv.Messages())
		v.active = true
		return []branchView{v}
	}
	var out []branchView
	for _, b := range t.conv.Branches() {
		v := t.view(t.conv.PathTo(b.Leaf))
		v.active, v.shared = b.Active, b.Shared
		out = append(out, v)
	}
	return out
}

// branchCount is how many branches (leaves) e's tree has.
func (e exported) branchCount() int {
	parents := make(map[int]bool, len(e.Snapshot.Messages))
	for _, m := range e.Snapshot.Messages {
		parents[m.Parent] = true
	}
	n := 0
	for _, m := range e.Snapshot.Messages {
		if !parents[m.ID] {
			n++
		}
	}
	return n
}
