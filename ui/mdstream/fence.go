package mdstream

import (
	"bytes"
	"strings"
)

// fenceCache holds the rendered chunks of an open code fence's lines.
type fenceCache struct {
	pieces []piece
	end    int // source offset where the cached lines end
	char   byte
	length int
}

// renderOpenFence renders the tail when it is a single open code fence.
// Each code line renders to its own lines whatever surrounds it (glamour
// indents and wraps code line by line), so complete lines are rendered
// fenceChunkLines at a time, once, highlighted in the fence's language,
// and only the lines after the last chunk are rendered per frame, as
// plain text: chroma's lexers cost about 8 ms per KB of code here.
//
// The result is, ignoring colours, what glamour gives for the whole fence:
// the first line of the fence's rendering (the blank line glamour puts
// before a code block), the cached chunks, then the rest of the remainder.
// The source is rendered up to end (see tailEnd).
// base is the number of code blocks before the fence, for its label.
func (d *Doc) renderOpenFence(r *Renderer, first bool, end, base int) []piece {
	fc := &d.tail.fence
	src := d.src[:end] // a held-back last line is left out
	complete := min(d.sc.pos, end)
	nl := bytes.IndexByte(src[d.stable:], '\n')
	openerEnd := d.stable + nl + 1
	opener := src[d.stable:openerEnd]
	marker := strings.Repeat(string(d.sc.fenceChar), d.sc.fenceLen)
	if fc.end < openerEnd {
		*fc = fenceCache{end: openerEnd, char: d.sc.fenceChar, length: d.sc.fenceLen}
	}
	for {
		// Keep at least one complete line for the remainder so that it
		// always renders a code line of its own.
		if _, n := lineEnds(src[fc.end:complete], fenceChunkLines+1); n <= fenceChunkLines {
			break
		}
		cut, _ := lineEnds(src[fc.end:complete], fenceChunkLines)
		body := src[fc.end : fc.end+cut]
		var b bytes.Buffer
		b.Grow(len(opener) + len(body) + len(marker) + 1)
		b.Write(opener)
		b.Write(body)
		b.WriteString(marker)
		b.WriteString("\n")
		res, err := r.renderRaw(b.Bytes(), r.body, true, nil, 0)
		d.stats.TailRenders++
		if err != nil {
			if !d.failed(r, err) {
				break // not cached: a Job renders these lines
			}
			res.raw = "\n" + fallbackRaw(body)
		}
		var p piece
		p.set(dropFirstLine(res.raw), r.width)
		p.closeBlank()
		fc.pieces = append(fc.pieces, p)
		fc.end += cut
	}

	var b bytes.Buffer
	b.Grow(len(marker) + 5 + len(src) - fc.end)
	b.WriteString(marker)
	b.WriteString("text\n")
	b.Write(src[fc.end:])
	md := r.body
	if first {
		md = r.first
	}
	r.fenceLang, r.hasFenceLang = fenceLabel(opener), true
	res, err := r.renderRaw(b.Bytes(), md, first, nil, base)
	r.fenceLang, r.hasFenceLang = "", false
	d.stats.TailRenders++
	raw := res.raw
	if err != nil {
		if !d.failed(r, err) {
			d.tail.valid = false
			d.slowAt = d.stable + 1
		}
		raw = "\n" + fallbackRaw(src[fc.end:])
	}
	i := strings.IndexByte(raw, '\n')
	if i < 0 {
		var p piece
		p.set(raw, r.width)
		return []piece{p}
	}
	out := make([]piece, 0, len(fc.pieces)+2)
	var head, rest piece
	head.set(raw[:i+1], r.width)
	rest.set(raw[i+1:], r.width)
	out = append(out, head)
	out = append(out, fc.pieces...)
	out = append(out, rest)
	return out
}

// lineEnds returns the length of the first n lines of b (through their
// newlines) and how many complete lines, up to n, b has.
func lineEnds(b []byte, n int) (int, int) {
	off, k := 0, 0
	for k < n {
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		k++
	}
	return off, k
}

func dropFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return ""
}

// closeFence finishes chunk c from the chunks cached while it streamed, when
// c is exactly the fence the tail was showing: only its last lines and the
// closing fence are rendered, not the whole block again.
func (d *Doc) closeFence(r *Renderer, c *chunk, first bool, base int) bool {
	fc := &d.tail.fence
	if !d.tail.valid || d.tail.start != c.start || fc.end <= c.start || fc.end > c.end {
		return false
	}
	src := d.src
	nl := bytes.IndexByte(src[c.start:c.end], '\n')
	if nl < 0 || !onlyFence(src[fc.end:c.end], fc.char, fc.length) {
		return false
	}
	md := r.body
	if first {
		md = r.first
	}
	opener := src[c.start : c.start+nl+1]
	var b bytes.Buffer
	b.Grow(len(opener) + c.end - fc.end)
	b.Write(opener)
	b.Write(src[fc.end:c.end])
	res, err := r.renderRaw(b.Bytes(), md, first, nil, base)
	d.stats.BlockRenders++
	if err != nil || !res.nodes {
		r.rebuild()
		return false
	}
	raw := res.raw
	i := strings.IndexByte(raw, '\n')
	if i < 0 {
		return false
	}
	c.pieces = make([]piece, 0, len(fc.pieces)+2)
	var head, rest piece
	head.set(raw[:i+1], r.width)
	rest.set(raw[i+1:], r.width)
	c.pieces = append(c.pieces, head)
	c.pieces = append(c.pieces, fc.pieces...)
	c.pieces = append(c.pieces, rest)
	c.nodes = true
	c.codes = 1
	c.defs, c.lookups, c.refSig = nil, nil, ""
	c.rendered = true
	*fc = fenceCache{}
	return true
}

// onlyFence reports whether b is the rest of a fence's code: lines up to
// and including the closing fence, then nothing but blank lines.
func onlyFence(b []byte, ch byte, n int) bool {
	for len(b) > 0 {
		line := b
		b = nil
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line, b = line[:nl], line[nl+1:]
		}
		if isClosingFence(trimCR(line), ch, n) {
			return len(bytes.Trim(b, " \t\r\n")) == 0
		}
	}
	return false
}

// fenceLabel is the label language of a fence's opening line ("" for
// none): the first word of its info string.
func fenceLabel(opener []byte) string {
	info := bytes.TrimLeft(trimCR(bytes.TrimRight(opener, "\n")), " ")
	info = bytes.TrimLeft(info, string(info[:min(1, len(info))]))
	info = bytes.TrimSpace(info)
	if i := bytes.IndexAny(info, " \t"); i >= 0 {
		info = info[:i]
	}
	return labelLang(info)
}
