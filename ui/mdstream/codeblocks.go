package mdstream

import (
	"strings"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// CodeBlocks returns the code of every code block of a message (fenced or
// indented, at any depth: in lists and quotes too), in order, each line
// ending with a newline. Block n (from 1) is the one a renderer with
// Options.CodeNumbers labels "[n]", so a user can name any block to copy
// it (the order differs only past the nesting a renderer flattens, see
// maxDepth). Pass the text as the renderer got it (termsafe.Markdown of
// the reply): sanitising can change where lines end. Only the Markdown part
// of a long message counts (MarkdownPart): the rest is shown plain,
// without labels.
func CodeBlocks(md string) []string {
	var blocks []string
	walkCode(md, func(b string) { blocks = append(blocks, b) })
	return blocks
}

// CountCodeBlocks is len(CodeBlocks(md)), without parsing text that cannot
// hold a code block (no fence and no indented line): the count of every
// message of a long conversation is needed to number the blocks.
func CountCodeBlocks(md string) int {
	md = MarkdownPart(md)
	if !strings.Contains(md, "```") && !strings.Contains(md, "~~~") &&
		!strings.HasPrefix(md, "    ") && !strings.HasPrefix(md, "\t") &&
		!strings.Contains(md, "\n    ") && !strings.Contains(md, "\n\t") {
		return 0
	}
	n := 0
	walkCode(md, func(string) { n++ })
	return n
}

// EstimateCodeBlocks counts the fenced code blocks of md's Markdown part by
// its lines, without parsing: a quick estimate of CountCodeBlocks (it
// misses indented code blocks and can be wrong about fences in lists,
// quotes and HTML), for messages too long to parse on the UI's goroutine;
// their rendering gives the exact number.
func EstimateCodeBlocks(md string) int {
	src := []byte(MarkdownPart(md))
	var f fenceState
	n := 0
	for pos := 0; pos < len(src); {
		line, next := lineAt(src, pos)
		body, _ := tableLineBody(line)
		if !f.open && f.skip(body) {
			n++
		} else if f.open {
			f.skip(body)
		}
		pos = next
	}
	return n
}

// walkCode calls f with the code of each code block of md's Markdown part.
func walkCode(md string, f func(string)) {
	p := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
	src, _ := plainTables([]byte(MarkdownPart(md)))
	doc := p.Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch n.Kind() {
		case gast.KindFencedCodeBlock, gast.KindCodeBlock:
			var b strings.Builder
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				s := lines.At(i)
				v := s.Value(src)
				b.Write(v)
				if len(v) == 0 || v[len(v)-1] != '\n' {
					b.WriteByte('\n')
				}
			}
			f(b.String())
			return gast.WalkSkipChildren, nil
		case gast.KindParagraph, gast.KindHeading, gast.KindTextBlock:
			return gast.WalkSkipChildren, nil // inline content: no code blocks
		}
		return gast.WalkContinue, nil
	})
}
