package conversation

import (
	"cmp"
	"slices"

	"parley/api"
)

// Snapshot is what a conversation is made of, without its listeners: what
// storage keeps and Restore rebuilds from.
type Snapshot struct {
	Title string
	// Titled: Title was given with SetTitle rather than made from the first
	// message.
	Titled       bool
	SystemPrompt string
	// Role and Params are the conversation's settings (Conversation.Role,
	// Conversation.Params).
	Role   string
	Params api.Params
	// Messages are every message of the tree, in order of id (a parent
	// before its children), each with its Parent. With Partial, they are
	// only the last messages of the active path, in order, carrying the
	// store's AltIndex and AltCount.
	Messages []Message
	// Leaf is the id of the active path's last message; 0 (or an id not
	// in Messages) means the newest message.
	Leaf int
	// NextID is the id the next new message takes when the conversation
	// is restored; 0 (or less than one past the largest id of Messages)
	// means one past the largest. A store gives the number it will give
	// next, so that while nobody else writes to the session the
	// conversation's ids and the store's agree (a partial window does not
	// hold the largest id of the session; a removed last message left its
	// number used).
	NextID int
	// Partial: Messages are a window of the active path (a long session
	// opened tail first); the conversation restored from it refuses what
	// needs the whole tree (ErrPartial) until the whole session replaces it.
	Partial bool
}

// Snapshot returns copies of the conversation's title, system prompt,
// role, params, every message of its tree and its active leaf.
func (c *Conversation) Snapshot() Snapshot {
	msgs := make([]Message, len(c.tree.all))
	for i, n := range c.tree.all {
		msgs[i] = c.tree.copyOf(n, excludedNode(n))
	}
	return Snapshot{Title: c.title, Titled: c.titled, SystemPrompt: c.system, Role: c.role, Params: c.Params(), Messages: msgs, Leaf: c.Leaf(), NextID: c.tree.nextID, Partial: c.tree.partial}
}

// Path returns the snapshot's active path: from the first message (the
// first one held, for a partial snapshot) to the leaf, following parents.
func (s Snapshot) Path() []Message {
	if len(s.Messages) == 0 {
		return nil
	}
	at := make(map[int]int, len(s.Messages))
	newest := 0
	for i, m := range s.Messages {
		at[m.ID] = i
		if m.ID > s.Messages[newest].ID {
			newest = i
		}
	}
	i, ok := at[s.Leaf]
	if !ok {
		i = newest
	}
	var rev []Message
	for steps := 0; steps < len(s.Messages); steps++ {
		rev = append(rev, s.Messages[i])
		p := s.Messages[i].Parent
		if i, ok = at[p]; p == 0 || !ok {
			break
		}
	}
	slices.Reverse(rev)
	return rev
}

// Restore rebuilds a conversation from stored messages. The title, system
// prompt, role, params and messages come from snap (opts.SystemPrompt is
// not used); the id, listeners, clock and progress interval from opts.
// Message ids are kept, and new messages continue after the largest (or
// from snap.NextID). A
// message whose parent is missing opens the conversation (for a partial
// snapshot: the window). The active path ends at snap.Leaf; below every
// message off that path, the child holding the newest message is the one
// a switch goes on to. A reply stored while it was streaming (the process
// ended mid-reply) comes back interrupted, since nothing will ever finish
// it. Restoring emits no change.
func Restore(opts Options, snap Snapshot) *Conversation {
	return restore(opts, snap, false)
}

// RestoreTaking is Restore without a copy of snap's messages: the
// conversation takes snap.Messages as they are (their slices and pointers
// too), so a long session just read is not held twice while it is
// restored. The caller must not use or change snap.Messages afterwards.
func RestoreTaking(opts Options, snap Snapshot) *Conversation {
	return restore(opts, snap, true)
}

