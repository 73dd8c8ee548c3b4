package mdstream

import (
	"bytes"
	"net/url"
	"unicode/utf8"

	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// prepare changes a parsed run of blocks before glamour renders it, and
// returns the source to render it with: src itself, or src with text the
// changes refer to appended (nodes can only point into the source, so new
// text goes after it; every existing segment stays valid). src is never
// written to.
//
//   - nesting deeper than the width allows (depthFor) is flattened;
//   - every code block gets a lexer chroma finds without searching (see
//     lexerTable), and an indented code block becomes a fenced one so it can
//     carry it; the code blocks are listed for fixCode;
//   - with Options.WholeURLs, the hyphens of URLs that are shown become
//     non-breaking (U+2011, turned back into "-" after rendering), so a URL
//     that fits a line is never broken at one;
//   - with Options.PadCode, the spaces beside a padded code span are
//     dropped: the padding shows the gap.
//
// It stops with the guard's error when the render's time is up.
func (r *Renderer) prepare(doc gast.Node, src []byte, plain []int) (prepared, error) {
	var emptied []gast.Node
	flatten(doc, 0, depthFor(r.width), &emptied)
	for _, n := range emptied {
		// An item left empty by moving its list out shows only a bullet
		// ("- - - - x" is one item per dash).
		if n.ChildCount() == 0 && n.Parent() != nil {
			n.Parent().RemoveChild(n.Parent(), n)
		}
	}
	p := preparer{r: r, src: src, ext: src[:len(src):len(src)], plain: plain}
	p.urls = r.opts.WholeURLs && !bytes.Contains(src, []byte(nbHyphen))
	p.words = r.opts.WholeWords && !hasLookalike(src)
	if err := gast.Walk(doc, p.visit); err != nil {
		return prepared{}, err
	}
	p.apply()
	return prepared{ext: p.ext, codes: p.codes, tables: p.tables, nbHyphens: p.nb, lookalikes: p.lookalikes}, nil
}

// prepared is what prepare returns: the source to render with, the code
// blocks and tables in render order, and whether non-breaking hyphens
// (in URLs) or stand-ins for break characters (in words) were put in, to
// be written back after rendering.
type prepared struct {
	ext        []byte
	codes      []codeInfo
	tables     []tableInfo
	nbHyphens  bool
	lookalikes bool
}

// nbHyphen is U+2011 NON-BREAKING HYPHEN: one cell, and not a break point
// for the word wrap (a "-" always is).
const nbHyphen = "\u2011"

// codeInfo is what fixCode needs of a code block: its source line count
// and the language to show in its label.
type codeInfo struct {
	lines int
	lang  string
}

type preparer struct {
	r        *Renderer
	src, ext []byte
	urls     bool
	nb       bool // a non-breaking hyphen was put in a URL
	words    bool // Options.WholeWords, for this source
	// lookalikes: stand-ins for break characters were put in words
	lookalikes bool
	codes      []codeInfo
	tables     []tableInfo
	plain      []int // escaped delimiter rows: their paragraphs show line by line
	lined      []gast.Node
	// Replacements are done after the walk: a node replaced while it is
	// visited would end the walk of its siblings.
	swaps []swap
}

type swap struct{ old, new gast.Node }

func (p *preparer) visit(n gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkContinue, nil
	}
	if err := p.r.guard.check(); err != nil {
		return gast.WalkStop, err
	}
	switch v := n.(type) {
	case *gast.FencedCodeBlock:
		p.code(v, v.Info)
		return gast.WalkSkipChildren, nil
	case *gast.CodeBlock:
		p.code(v, nil)
		return gast.WalkSkipChildren, nil
	case *gast.AutoLink:
		if p.urls {
			p.autoLink(v)
		}
		return gast.WalkSkipChildren, nil
	case *gast.Link:
		if p.urls {
			v.Destination = p.unbreakable(v.Destination)
		}
	case *gast.CodeSpan:
		if p.r.opts.Literal {
			p.codeAmps(v)
		}
		if p.words {
			p.codeWords(v)
		}
		if p.r.padCode {
			p.padCodeSpan(v)
		}
		return gast.WalkSkipChildren, nil
	case *gast.Text:
		if p.words {
			p.wholeWords(v)
		}
	case *gast.RawHTML:
		if p.r.opts.Literal {
			p.rawHTML(v)
		}
		return gast.WalkSkipChildren, nil
	case *gast.HTMLBlock:
		if p.r.opts.Literal {
			p.htmlBlock(v)
		}
		return gast.WalkSkipChildren, nil
	case *east.Table:
		if p.r.opts.WholeTables {
			p.table(v)
		}
	case *gast.Paragraph:
		if p.holdsPlain(v) {
			p.lined = append(p.lined, v)
		}
	}
	return gast.WalkContinue, nil
}

