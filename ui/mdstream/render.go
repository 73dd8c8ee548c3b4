package mdstream

import (
	"bytes"
	"slices"
	"time"
)

// firstAt reports whether no chunk before i has any block: the run at i
// is then the document's first (glamour starts it without a blank line).
func (d *Doc) firstAt(i int) bool {
	for j := 0; j < i; j++ {
		if d.chunks[j].nodes {
			return false
		}
	}
	return true
}

func (d *Doc) renderChunks(r *Renderer) {
	base := d.codeBase
	for i := range d.chunks {
		if !d.chunks[i].rendered {
			d.renderChunk(r, i, base)
		}
		base += d.chunks[i].codes
	}
}

// codesBefore is the number of the last code block before chunk i: the
// code blocks before the message (SetCodeBase) and of the chunks before i.
func (d *Doc) codesBefore(i int) int {
	n := d.codeBase
	for _, c := range d.chunks[:i] {
		n += c.codes
	}
	return n
}

// renderChunk renders chunk i; base is codesBefore(i).
func (d *Doc) renderChunk(r *Renderer, i, base int) {
	c := &d.chunks[i]
	if d.frameOver() {
		// This frame's time is up: plain text until the next one.
		c.pieces = make([]piece, 1)
		c.pieces[0].setPlain(d.src[c.start:c.end], r.width)
		c.rendered = false
		d.deferred = true
		if i < d.baseN {
			d.baseN = 0
		}
		return
	}
	first := d.firstAt(i)
	if i == len(d.chunks)-1 && d.closeFence(r, c, first, base) {
		return
	}
	md := r.body
	if first {
		md = r.first
	}
	ctx := &refContext{table: &d.refs, start: c.start}
	res, err := r.renderRaw(d.src[c.start:c.end], md, first, ctx, base)
	d.stats.BlockRenders++
	final := true
	if err != nil {
		final = d.failed(r, err)
	}
	c.nodes = res.nodes
	c.codes = res.codes
	c.defs = ctx.Context.References()
	if len(c.defs) > 0 {
		d.hasRefs = true
	}
	// A new slice, never the old one's storage: a Job's copy of the Doc
	// may still be reading it (see Doc.snapshot).
	c.lookups = slices.Clone(ctx.lookups)
	c.refSig = d.refs.signature(c.lookups, c.start, c.defs)
	c.pieces = make([]piece, 1)
	if err != nil {
		c.pieces[0].setPlain(d.src[c.start:c.end], r.width)
	} else {
		c.pieces[0].set(res.raw, r.width)
	}
	c.rendered = final
	if i < d.baseN {
		d.baseN = 0 // an earlier piece changed: rebuild the joined base
	}
}

// failed handles a render that returned err: the renderer is made fresh
// (glamour's block stack may be left half full) and the caller shows the
// text plain. It reports whether that is final: a render stopped by its
// budget while Frame renders on the caller's goroutine is not, it is
// done again by a Job (d.slow).
func (d *Doc) failed(r *Renderer, err error) bool {
	r.rebuild()
	if d.sync && interrupted(err) {
		d.slow = true
		return false
	}
	return true
}

// fallbackRaw shows source text as it is when the renderer failed.
func fallbackRaw(src []byte) string {
	s := string(src)
	if !bytes.HasSuffix(src, []byte("\n")) {
		s += "\n"
	}
	return s
}

func (d *Doc) renderTail(r *Renderer) {
	t := &d.tail
	fenceMode := !d.finished && d.sc.fenceOpen && d.sc.fenceStart == d.stable
	end := d.tailEnd()
	if t.valid && t.start == d.stable && t.end == end && t.finished == d.finished {
		return
	}
	if t.start != d.stable {
		t.fence = fenceCache{}
	}
	if !fenceMode && !d.finished && t.valid && t.start == d.stable && !t.finished &&
		end > t.rendered && end-d.stable > d.tailLimit() && (end-d.stable)*4 < (t.rendered-d.stable)*5 {
		// A large tail that grew by less than a quarter: its rendering
		// stays, the new text shows plain.
		t.end = end
		var p piece
		p.setPlain(d.src[t.rendered:end], r.width)
		t.extra = []piece{p}
		return
	}
	t.valid, t.start, t.end, t.finished = true, d.stable, end, d.finished
	t.rendered, t.extra = end, nil
	t.defs = nil
	if d.frameOver() {
		// This frame's time is up: plain text until the next one.
		t.valid = false
		t.fence = fenceCache{}
		var p piece
		p.setPlain(d.src[d.stable:end], r.width)
		t.pieces = []piece{p}
		d.deferred = true
		return
	}
	first := d.firstAt(len(d.chunks))
	if fenceMode {
		t.pieces = d.renderOpenFence(r, first, end, d.codesBefore(len(d.chunks)))
		t.codes = 1
		return
	}
	t.fence = fenceCache{}
	md := r.body
	if first {
		md = r.first
	}
	ctx := &refContext{table: &d.refs, start: d.stable}
	res, err := r.renderRaw(d.src[d.stable:end], md, first, ctx, d.codesBefore(len(d.chunks)))
	t.codes = res.codes
	d.stats.TailRenders++
	if err != nil && !d.failed(r, err) {
		t.valid = false
		d.slowAt = d.stable + 1
	}
	t.defs = ctx.Context.References()
	if len(t.defs) > 0 {
		d.hasRefs = true
	}
	// A new slice every time: see renderChunk.
	t.pieces = make([]piece, 1)
	if err != nil {
		t.pieces[0].setPlain(d.src[d.stable:end], r.width)
	} else {
		t.pieces[0].set(res.raw, r.width)
	}
}

// refreshRefs rebuilds the link reference table and renders again the runs
// whose references now resolve differently.
func (d *Doc) refreshRefs(r *Renderer) {
	d.refs = refTable{}
	for i := range d.chunks {
		d.refs.add(d.chunks[i].start, d.chunks[i].defs)
	}
	d.refs.add(d.stable, d.tail.defs)
	for i := range d.chunks {
		c := &d.chunks[i]
		if len(c.lookups) == 0 {
			continue
		}
		if d.refs.signature(c.lookups, c.start, c.defs) != c.refSig {
			d.renderChunk(r, i, d.codesBefore(i))
		}
	}
}

// compose joins head, chunks, tail and foot into d.out.
func (d *Doc) compose(r *Renderer) {
	if d.baseN == 0 {
		d.base = joiner{}
		d.base.init(r)
		var h piece
		h.set(r.head, r.width)
		d.base.add(&h)
	}
	for ; d.baseN < len(d.chunks); d.baseN++ {
		for k := range d.chunks[d.baseN].pieces {
			d.base.add(&d.chunks[d.baseN].pieces[k])
		}
	}
	j := d.base
	j.out = make([]string, len(d.base.out), len(d.base.out)+64)
	copy(j.out, d.base.out)
	for i := range d.tail.pieces {
		j.add(&d.tail.pieces[i])
	}
	for i := range d.tail.extra {
		j.add(&d.tail.extra[i])
	}
	if len(d.over) > 0 {
		j.addLines(d.overView.render(d.over, r.width))
	}
	var f piece
	f.set(r.foot, r.width)
	j.add(&f)
	d.out = j.finish()
}

// frameOver reports whether Frame's time for this call is used up (the
// renders it starts are cut short, see renderChunk and renderTail).
func (d *Doc) frameOver() bool {
	return d.sync && !d.frameEnd.IsZero() && time.Now().After(d.frameEnd)
}
