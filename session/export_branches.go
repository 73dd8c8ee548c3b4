package session

import "parley/conversation"

// branchView is what an export writes of one path of a session's tree:
// its messages from index from on (the whole path for an export of the
// active path, the part past what the branch shares with the one written
// before it for an export of every branch), as the conversation sees them
// (alternatives counted, left-out turns marked), with the hashes of their
// images.
type branchView struct {
	msgs   []conversation.Message
	hashes [][]string
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

// branches lists what an export of every branch writes, in the tree's
// order; one branch (the active path) when e.all is false.
func (t exportTree) branches(all bool) []conversation.Branch {
	if !all {
		leaf := t.conv.Leaf()
		return []conversation.Branch{{Leaf: leaf, Len: t.conv.Len(), From: leaf, Active: true}}
	}
	return t.conv.Tree().Branches()
}

// section is what an export writes of branch b: with every branch, only
// the messages past the start it shares with the branch before (written
// there), so a shared start is written once and no more than one branch's
// new messages are held at a time; the whole path otherwise.
func (t exportTree) section(b conversation.Branch, all bool) branchView {
	from := 0
	if all {
		from = b.Shared
	}
	return t.view(t.conv.Tree().PathTail(b.Leaf, from))
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