// code gives a code block a language chroma resolves at once: glamour asks
// chroma by name, and a name chroma does not know (or none) makes it match
// the name against every lexer's file patterns (about 3 ms) and then guess
// from the code. The result is the same lexer, found once.
func (p *preparer) code(n gast.Node, info *gast.Text) {
	var lang []byte
	if info != nil {
		lang = info.Segment.Value(p.src)
		if i := bytes.IndexByte(lang, ' '); i >= 0 {
			lang = lang[:i]
		}
	}
	lines := n.Lines()
	label := labelLang(lang)
	if p.r.hasFenceLang {
		label = p.r.fenceLang
	}
	p.codes = append(p.codes, codeInfo{lines: lines.Len(), lang: label})
	name, rewrite := p.r.lexers.resolve(string(lang), func() string {
		var b bytes.Buffer
		for i := 0; i < lines.Len(); i++ {
			s := lines.At(i)
			b.Write(s.Value(p.src))
		}
		return b.String()
	})
	if !rewrite && info != nil {
		return
	}
	fc := gast.NewFencedCodeBlock(p.text(name))
	fc.SetLines(lines)
	fc.SetBlankPreviousLines(n.HasBlankPreviousLines())
	p.swaps = append(p.swaps, swap{n, fc})
}

// text appends s to the extended source and returns a Text node for it.
func (p *preparer) text(s string) *gast.Text {
	start := len(p.ext)
	p.ext = append(p.ext, s...)
	return gast.NewTextSegment(text.NewSegment(start, len(p.ext)))
}

// autoLink makes the hyphens of a bare or <...> URL non-breaking.
func (p *preparer) autoLink(n *gast.AutoLink) {
	label := n.Label(p.src)
	if bytes.IndexByte(label, '-') < 0 || n.AutoLinkType != gast.AutoLinkURL {
		return
	}
	nb := bytes.ReplaceAll(label, []byte("-"), []byte(nbHyphen))
	full := nb
	if n.Protocol != nil {
		full = append(append(append([]byte{}, n.Protocol...), "://"...), nb...)
	}
	if u, err := url.Parse(string(full)); err != nil || !u.IsAbs() && n.Protocol == nil && !bytes.HasPrefix(nb, []byte("www.")) {
		return // glamour would not show it as a link
	}
	p.nb = true
	al := gast.NewAutoLink(n.AutoLinkType, p.text(string(nb)))
	al.Protocol = n.Protocol
	p.swaps = append(p.swaps, swap{n, al})
}

// unbreakable returns a link destination with non-breaking hyphens when
// glamour shows it as it is (an absolute URL; a relative one is resolved
// and re-encoded, which would turn U+2011 into %E2%80%91).
func (p *preparer) unbreakable(dest []byte) []byte {
	if bytes.IndexByte(dest, '-') < 0 {
		return dest
	}
	nb := bytes.ReplaceAll(dest, []byte("-"), []byte(nbHyphen))
	if u, err := url.Parse(string(nb)); err != nil || !u.IsAbs() {
		return dest
	}
	p.nb = true
	return nb
}

func (p *preparer) apply() {
	for _, s := range p.swaps {
		if parent := s.old.Parent(); parent != nil {
			parent.ReplaceChild(parent, s.old, s.new)
		}
	}
	for _, n := range p.lined {
		p.textLines(n)
	}
}