// restore is Restore; take: the messages of snap become the
// conversation's instead of copies.
func restore(opts Options, snap Snapshot, take bool) *Conversation {
	opts.SystemPrompt = snap.SystemPrompt
	c := New(opts)
	c.title = snap.Title
	c.titled = snap.Titled
	c.role = snap.Role
	c.params = snap.Params.With(api.Params{})
	c.tree.partial = snap.Partial
	msgs := snap.Messages
	if !slices.IsSortedFunc(msgs, byID) {
		msgs = slices.SortedStableFunc(slices.Values(msgs), byID)
	}
	c.tree.all = make([]*node, 0, len(msgs))
	// The nodes and their messages are allocated together: two objects
	// (one when the messages are taken) instead of two per message, and no
	// room lost to rounding each up to a size class.
	slab := make([]node, len(msgs))
	held := msgs
	if !take {
		held = make([]Message, len(msgs))
	}
	for i := range msgs {
		m := &msgs[i]
		if all := c.tree.all; m.ID <= 0 || len(all) > 0 && all[len(all)-1].msg.ID == m.ID {
			continue // not an id the conversation makes; kept once (sorted: twice in a row)
		}
		if !take {
			held[i] = m.clone()
		}
		c.tree.restoreNode(&slab[i], &held[i], snap.Partial)
	}
	leaf := c.tree.node(snap.Leaf)
	if leaf == nil && len(c.tree.all) > 0 {
		leaf = c.tree.all[len(c.tree.all)-1]
	}
	c.tree.nextID = max(c.tree.nextID, snap.NextID)
	c.firstOwn = c.tree.nextID
	c.tree.followNewest()
	if leaf != nil {
		c.tree.setPath(pathTo(leaf))
	}
	c.tree.placeAll()
	if c.title == "" && !c.titled {
		if i := slices.IndexFunc(c.tree.path, func(n *node) bool { return n.msg.Role == api.RoleUser }); i >= 0 {
			c.title = MakeTitle(c.tree.path[i].msg.Text)
		}
	}
	return c
}

func byID(a, b Message) int { return cmp.Compare(a.ID, b.ID) }

// restoreNode makes n of m, a copy of a stored message that n takes,
// under its parent (the root when the parent is not held).
func (t *tree) restoreNode(n *node, m *Message, partial bool) {
	if m.State == StateStreaming {
		m.State = StateInterrupted
		m.Version++
	}
	parent := t.node(m.Parent)
	if parent == nil {
		parent = t.root
	}
	*n = node{msg: m, parent: parent, depth: parent.depth + 1, excluded: m.Role == api.RoleUser && m.Excluded}
	if partial {
		n.hintIndex, n.hintCount = m.AltIndex, m.AltCount
	}
	parent.children = append(parent.children, n)
	t.all = append(t.all, n)
	if m.ID >= t.nextID {
		t.nextID = m.ID + 1
	}
}

// placeAll gives every message of a restored tree, not yet shared with
// anyone, its Excluded, AltIndex and AltCount as a copy of it has them
// (copyOf), so PathMessages shares them as they are instead of making a
// new message for each (see shared). One pass over the children of each
// node: asking each message for its place among many alternatives would
// walk their siblings once per alternative. Parents come before their
// children in t.all, so a reply takes its Excluded from its parent's,
// which is its turn's (excludedNode) without a walk up to the turn.
func (t *tree) placeAll() {
	place := func(p *node) {
		for i, n := range p.children {
			m := n.msg
			m.AltIndex, m.AltCount = i, len(p.children)
			if n.hintCount > 0 {
				m.AltIndex, m.AltCount = n.hintIndex, n.hintCount
			}
		}
	}
	place(t.root)
	for _, n := range t.all {
		place(n)
		switch n.msg.Role {
		case api.RoleUser:
			n.msg.Excluded = n.excluded
		case RoleImages:
			n.msg.Excluded = false
		default:
			n.msg.Excluded = n.parent.msg.Excluded
		}
	}
}

// followNewest points every node to the child that holds its newest
// message, the way into a branch not shown since it was loaded. Children
// have larger ids than their parents and come later in t.all, so one pass
// from the newest node back carries each subtree's newest id up; a node's
// newest is kept by its place in t.all (found by id), not in a map.
func (t *tree) followNewest() {
	newest := make([]int, len(t.all))
	rootNewest := 0
	for i := len(t.all) - 1; i >= 0; i-- {
		n := t.all[i]
		best := max(newest[i], n.msg.ID)
		at := &rootNewest
		if n.parent != t.root {
			j, _ := slices.BinarySearchFunc(t.all[:i], n.parent.msg.ID, func(x *node, id int) int { return x.msg.ID - id })
			at = &newest[j]
		}
		if best > *at {
			*at = best
			n.parent.active = n
		}
	}
}
