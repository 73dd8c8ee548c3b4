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
// may start from another number then (resetCodes).

// exactCountBytes is the longest text whose code blocks are counted by
// parsing it on the Update goroutine (about 36 µs per KB here; deep
// nesting costs more); a longer one gets an estimate until it is rendered,
// which gives the exact count (exactCodes).
const exactCountBytes = 4 << 10

// countCodes is how many labelled code blocks an item shows, or for a long
// reply not rendered yet an estimate.
func (t *Transcript) countCodes(it *item) int {
	if it.isUser() || it.msg.IsImages() {
		return 0
	}
	it.prepare()
	switch {
	case it.live != nil:
		if it.live.doc == nil {
			return mdstream.EstimateCodeBlocks(it.live.safe.String())
		}
		return it.live.doc.CodeBlocks()
	case len(it.text) <= exactCountBytes:
		return t.counter.Count(it.text)
	}
	return mdstream.EstimateCodeBlocks(it.text)
}

// exactCodes takes the count of code blocks a rendering of it numbered.
func (t *Transcript) exactCodes(it *item, n int) {
	if i, ok := t.index[it.id()]; ok && t.items[i] == it {
		t.setCodes(i, n)
	}
}

// countBefore counts the code blocks of every message before item i not
// counted yet.
func (t *Transcript) countBefore(i int) {
	for ; t.counted < i; t.counted++ {
		it := t.items[t.counted]
		if it.counted {
			continue
		}
		it.codes, it.counted = t.countCodes(it), true
		// Only items not counted follow: nothing rendered with labels
		// (resetCodes), so no number shown moves.
		t.codes.set(t.counted, it.codes)
	}
}

// codeBase is the number of code blocks before item i.
func (t *Transcript) codeBase(i int) int {
	t.countBefore(i)
	return t.codes.prefix(i)
}

// baseOf is codeBase for an item about to be rendered (0 for a message
// that has no code blocks, whatever is before it). The item is counted
// too: a rendering with labels is only made of a counted item.
func (t *Transcript) baseOf(it *item) int {
	if it.isUser() || it.msg.IsImages() {
		return 0
	}
	if i, ok := t.index[it.id()]; ok {
		t.countBefore(i + 1)
		return t.codes.prefix(i)
	}
	return 0
}

// setCodes records item i's count of code blocks; the items after it whose
// labels change are rendered again (at once in the window, lazily
// elsewhere).
func (t *Transcript) setCodes(i, n int) {
	it := t.items[i]
	it.codes, it.counted = n, true
	if t.codes.get(i) == n {
		return
	}
	t.codes.set(i, n)
	t.renumber(i + 1)
}

// resetCodes rebuilds the numbering from the items' own counts (those not
// counted stand for 0, from the first of them on nothing is known) and
// renders again the items whose labels change: those before the first
// item not counted whose labels start from another number now, and those
// after it that show labels.
func (t *Transcript) resetCodes() {
	ns := make([]int, len(t.items))
	t.counted = len(t.items)
	for i, it := range t.items {
		if it.counted {
			ns[i] = it.codes
		} else if t.counted == len(t.items) {
			t.counted = i
		}
	}
	t.codes.reset(ns)
	stale := false
	for _, it := range t.items[t.counted:] {
		if it.rendered && it.codes > 0 && it.gen != -1 {
			it.gen = -1 // labelled before the count reaches it: stale
			stale = true
		}
	}
	t.renumber(0)
	if stale {
		t.startLazy()
	}
}

// renumber marks stale the rendered items from from on whose labels start
// from another number now. Only the counted ones can have labels that are
// fresh (see resetCodes).
func (t *Transcript) renumber(from int) {
	if from >= t.counted {
		return
	}
	stale := false
	base := t.codes.prefix(from)
	for j := from; j < t.counted; j++ {
		it := t.items[j]
		if it.rendered && it.base != base && it.codes > 0 {
			it.gen = -1 // its lines serve as an estimate until rendered again
			stale = true
		}
		base += it.codes
	}
	if stale {
		// The caller makes the window fresh again (every entry point
		// ends with ensureWindow); the rest is rendered lazily.
		t.startLazy()
	}
}

// CodeBlock returns the code of block n (from 1) as its label shows it,
// counting the code blocks of every message in the transcript in order,
// and false when there is no block n. The root's /copy N and its keys use
// it.
func (t *Transcript) CodeBlock(n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	// Count as far as block n.
	for t.counted < len(t.items) && t.codes.prefix(t.counted) < n {
		t.countBefore(t.counted + 1)
	}
	if n > t.codes.prefix(t.counted) {
		return "", false
	}
	i, off := t.codes.find(n - 1)
	it := t.items[i]
	text := it.text
	if it.live != nil {
		text = it.live.safe.String()
	}
	blocks := mdstream.CodeBlocks(text)
	if off >= len(blocks) {
		return "", false
	}
	return blocks[off], true
}

// CodeBlocks returns how many code blocks the transcript numbers (every
// message is counted for it).
func (t *Transcript) CodeBlocks() int {
	t.countBefore(len(t.items))
	return t.codes.total()
}

// MessageCodeBlock returns code block n (from 1) of message id, the number
// its label shows, and how many code blocks the message has (n past them,
// or a message the transcript does not show: "", 0 and the count).
func (t *Transcript) MessageCodeBlock(id, n int) (code string, label, count int) {
	i, ok := t.index[id]
	if !ok {
		return "", 0, 0
	}
	it := t.items[i]
	it.prepare()
	text := it.text
	if it.live != nil {
		text = it.live.safe.String()
	}
	blocks := mdstream.CodeBlocks(text)
	if n < 1 || n > len(blocks) {
		return "", 0, len(blocks)
	}
	return blocks[n-1], t.codeBase(i) + n, len(blocks)
}
