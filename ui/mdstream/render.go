package mdstream

import "bytes"

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
	for i := range d.chunks {
		if !d.chunks[i].rendered {
			d.renderChunk(r, i)
		}
	}
}

func (d *Doc) renderChunk(r *Renderer, i int) {
	c := &d.chunks[i]
	first := d.firstAt(i)
	if i == len(d.chunks)-1 && d.closeFence(r, c, first) {
		return
	}
	md := r.body
	if first {
		md = r.first
	}
	ctx := &refContext{table: &d.refs, start: c.start}
	raw, nodes, err := r.renderRaw(d.src[c.start:c.end], md, first, ctx)
	d.stats.BlockRenders++
	if err != nil {
		r.rebuild()
		raw = fallbackRaw(d.src[c.start:c.end])
	}
	c.nodes = nodes
	c.defs = ctx.Context.References()
	if len(c.defs) > 0 {
		d.hasRefs = true
	}
	c.lookups = append(c.lookups[:0], ctx.lookups...)
	c.refSig = d.refs.signature(c.lookups, c.start, c.defs)
	c.pieces = make([]piece, 1)
	c.pieces[0].set(raw, r.width)
	c.rendered = true
	if i < d.baseN {
		d.baseN = 0 // an earlier piece changed: rebuild the joined base
	}
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
	t.valid, t.start, t.end, t.finished = true, d.stable, end, d.finished
	t.defs = nil
	first := d.firstAt(len(d.chunks))
	if fenceMode {
		t.pieces = d.renderOpenFence(r, first, end)
		return
	}
	t.fence = fenceCache{}
	md := r.body
	if first {
		md = r.first
	}
	ctx := &refContext{table: &d.refs, start: d.stable}
	raw, _, err := r.renderRaw(d.src[d.stable:end], md, first, ctx)
	d.stats.TailRenders++
	if err != nil {
		r.rebuild()
		raw = fallbackRaw(d.src[d.stable:end])
	}
	t.defs = ctx.Context.References()
	if len(t.defs) > 0 {
		d.hasRefs = true
	}
	if len(t.pieces) != 1 {
		t.pieces = make([]piece, 1)
	}
	t.pieces[0].set(raw, r.width)
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
			d.renderChunk(r, i)
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
	var f piece
	f.set(r.foot, r.width)
	j.add(&f)
	d.out = j.finish()
}
