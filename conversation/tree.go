package conversation

import (
	"iter"
	"slices"
	"strings"
	"time"

	"parley/api"
)

// The conversation is a tree of messages. Each message follows its
// parent; the children of one parent are alternatives of each other (an
// edited question beside the original, a regenerated reply beside the
// earlier one), oldest first. The active path runs from a first message
// to the active leaf: it is what the screen shows and what a request
// carries, and Len, At, Messages, LastUser, LastReply and BuildRequest
// all mean it. Every node remembers which child the active path last
// went through, so switching back to a branch brings back the leaf it
// was on.

// node is one message in the tree.
type node struct {
	// msg holds the message: Parent is kept; Excluded, AltIndex and
	// AltCount are worked out for each copy (see copyOf) and may be out
	// of date here. A Message is never changed once a node holds it: a
	// change makes a new one (edit), so the messages PathMessages shares
	// with a view stay what they were when it read them.
	msg      *Message
	parent   *node   // the virtual root for a first message
	children []*node // oldest first
	// active is the child the active path last went through; nil means
	// the newest child.
	active *node
	// depth is the node's index on every path through it.
	depth int
	// excluded: this user message's turn is left out of requests.
	excluded bool
	// hintIndex and hintCount are the alternatives a partial snapshot
	// said the message has (the store counted them; the conversation
	// does not hold the siblings).
	hintIndex, hintCount int
	// fl is what the message gathers while it is in flight (nil
	// otherwise).
	fl *flight
}

// flight is a reply in flight's text and reasoning so far, and what of
// them the last ChangeProgress did not report. Appending to a builder is
// amortised O(len(delta)) and its String does not copy, which keeps a
// delta cheap even when the reply is long. Each reply of a compare has
// its own, so siblings stream side by side.
type flight struct {
	text, reasoning  strings.Builder
	lastProgress     time.Time
	unsavedText      bool
	unsavedReasoning int
}

// tree holds a conversation's messages and its active path: the nodes,
// their order, the ids they take, and the walks over them. It changes
// nothing by itself that a listener would hear: the Conversation that
// owns it reports each change.
type tree struct {
	// root is a virtual node (id 0, depth -1): its children are the
	// messages that open the conversation.
	root *node
	// all holds every node in order of id (parents before children): a
	// new message takes an id larger than any, so appending keeps the
	// order, and a node is found by its id in it (node) without a map
	// beside it (a 10,000-message session's would take 0.3 MB).
	all []*node
	// path is the active path, root excluded.
	path []*node
	// partial: restored from a window of the active path (LoadTail); the
	// rest of the tree is not held.
	partial bool
	nextID  int
}

// TreeView reads every branch of a conversation, not only the path it
// shows: a message's alternatives, the path to any message, the list of
// branches, what all replies cost. It changes nothing; read it before the
// conversation changes again.
type TreeView struct{ t *tree }

// Tree is the read-only view of every branch of the conversation.
func (c *Conversation) Tree() TreeView { return TreeView{&c.tree} }

func newTree() tree {
	return tree{root: &node{depth: -1, msg: &Message{}}, nextID: 1}
}

// edit replaces n's message by a copy changed by change: the message n
// held stays as it was for whoever shares it (see node.msg). The copy
// shares the slices and pointers of the old one, so change replaces a
// slice or a pointer it changes, never what it points to.
func (n *node) edit(change func(m *Message)) {
	m := *n.msg
	change(&m)
	n.msg = &m
}

// leaf returns the last node of the active path, or the root.
func (t *tree) leaf() *node {
	if n := len(t.path); n > 0 {
		return t.path[n-1]
	}
	return t.root
}

// Leaf returns the id of the active path's last message (0 when the
// conversation is empty). It usually has no children; it may have some
// in other branches (after RemoveLast of an alternative).
func (c *Conversation) Leaf() int { return c.tree.leaf().msg.ID }

// node returns the node with the given id, or nil.
func (t *tree) node(id int) *node {
	if id == 0 {
		return nil
	}
	if i, ok := t.find(id); ok {
		return t.all[i]
	}
	return nil
}

// find returns the index in t.all of the node with the given id.
func (t *tree) find(id int) (int, bool) {
	return slices.BinarySearchFunc(t.all, id, func(x *node, id int) int { return x.msg.ID - id })
}

// onPath reports whether n is on the active path.
func (t *tree) onPath(n *node) bool {
	return n.depth >= 0 && n.depth < len(t.path) && t.path[n.depth] == n
}

// pathTo returns the nodes from a first message to n (empty for the
// root).
func pathTo(n *node) []*node {
	if n.depth < 0 {
		return nil
	}
	p := make([]*node, n.depth+1)
	for x := n; x.depth >= 0; x = x.parent {
		p[x.depth] = x
	}
	return p
}

// descend continues p from its last node (or from the root when p is
// empty) to a leaf, through the child each node was last on.
func (t *tree) descend(p []*node) []*node {
	at := t.root
	if len(p) > 0 {
		at = p[len(p)-1]
	}
	for len(at.children) > 0 {
		next := at.active
		if next == nil {
			next = at.children[len(at.children)-1]
		}
		p = append(p, next)
		at = next
	}
	return p
}

