package transcript

import "parley/ui/mdstream"

// Code block numbers run through the transcript (issue 15 §14): a reply's
// blocks are labelled from the number of code blocks in the messages
// before it plus one, so "[12]" is block 12 wherever it is and CodeBlock(12)
// returns it. Each item keeps how many code blocks it shows (codes, in a
// Fenwick tree for the numbers before an item) and the number its
// rendering started from (base); when a count changes, the items after it
// whose numbers moved are rendered again.
//
// Counting reads a message's whole text, and a long conversation opened or
// switched to need not be read whole: the labels of a message depend only
// on the messages before it. So the messages are counted in order, as far
// as needed (countBefore): items[:counted] are all counted, and a message
// is rendered (labelled), or CodeBlock looks past the numbers known, only
// after every message before it is counted. A message not counted yet
// stands for 0 blocks in the tree; one after it that is counted (taken
// back by a branch switch) holds its count there, and a rendering of it
// that has labels is stale until the count reaches it, since its labels
// may start from another number then (reset).

// numbering keeps the numbers of the list's code blocks: how many each
// item shows (in a Fenwick tree, for the numbers before an item), how far
// the items are counted, and which renderings must be made again when a
// count changes.
type numbering struct {
	list    *List
	codes   heights // code blocks per item
	counted int     // items[:counted] have their code blocks counted
	counter mdstream.CodeCounter
}

// exactCountBytes is the longest text whose code blocks are counted by
// parsing it on the Update goroutine (about 36 µs per KB here; deep
// nesting costs more); a longer one gets an estimate until it is rendered,
// which gives the exact count (exact).
const exactCountBytes = 4 << 10

// count is how many labelled code blocks an item shows, or for a long
// reply not rendered yet an estimate.
func (nb *numbering) count(it *item) int {
	if it.isUser() || it.msg.IsImages() {
		return 0
	}
	if it.live != nil {
		if it.live.doc == nil {
			return mdstream.EstimateCodeBlocks(it.live.safe.String())
		}
		return it.live.doc.CodeBlocks()
	}
	text := it.safe()
	if len(text) > exactCountBytes {
		return mdstream.EstimateCodeBlocks(text)
	}
	return nb.counter.Count(text)
}

// push counts the code blocks of it, appended to the list.
func (nb *numbering) push(it *item) {
	it.codes, it.counted = nb.count(it), true
	nb.codes.push(it.codes)
}

// exact takes the count of code blocks a rendering of it numbered.
func (nb *numbering) exact(it *item, n int) {
	if i, at, ok := nb.list.at(it.id()); ok && at == it {
		nb.set(i, n)
	}
}

// countBefore counts the code blocks of every message before item i not
// counted yet.
func (nb *numbering) countBefore(i int) {
	for ; nb.counted < i; nb.counted++ {
		it := nb.list.items[nb.counted]
		if it.counted {
			continue
		}
		it.codes, it.counted = nb.count(it), true
		// Only items not counted follow: nothing rendered with labels
		// (reset), so no number shown moves.
		nb.codes.set(nb.counted, it.codes)
	}
}

// base is the number of code blocks before item i.
func (nb *numbering) base(i int) int {
	nb.countBefore(i)
	return nb.codes.prefix(i)
}

// baseOf is base for an item about to be rendered (0 for a message
// that has no code blocks, whatever is before it). The item is counted
// too: a rendering with labels is only made of a counted item.
func (nb *numbering) baseOf(it *item) int {
	if it.isUser() || it.msg.IsImages() {
		return 0
	}
	if i, ok := nb.list.pos(it.id()); ok {
		nb.countBefore(i + 1)
		return nb.codes.prefix(i)
	}
	return 0
}

// set records item i's count of code blocks; the items after it whose
// labels change are rendered again (at once in the window, lazily
// elsewhere).
func (nb *numbering) set(i, n int) {
	it := nb.list.items[i]
	it.codes, it.counted = n, true
	if nb.codes.get(i) == n {
		return
	}
	nb.codes.set(i, n)
	nb.renumber(i + 1)
}

