package mdstream

import (
	"bytes"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Text that looks like HTML is shown as it is written (Options.Literal).
// CommonMark reads "Vec<u8>", "<T extends Comparable<T>>", "a<b>c" and
// "Wrap it in a <div>" as raw HTML, and glamour strips every tag from raw
// HTML, so a reply about generics or templates lost words ("Use List or
// Vec here"). A chat never interprets HTML: inline raw HTML becomes text,
// an HTML block becomes its lines of text. glamour decodes entity
// references in text and in code spans ("&amp;" shows as "&"); the text
// made here and code spans keep their "&" as written.

// appendKeepingAmps appends b with every "&" written as "&amp;", which
// glamour's entity decoding turns back into the "&" that was written.
func appendKeepingAmps(dst, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, '&')
		if i < 0 {
			return append(dst, b...)
		}
		dst = append(dst, b[:i]...)
		dst = append(dst, "&amp;"...)
		b = b[i+1:]
	}
}

// rawHTML shows inline raw HTML as text (a tag spanning lines on one).
func (p *preparer) rawHTML(n *gast.RawHTML) {
	var raw []byte
	for i := 0; i < n.Segments.Len(); i++ {
		s := n.Segments.At(i)
		raw = append(raw, s.Value(p.src)...)
	}
	if bytes.ContainsAny(raw, "\r\n") {
		raw = bytes.Join(bytes.Fields(raw), []byte(" "))
	}
	p.swaps = append(p.swaps, swap{n, p.literalText(raw)})
}

// literalText appends b to the extended source, its "&" kept, and returns
// a Text node for it.
func (p *preparer) literalText(b []byte) *gast.Text {
	start := len(p.ext)
	p.ext = appendKeepingAmps(p.ext, b)
	return gast.NewTextSegment(text.NewSegment(start, len(p.ext)))
}

// htmlBlock shows an HTML block as its lines of text: a text block, whose
// line breaks glamour keeps, between blank lines as a paragraph's.
func (p *preparer) htmlBlock(n *gast.HTMLBlock) {
	tb := gast.NewTextBlock()
	tb.SetLines(n.Lines())
	tb.AppendChild(tb, gast.NewTextSegment(p.newline()))
	lines := n.Lines()
	segs := make([]text.Segment, 0, lines.Len()+1)
	for i := 0; i < lines.Len(); i++ {
		segs = append(segs, lines.At(i))
	}
	if n.HasClosure() {
		segs = append(segs, n.ClosureLine)
	}
	for i, s := range segs {
		t := p.literalText(bytes.TrimRight(s.Value(p.src), "\r\n"))
		t.SetSoftLineBreak(i < len(segs)-1)
		tb.AppendChild(tb, t)
	}
	tb.AppendChild(tb, gast.NewTextSegment(p.newline()))
	p.swaps = append(p.swaps, swap{n, tb})
}

// codeAmps keeps the "&" of a code span as written: glamour decodes the
// entity references in a code span's text, which CommonMark leaves alone.
func (p *preparer) codeAmps(n *gast.CodeSpan) {
	has := false
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*gast.Text); ok && bytes.IndexByte(t.Segment.Value(p.src), '&') >= 0 {
			has = true
			break
		}
	}
	if !has {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*gast.Text)
		if !ok {
			continue
		}
		start := len(p.ext)
		p.ext = appendKeepingAmps(p.ext, t.Segment.Value(p.src))
		t.Segment = text.NewSegment(start, len(p.ext))
	}
}