// setPath makes p the active path and remembers it in every node on it.
func (t *tree) setPath(p []*node) {
	t.path = p
	parent := t.root
	for _, n := range p {
		parent.active = n
		parent = n
	}
}

// attach adds m as a child of the active leaf, at the end of the active
// path; the conversation reports it with ChangeAppend.
func (t *tree) attach(m Message) *node {
	parent := t.leaf()
	m.Parent = parent.msg.ID
	n := &node{msg: &m, parent: parent, depth: parent.depth + 1}
	parent.children = append(parent.children, n)
	parent.active = n
	t.all = append(t.all, n)
	t.path = append(t.path, n)
	return n
}

// detach drops n, which has no children, from the tree (and the active
// path); the conversation reports it with ChangeRemove.
func (t *tree) detach(n *node) {
	p := n.parent
	p.children = slices.DeleteFunc(p.children, func(x *node) bool { return x == n })
	if p.active == n {
		p.active = nil
	}
	if t.onPath(n) {
		clear(t.path[n.depth:])
		t.path = t.path[:n.depth]
	}
	if i, ok := t.find(n.msg.ID); ok {
		t.all = slices.Delete(t.all, i, i+1)
	}
}

// alternatives returns n's place among its siblings.
func (t *tree) alternatives(n *node) (index, count int) {
	if n.hintCount > 0 {
		return n.hintIndex, n.hintCount
	}
	sibs := n.parent.children
	for i := len(sibs) - 1; i >= 0; i-- {
		if sibs[i] == n {
			return i, len(sibs)
		}
	}
	return 0, 1
}

// lastIndex returns the index on the active path of its last message of
// the given role, or -1.
func (t *tree) lastIndex(role string) int {
	for i := len(t.path) - 1; i >= 0; i-- {
		if t.path[i].msg.Role == role {
			return i
		}
	}
	return -1
}

// takeID returns the id the next new message takes.
func (t *tree) takeID() int {
	id := t.nextID
	t.nextID++
	return id
}

// turnHead returns the user message whose turn n belongs to: n itself,
// or the user message its replies follow; nil for an image turn (never
// sent) and for a reply whose user message is not held.
func turnHead(n *node) *node {
	for x := n; x != nil && x.depth >= 0; x = x.parent {
		switch x.msg.Role {
		case api.RoleUser:
			return x
		case RoleImages:
			return nil
		}
	}
	return nil
}

func excludedNode(n *node) bool {
	h := turnHead(n)
	return h != nil && h.excluded
}

// copyOf is the message of n as callers see it.
func (t *tree) copyOf(n *node, excluded bool) Message {
	m := n.msg.clone()
	m.Excluded = excluded
	m.AltIndex, m.AltCount = t.alternatives(n)
	return m
}

// copies returns copies of the messages of p, their Excluded worked out
// in one pass.
func (t *tree) copies(p []*node) []Message {
	out := make([]Message, 0, len(p))
	for n, ex := range withExcluded(p) {
		out = append(out, t.copyOf(n, ex))
	}
	return out
}

// eachShared yields the messages of p themselves, not copies, each with
// its Excluded, AltIndex and AltCount brought up to date first (see
// shared).
func (t *tree) eachShared(p []*node) iter.Seq[*Message] {
	return func(yield func(*Message) bool) {
		for n, ex := range withExcluded(p) {
			if !yield(t.shared(n, ex)) {
				return
			}
		}
	}
}

// shared is n's message as a copy of it would be (copyOf), without
// copying it when it already is: its Excluded, AltIndex and AltCount are
// brought up to date in a new message only when they changed.
func (t *tree) shared(n *node, excluded bool) *Message {
	i, c := t.alternatives(n)
	if m := n.msg; m.Excluded != excluded || m.AltIndex != i || m.AltCount != c {
		n.edit(func(m *Message) { m.Excluded, m.AltIndex, m.AltCount = excluded, i, c })
	}
	return n.msg
}

// withExcluded yields the nodes of p with their Excluded, worked out in
// one pass.
func withExcluded(p []*node) iter.Seq2[*node, bool] {
	return func(yield func(*node, bool) bool) {
		ex := len(p) > 0 && excludedNode(p[0])
		for _, n := range p {
			switch n.msg.Role {
			case api.RoleUser:
				ex = n.excluded
			case RoleImages:
				ex = false
			}
			if !yield(n, ex) {
				return
			}
		}
	}
}

// noise reports whether n ended without anything to keep: a reply that
// failed or was interrupted before any text or reasoning, an image turn
// that did so before any image. Making it again replaces it instead of
// keeping it as an alternative; a reply stopped while it was thinking
// keeps its thinking.
func noise(n *node) bool {
	m := n.msg
	if m.State != StateFailed && m.State != StateInterrupted {
		return false
	}
	if m.Role == RoleImages {
		return len(m.Attachments) == 0
	}
	return m.Role == api.RoleAssistant && m.Text == "" && m.Reasoning == "" && len(m.Attachments) == 0
}
