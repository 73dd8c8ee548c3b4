package transcript

import "parley/ui/mdstream"

// Code block numbers run through the transcript (issue 15 §14): a reply's
// blocks are labelled from the number of code blocks in the messages
// before it plus one, so "[12]" is block 12 wherever it is and CodeBlock(12)
// returns it. Each item keeps how many code blocks it shows (codes, in a
// Fenwick tree for the numbers before an item) and the number its
// rendering started from (base); when a count changes, the items after it
// whose numbers moved are rendered again.

// exactCountBytes is the longest text whose code blocks are counted by
// parsing it on the Update goroutine (about 36 µs per KB here; deep
// nesting costs more); a longer one gets an estimate until it is rendered,
// which gives the exact count (exactCodes).
const exactCountBytes = 4 << 10

// countCodes is how many labelled code blocks an item shows, or for a long
// reply not rendered yet an estimate.
func (t *Transcript) countCodes(it *item) int {
	switch {
	case it.isUser() || it.msg.IsImages():
		return 0
	case it.live != nil:
		if it.live.doc == nil {
			return mdstream.EstimateCodeBlocks(it.live.safe.String())
		}
		return it.live.doc.CodeBlocks()
	case len(it.text) <= exactCountBytes:
		return mdstream.CountCodeBlocks(it.text)
	}
	return mdstream.EstimateCodeBlocks(it.text)
}

// exactCodes takes the count of code blocks a rendering of it numbered.
func (t *Transcript) exactCodes(it *item, n int) {
	if i, ok := t.index[it.id()]; ok && t.items[i] == it {
		t.setCodes(i, n)
	}
}

// codeBase is the number of code blocks before item i.
func (t *Transcript) codeBase(i int) int { return t.codes.prefix(i) }

// baseOf is codeBase for an item.
func (t *Transcript) baseOf(it *item) int {
	if i, ok := t.index[it.id()]; ok {
		return t.codeBase(i)
	}
	return 0
}

// setCodes records item i's count of code blocks; the items after it whose
// labels change are rendered again (at once in the window, lazily
// elsewhere).
func (t *Transcript) setCodes(i, n int) {
	t.items[i].codes = n
	if t.codes.get(i) == n {
		return
	}
	t.codes.set(i, n)
	t.renumber(i + 1)
}

// resetCodes rebuilds the counts from the items' own and renders again the
// items from the first one whose labels change.
func (t *Transcript) resetCodes() {
	ns := make([]int, len(t.items))
	for i, it := range t.items {
		ns[i] = it.codes
	}
	t.codes.reset(ns)
	t.renumber(0)
}

// renumber marks stale the rendered items from from on whose labels start
// from another number now.
func (t *Transcript) renumber(from int) {
	stale := false
	base := t.codeBase(min(from, len(t.items)))
	for j := from; j < len(t.items); j++ {
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
	if n < 1 || n > t.codes.total() {
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

// CodeBlocks returns how many code blocks the transcript numbers.
func (t *Transcript) CodeBlocks() int { return t.codes.total() }

// MessageCodeBlock returns code block n (from 1) of message id, the number
// its label shows, and how many code blocks the message has (n past them,
// or a message the transcript does not show: "", 0 and the count).
func (t *Transcript) MessageCodeBlock(id, n int) (code string, label, count int) {
	i, ok := t.index[id]
	if !ok {
		return "", 0, 0
	}
	it := t.items[i]
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