// padCodeSpan pads a code span on each side where the text beside it has
// spaces, which it drops: the padding, in the code's colours, shows the
// gap. At the start or end of a paragraph, or before punctuation, there is
// no space and no padding.
func (p *preparer) padCodeSpan(n *gast.CodeSpan) {
	left, right := false, false
	if t, ok := n.PreviousSibling().(*gast.Text); ok && !t.SoftLineBreak() && !t.HardLineBreak() {
		s := t.Segment
		for s.Stop > s.Start && p.ext[s.Stop-1] == ' ' {
			s.Stop--
			left = true
		}
		t.Segment = s
	}
	if t, ok := n.NextSibling().(*gast.Text); ok {
		s := t.Segment
		for s.Start < s.Stop && p.ext[s.Start] == ' ' {
			s.Start++
			right = true
		}
		t.Segment = s
	}
	if left && p.r.codePadL != "" {
		if first := n.FirstChild(); first != nil {
			n.InsertBefore(n, first, p.text(p.r.codePadL))
		} else {
			n.AppendChild(n, p.text(p.r.codePadL))
		}
	}
	if right && p.r.codePadR != "" {
		n.AppendChild(n, p.text(p.r.codePadR))
	}
}

// labelLang is the language shown in a code block's label: the first word
// of the info string if it looks like a language name, at most 16 runes.
func labelLang(b []byte) string {
	if len(b) == 0 || utf8.RuneCount(b) > 16 {
		return ""
	}
	for _, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '+' || c == '-' || c == '#' || c == '.' || c == '_'
		if !ok {
			return ""
		}
	}
	return string(b)
}

// nests reports whether a block adds a level of nesting.
func nests(n gast.Node) bool {
	k := n.Kind()
	return k == gast.KindBlockquote || k == gast.KindList
}

// flatten removes the block quote and list levels nested deeper than
// limit; their blocks are shown at the deepest level allowed, in order:
//
//   - a list too deep inside a list item: its items become items of the
//     item's own list, after it (the bullets stay, one level up);
//   - any other quote or list too deep: its blocks take its place (a
//     tight list item's text blocks become paragraphs, which glamour keeps
//     apart).
//
// It recurses only into blocks it keeps, so the recursion is at most about
// twice limit deep whatever the input; moved blocks are visited again
// where they land, so a chain of any depth ends up at the limit.
// List items whose list it moved out are added to emptied.
func flatten(n gast.Node, depth, limit int, emptied *[]gast.Node) {
	for c := n.FirstChild(); c != nil; {
		if c.Type() != gast.TypeBlock {
			c = c.NextSibling()
			continue
		}
		if nests(c) && depth >= limit {
			if c.Kind() == gast.KindList && n.Kind() == gast.KindListItem {
				*emptied = append(*emptied, n)
			}
			c = hoist(n, c)
			continue
		}
		d := depth
		if nests(c) {
			d++
		}
		flatten(c, d, limit, emptied)
		c = c.NextSibling()
	}
}

// hoist removes c (a block quote or a list too deep, a child of n) and
// returns the node n's loop goes on with.
func hoist(n, c gast.Node) gast.Node {
	next := c.NextSibling()
	if outer := n.Parent(); c.Kind() == gast.KindList && n.Kind() == gast.KindListItem && outer != nil {
		// The items join the list of n, right after n.
		after := n
		for item := c.FirstChild(); item != nil; {
			nx := item.NextSibling()
			outer.InsertAfter(outer, after, item)
			after = item
			item = nx
		}
		n.RemoveChild(n, c)
		return next
	}
	var first gast.Node
	move := func(b gast.Node) {
		for ch := b.FirstChild(); ch != nil; {
			nx := ch.NextSibling()
			if ch.Kind() == gast.KindTextBlock {
				p := gast.NewParagraph()
				p.SetLines(ch.Lines())
				for g := ch.FirstChild(); g != nil; {
					gn := g.NextSibling()
					p.AppendChild(p, g)
					g = gn
				}
				b.RemoveChild(b, ch)
				ch = p
			}
			n.InsertBefore(n, c, ch)
			if first == nil {
				first = ch
			}
			ch = nx
		}
	}
	if c.Kind() == gast.KindList {
		for item := c.FirstChild(); item != nil; item = item.NextSibling() {
			move(item)
		}
	} else {
		move(c)
	}
	n.RemoveChild(n, c)
	if first == nil {
		return next
	}
	return first
}
