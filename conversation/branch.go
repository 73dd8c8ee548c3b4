package conversation

import (
	"errors"
	"fmt"
	"slices"

	"parley/api"
)

// What changes the shape of the tree or the active path: switching
// between alternatives, leaving a turn out, forking. Editing and
// regenerating start turns, so they are in reply.go.

// Errors of the tree's operations, each a sentence for the user.
var (
	// ErrPartial refuses what needs the whole tree while only a window
	// of the session is loaded.
	ErrPartial = errors.New("the session is still loading; try again in a moment")
	// ErrNoMessage wraps the refusal of an id the conversation does not
	// hold.
	ErrNoMessage = errors.New("no such message in this conversation")
	// ErrNotEditable refuses an edit of a message the user did not write.
	ErrNotEditable = errors.New("only a message you wrote can be edited and sent again")
	// ErrNotAReply refuses to regenerate what is not a reply.
	ErrNotAReply = errors.New("only a reply can be regenerated")
	// ErrExcludedTurn refuses to answer a turn that is left out of what
	// the model sees.
	ErrExcludedTurn = errors.New("this turn is left out of what the model sees; include it again before asking for a new reply")
	// ErrImagesNotSent refuses to leave out an image turn: it is never
	// sent.
	ErrImagesNotSent = errors.New("an image turn is never sent to the model, so there is nothing to leave out")
)

func unknownMessage(id int) error { return fmt.Errorf("message %d: %w", id, ErrNoMessage) }

// canBranch refuses a change of the active path while a reply streams
// (it is the path's last message and must stay there) or while only a
// window of the session is held.
func (c *Conversation) canBranch() error {
	if c.Streaming() != 0 {
		return ErrBusy
	}
	if c.tree.partial {
		return ErrPartial
	}
	return nil
}

// branchUnder makes base the active path's last message, so that the
// message appended next is a new child of base, beside old (a child of
// base, or nil). old is dropped instead of kept as an alternative when it
// is noise (see noise) and nothing follows it. Listeners hear
// ChangeRemove for a dropped message and ChangeSwitch when the path
// changed.
func (c *Conversation) branchUnder(base, old *node) {
	if old != nil && noise(old) && len(old.children) == 0 {
		c.tree.detach(old)
		c.emit(Change{Kind: ChangeRemove, Removed: []int{old.msg.ID}})
	}
	if c.tree.leaf() != base {
		c.switchPath(pathTo(base))
	}
}

// switchPath makes p the active path, reported with ChangeSwitch (and
// the path's messages) when it differs.
func (c *Conversation) switchPath(p []*node) {
	if slices.Equal(p, c.tree.path) {
		return
	}
	c.tree.setPath(p)
	if len(c.listeners) > 0 {
		c.emit(Change{Kind: ChangeSwitch, Path: c.Messages()})
	}
}

// SwitchTo makes the active path go through the message with the given
// id (anywhere in the tree) and on to the leaf it was last on below it
// (for a branch never shown, its newest child at each step). Listeners
// hear ChangeSwitch when the path changed. Refused while a reply streams
// (ErrBusy) and while the conversation is Partial.
func (c *Conversation) SwitchTo(id int) error {
	if err := c.canBranch(); err != nil {
		return err
	}
	n := c.tree.node(id)
	if n == nil {
		return fmt.Errorf("switch branches: %w", unknownMessage(id))
	}
	c.switchPath(c.tree.descend(pathTo(n)))
	return nil
}

// SwitchAlternative switches to the alternative delta places after the
// message with the given id (-1: the one before, 1: the one after), as
// SwitchTo does, and returns the id of the alternative now on the path.
// The place is clamped to the alternatives there are: at the first or
// last one nothing changes.
func (c *Conversation) SwitchAlternative(id, delta int) (int, error) {
	if err := c.canBranch(); err != nil {
		return id, err
	}
	n := c.tree.node(id)
	if n == nil {
		return id, fmt.Errorf("switch branches: %w", unknownMessage(id))
	}
	sibs := n.parent.children
	i, _ := c.tree.alternatives(n)
	target := sibs[min(max(i+delta, 0), len(sibs)-1)]
	c.switchPath(c.tree.descend(pathTo(target)))
	return target.msg.ID, nil
}

// Alternatives returns the place of the message with the given id among
// its alternatives: index from 0, count at least 1; count is 0 for an id
// the conversation does not hold.
func (v TreeView) Alternatives(id int) (index, count int) {
	n := v.t.node(id)
	if n == nil {
		return 0, 0
	}
	return v.t.alternatives(n)
}

// Siblings returns copies of the alternatives of the message with the
// given id, itself included, oldest first (nil for an unknown id).
func (v TreeView) Siblings(id int) []Message {
	n := v.t.node(id)
	if n == nil {
		return nil
	}
	out := make([]Message, len(n.parent.children))
	for i, s := range n.parent.children {
		out[i] = v.t.copyOf(s, excludedNode(s))
	}
	return out
}

// PathTo returns copies of the messages from the first one to the message
// with the given id, through its parents (nil for an unknown id).
func (v TreeView) PathTo(id int) []Message {
	n := v.t.node(id)
	if n == nil {
		return nil
	}
	return v.t.copies(pathTo(n))
}

