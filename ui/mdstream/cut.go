package mdstream

import (
	"bytes"
	"strconv"

	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// A cut at offset c splits the source into a finished run of blocks A and
// the rest B. It is accepted only if the parser agrees, on the text at hand:
//
//   - A followed by B's first line parses as A's blocks followed by that
//     line's blocks, so A's blocks are closed by that line (CommonMark never
//     reopens a closed block; link reference definitions, which are
//     document-wide, are handled by refContext);
//   - B's first line is complete or decidable (see decidable), so whatever
//     is appended to it cannot change how it closes A;
//   - A does not end with an HTML block, which glamour writes without a
//     final newline (the next block continues its last line), nor with a
//     definition list, which takes in a later paragraph followed by a
//     ": description" line;
//   - with nothing after c yet, A must end with a closed fenced code block
//     (nothing can continue one): checked by appending a probe line.
//
// Only A and B's first line are parsed, so checking every proposal of a
// long message costs one parse of it in total.
func acceptCut(p parser.Parser, a, rest []byte) bool {
	// Parsed as the renderer parses them: tables over the caps are
	// paragraphs (and cost no more than their size to parse).
	a, _ = plainTables(a)
	aCtx := parser.NewContext()
	aDoc := p.Parse(text.NewReader(a), parser.WithContext(aCtx))
	if endsWithHTML(aDoc) {
		return false
	}
	if last := aDoc.LastChild(); last != nil && last.Kind() == east.KindDefinitionList {
		// A paragraph after a definition list becomes one of its terms
		// when a ": description" line follows it, however late.
		return false
	}
	var line []byte
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		line = rest[:nl+1]
	} else {
		line = rest
		if len(line) > 0 && !decidable(line) {
			return false
		}
	}
	if len(line) == 0 {
		last := aDoc.LastChild()
		if last == nil || last.Kind() != gast.KindFencedCodeBlock {
			return false
		}
		line = []byte("x\n")
	}
	joined := make([]byte, 0, len(a)+len(line))
	joined, _ = plainTables(append(append(joined, a...), line...))
	var want, got bytes.Buffer
	signature(&want, aDoc, a)
	// Definitions in A apply to the line as they do in the joined text.
	lineCtx := parser.NewContext()
	for _, ref := range aCtx.References() {
		lineCtx.AddReference(ref)
	}
	signature(&want, p.Parse(text.NewReader(line), parser.WithContext(lineCtx)), line)
	signature(&got, parse(p, joined), joined)
	return bytes.Equal(want.Bytes(), got.Bytes())
}

func parse(p parser.Parser, src []byte) gast.Node {
	return p.Parse(text.NewReader(src))
}

// endsWithHTML reports whether the document's last block, or the last
// block inside it, is an HTML block.
func endsWithHTML(doc gast.Node) bool {
	for n := doc.LastChild(); n != nil; n = n.LastChild() {
		if n.Kind() == gast.KindHTMLBlock {
			return true
		}
		if n.Type() != gast.TypeBlock {
			return false
		}
	}
	return false
}

// signature writes a description of the top-level nodes of doc: every
// node's kind, the attributes that change rendering, and the text of its
// segments. Positions are left out so that the blocks of a run parsed on
// its own compare equal to the same blocks parsed in place.
func signature(w *bytes.Buffer, doc gast.Node, src []byte) {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		sigNode(w, n, src)
	}
}

func sigNode(w *bytes.Buffer, n gast.Node, src []byte) {
	w.WriteString(n.Kind().String())
	w.WriteByte('{')
	switch v := n.(type) {
	case *gast.List:
		w.WriteByte(v.Marker)
		w.WriteString(strconv.Itoa(v.Start))
		w.WriteString(strconv.FormatBool(v.IsTight))
	case *gast.ListItem:
		w.WriteString(strconv.Itoa(v.Offset))
	case *gast.Heading:
		w.WriteString(strconv.Itoa(v.Level))
	case *gast.FencedCodeBlock:
		if v.Info != nil {
			w.Write(v.Info.Segment.Value(src))
		}
	case *gast.HTMLBlock:
		w.WriteString(strconv.Itoa(int(v.HTMLBlockType)))
		if v.HasClosure() {
			w.Write(v.ClosureLine.Value(src))
		}
	case *gast.Text:
		w.Write(v.Segment.Value(src))
		w.WriteString(strconv.FormatBool(v.SoftLineBreak()))
		w.WriteString(strconv.FormatBool(v.HardLineBreak()))
		w.WriteString(strconv.FormatBool(v.IsRaw()))
	case *gast.String:
		w.Write(v.Value)
	case *gast.Link:
		w.Write(v.Destination)
		w.WriteByte(0)
		w.Write(v.Title)
	case *gast.Image:
		w.Write(v.Destination)
		w.WriteByte(0)
		w.Write(v.Title)
	case *gast.AutoLink:
		w.Write(v.URL(src))
		w.WriteString(strconv.Itoa(int(v.AutoLinkType)))
	case *gast.Emphasis:
		w.WriteString(strconv.Itoa(v.Level))
	case *gast.RawHTML:
		for i := 0; i < v.Segments.Len(); i++ {
			s := v.Segments.At(i)
			w.Write(s.Value(src))
		}
	case *east.Table:
		for _, a := range v.Alignments {
			w.WriteString(a.String())
		}
	case *east.TableCell:
		w.WriteString(v.Alignment.String())
	case *east.TaskCheckBox:
		w.WriteString(strconv.FormatBool(v.IsChecked))
	}
	if n.Type() == gast.TypeBlock {
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			s := lines.At(i)
			w.Write(s.Value(src))
			w.WriteByte(0)
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		sigNode(w, c, src)
	}
	w.WriteByte('}')
}

// advance accepts the cuts the new text allows, checking at most tries
// proposals (0: all); the others wait for the next call.
func (d *Doc) advance(p parser.Parser, tries int) {
	d.sc.scan(d.src, func(c int) {
		if c > d.stable {
			d.cands = append(d.cands, c)
		}
	})
	for done := 0; len(d.cands) > 0; done++ {
		if tries > 0 && (done == tries || done >= minTries && d.frameOver()) {
			return
		}
		c := d.cands[0]
		d.cands = d.cands[1:]
		if c <= d.stable {
			continue
		}
		d.try(p, c)
	}
	if d.sc.partialCandidate(d.src) {
		c := d.sc.pos
		if c > d.stable && c != d.refused {
			rest := d.src[c:]
			if decidable(rest) {
				if !d.try(p, c) {
					d.refused = c
				}
			}
		}
	}
	if d.sc.prevClose && d.sc.pos == len(d.src) && d.sc.pos > d.stable {
		// A fence just closed and nothing follows yet: it can be finished
		// now rather than rendered highlighted on every frame until the
		// next line starts.
		d.try(p, d.sc.pos)
	}
}

// try accepts the cut at c if acceptCut agrees.
func (d *Doc) try(p parser.Parser, c int) bool {
	if !acceptCut(p, d.src[d.stable:c], d.src[c:]) {
		d.stats.Rejected++
		return false
	}
	d.chunks = append(d.chunks, chunk{start: d.stable, end: c})
	d.stable = c
	d.stats.Cuts++
	d.stats.Blocks = len(d.chunks)
	return true
}
