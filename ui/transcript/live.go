package transcript

import (
	"slices"

	"parley/ui/mdstream"
)

// refitLive brings a streaming reply's body up to date with its document:
// only the Markdown lines from the first one that changed are fitted again
// (finished blocks come back from the document's cache as the same strings,
// so the comparison runs through them at pointer speed and stops at the
// tail). What the document cannot render within a frame waits for a job
// (live.wantJob); meanwhile it shows what it has.
func (t *Transcript) refitLive(it *item) {
	l := it.live
	l.dirty = false
	var md []string
	switch {
	case t.naive || l.doc == nil:
		// The baseline the benchmarks compare against: the whole message
		// rendered again on every frame (whatever that takes).
		if s := l.safe.String(); s != "" {
			r := t.engine().r
			r.SetBudget(0, nil)
			md = trimBlank(r.Render(t.lay(s)))
			r.SetBudget(t.syncBudget, nil)
		}
	default:
		var next mdstream.Next
		l.doc.SetCodeBase(it.base)
		md, next = l.doc.Frame(t.engine().r)
		md = trimBlank(md)
		switch next {
		case mdstream.Again:
			l.dirty = true
		case mdstream.NeedJob:
			l.wantJob = true
		}
	}
	k := 0
	for k < len(md) && k < len(l.md) && md[k] == l.md[k] {
		k++
	}
	// The lines after the change may be the same too (the plain part of a
	// reply past mdstream.MaxMarkdownBytes, after its Markdown changed):
	// their fitted lines are kept.
	s := 0
	for s < len(md)-k && s < len(l.md)-k && md[len(md)-1-s] == l.md[len(l.md)-1-s] {
		s++
	}
	var kept []string
	var keptStarts []int
	if s > 0 {
		from := l.mdStart[len(l.md)-s]
		kept = slices.Clone(it.body[from:])
		keptStarts = slices.Clone(l.mdStart[len(l.md)-s:])
	}
	if k < len(l.mdStart) {
		it.body = it.body[:l.mdStart[k]]
	}
	l.mdStart = l.mdStart[:k]
	for _, line := range md[k : len(md)-s] {
		l.mdStart = append(l.mdStart, len(it.body))
		it.body = fitLine(it.body, replyIndent, len(replyIndent), line, t.w)
	}
	if s > 0 {
		shift := len(it.body) - keptStarts[0]
		for _, st := range keptStarts {
			l.mdStart = append(l.mdStart, st+shift)
		}
		it.body = append(it.body, kept...)
	}
	// A copy: the document may hand out the same backing array again.
	l.md = append(l.md[:0], md...)
}
