package transcript

// refitLive brings a streaming reply's body up to date with its document:
// only the Markdown lines from the first one that changed are fitted again
// (finished blocks come back from the document's cache as the same strings,
// so the comparison runs through them at pointer speed and stops at the
// tail).
func (t *Transcript) refitLive(it *item) {
	l := it.live
	l.dirty = false
	var md []string
	switch {
	case t.naive || l.doc == nil:
		// The baseline the benchmarks compare against: the whole message
		// rendered again on every frame.
		if s := l.safe.String(); s != "" {
			md = t.engine().Render(s)
		}
	default:
		md = l.doc.Lines(t.engine())
	}
	k := 0
	for k < len(md) && k < len(l.md) && md[k] == l.md[k] {
		k++
	}
	if k < len(l.mdStart) {
		it.body = it.body[:l.mdStart[k]]
	}
	l.mdStart = l.mdStart[:k]
	for _, line := range md[k:] {
		l.mdStart = append(l.mdStart, len(it.body))
		it.body = fitLine(it.body, replyIndent, len(replyIndent), line, t.w)
	}
	// A copy: the document may hand out the same backing array again.
	l.md = append(l.md[:0], md...)
}