// reset rebuilds the numbering from the items' own counts (those not
// counted stand for 0, from the first of them on nothing is known) and
// renders again the items whose labels change: those before the first
// item not counted whose labels start from another number now, and those
// after it that show labels.
func (nb *numbering) reset() {
	ns := make([]int, len(nb.list.items))
	nb.counted = len(nb.list.items)
	for i, it := range nb.list.items {
		if it.counted {
			ns[i] = it.codes
		} else if nb.counted == len(nb.list.items) {
			nb.counted = i
		}
	}
	nb.codes.reset(ns)
	stale := false
	for _, it := range nb.list.items[nb.counted:] {
		if it.rendered() && it.codes > 0 && it.d.gen != -1 {
			it.d.gen = -1 // labelled before the count reaches it: stale
			stale = true
		}
	}
	nb.renumber(0)
	if stale {
		nb.list.startLazy()
	}
}

// renumber marks stale the rendered items from from on whose labels start
// from another number now. Only the counted ones can have labels that are
// fresh (see reset).
func (nb *numbering) renumber(from int) {
	if from >= nb.counted {
		return
	}
	stale := false
	base := nb.codes.prefix(from)
	for j := from; j < nb.counted; j++ {
		it := nb.list.items[j]
		if it.rendered() && it.base != base && it.codes > 0 {
			it.d.gen = -1 // its lines serve as an estimate until rendered again
			stale = true
		}
		base += it.codes
	}
	if stale {
		// The caller makes the window fresh again (every entry point
		// ends with ensureWindow); the rest is rendered lazily.
		nb.list.startLazy()
	}
}

// block returns the code of block n (from 1) as its label shows it,
// counting the code blocks of every message in the transcript in order,
// and false when there is no block n.
func (nb *numbering) block(n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	// Count as far as block n.
	for nb.counted < len(nb.list.items) && nb.codes.prefix(nb.counted) < n {
		nb.countBefore(nb.counted + 1)
	}
	if n > nb.codes.prefix(nb.counted) {
		return "", false
	}
	i, off := nb.codes.find(n - 1)
	it := nb.list.items[i]
	text := it.safe()
	if it.live != nil {
		text = it.live.safe.String()
	}
	blocks := mdstream.CodeBlocks(text)
	if off >= len(blocks) {
		return "", false
	}
	return blocks[off], true
}

// total returns how many code blocks the transcript numbers (every
// message is counted for it).
func (nb *numbering) total() int {
	nb.countBefore(len(nb.list.items))
	return nb.codes.total()
}

// inMessage returns code block n (from 1) of message id, the number
// its label shows, and how many code blocks the message has (n past them,
// or a message the transcript does not show: "", 0 and the count).
func (nb *numbering) inMessage(id, n int) (code string, label, count int) {
	i, ok := nb.list.pos(id)
	if !ok {
		return "", 0, 0
	}
	it := nb.list.items[i]
	text := it.safe()
	if it.live != nil {
		text = it.live.safe.String()
	}
	blocks := mdstream.CodeBlocks(text)
	if n < 1 || n > len(blocks) {
		return "", 0, len(blocks)
	}
	return blocks[n-1], nb.base(i) + n, len(blocks)
}

// CodeBlock returns the code of block n (from 1) as its label shows it,
// and false when there is no block n. The root's /copy N and its keys use
// it.
func (t *Transcript) CodeBlock(n int) (string, bool) { return t.codes.block(n) }

// CodeBlocks returns how many code blocks the transcript numbers.
func (t *Transcript) CodeBlocks() int { return t.codes.total() }

// MessageCodeBlock returns code block n (from 1) of message id, the number
// its label shows, and how many code blocks the message has (n past them,
// or a message the transcript does not show: "", 0 and the count).
func (t *Transcript) MessageCodeBlock(id, n int) (code string, label, count int) {
	return t.codes.inMessage(id, n)
}