// PathTail returns copies of the messages of the path to id from its
// index from on (PathTo for 0; nil for an unknown id or a from past the
// end). It reads only those messages, so writing every branch after the
// one it shares a start with costs what the branches add, not their
// lengths.
func (v TreeView) PathTail(id, from int) []Message {
	n := v.t.node(id)
	if n == nil || from > n.depth {
		return nil
	}
	from = max(from, 0)
	p := make([]*node, n.depth+1-from)
	for x := n; x.depth >= from; x = x.parent {
		p[x.depth-from] = x
	}
	return v.t.copies(p)
}

// SetExcluded leaves the turn of the message with the given id out of
// what the model sees (excluded true), or brings it back. The turn is the
// user message and the replies that follow it, up to the next user
// message or image turn; the id may be any of them. The turn stays on
// screen, marked (Message.Excluded), and is stored. Listeners hear
// ChangeExclude. It is allowed while a reply streams: the request in
// flight is not changed, the next one is.
func (c *Conversation) SetExcluded(id int, excluded bool) error {
	n := c.tree.node(id)
	if n == nil {
		return fmt.Errorf("leave out a turn: %w", unknownMessage(id))
	}
	h := turnHead(n)
	switch {
	case h == nil && n.msg.Role == RoleImages:
		return ErrImagesNotSent
	case h == nil:
		// A reply whose user message is not held: a partial window.
		return ErrPartial
	case h.excluded == excluded:
		return nil
	}
	h.excluded = excluded
	bumpTurn(h)
	var turn []int
	if c.tree.onPath(h) {
		turn = append(turn, h.msg.ID)
		for _, x := range c.tree.path[h.depth+1:] {
			if x.msg.Role != api.RoleAssistant {
				break
			}
			turn = append(turn, x.msg.ID)
		}
	}
	if len(c.listeners) > 0 {
		m := c.tree.copyOf(h, excluded)
		c.emit(Change{Kind: ChangeExclude, Message: &m, Turn: turn})
	}
	return nil
}

// bumpTurn grows the version of every message of h's turn, in every
// branch: their Excluded changed.
func bumpTurn(h *node) {
	h.edit(bump)
	stack := slices.Clone(h.children)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.msg.Role != api.RoleAssistant {
			continue
		}
		x.edit(bump)
		stack = append(stack, x.children...)
	}
}

func bump(m *Message) { m.Version++ }

// Fork returns the conversation up to and including the message with the
// given id (the path to it) as a snapshot for a new session: title,
// system prompt, role, params, the messages with their ids, parents,
// reasoning and left-out turns, and that message as the leaf. A reply
// still streaming cannot be forked from (ErrBusy).
func (c *Conversation) Fork(id int) (Snapshot, error) {
	if c.tree.partial {
		return Snapshot{}, ErrPartial
	}
	n := c.tree.node(id)
	if n == nil {
		return Snapshot{}, fmt.Errorf("fork: %w", unknownMessage(id))
	}
	if n.msg.State == StateStreaming {
		return Snapshot{}, ErrBusy
	}
	msgs := c.tree.copies(pathTo(n))
	for i := range msgs {
		// Alternatives stay behind: in the fork each message is alone.
		msgs[i].AltIndex, msgs[i].AltCount = 0, 1
	}
	return Snapshot{Title: c.title, Titled: c.titled, SystemPrompt: c.system, Role: c.role, Params: c.Params(), Messages: msgs, Leaf: id}, nil
}

// Branch is one path of the tree, from a first message to a leaf.
type Branch struct {
	// Leaf is the id of the branch's last message.
	Leaf int
	// Len is how many messages the branch holds.
	Len int
	// Shared is how many of its first messages it has in common with the
	// branch listed before it (0 for the first).
	Shared int
	// From is the id of the first message the branch holds that neither
	// neighbour in the list holds (its leaf when it has no message of its
	// own past both): where it starts to differ, the edited question or
	// the regenerated reply.
	From int
	// FromAt is From's index on the branch (0 for its first message).
	FromAt int
	// Active: the branch is the active path.
	Active bool
}

// Branches lists every path from a first message to a leaf (a message
// nothing follows), in the tree's order: at each message, its
// alternatives oldest first. A linear conversation has one branch (none
// when empty). It costs one walk of the tree and no copy of any path, so
// a tree of thousands of branches lists in milliseconds.
func (v TreeView) Branches() []Branch {
	var out []Branch
	var leaves []*node
	active := v.t.leaf()
	stack := slices.Clone(v.t.root.children)
	slices.Reverse(stack)
	// In the tree's order the branch before a leaf shares every message
	// above the shallowest one taken off the stack since that branch's
	// leaf: those were all on it, and that one is new.
	fresh := 0
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		fresh = min(fresh, n.depth)
		if len(n.children) > 0 {
			for i := len(n.children) - 1; i >= 0; i-- {
				stack = append(stack, n.children[i])
			}
			continue
		}
		shared := fresh
		if len(out) == 0 {
			shared = 0
		}
		out = append(out, Branch{Leaf: n.msg.ID, Len: n.depth + 1, Shared: shared, Active: n == active})
		leaves = append(leaves, n)
		fresh = n.depth + 1
	}
	for i := range out {
		shared := out[i].Shared
		if i+1 < len(out) {
			shared = max(shared, out[i+1].Shared)
		}
		n := leaves[i]
		for n.depth > shared && n.parent != nil && n.parent.depth >= 0 {
			n = n.parent
		}
		out[i].From, out[i].FromAt = n.msg.ID, n.depth
	}
	return out
}
