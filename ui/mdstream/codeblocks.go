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
// the reply): sanitising can change where lines end.
func CodeBlocks(md string) []string {
	p := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
	src := []byte(md)
	doc := p.Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	var blocks []string
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
			blocks = append(blocks, b.String())
			return gast.WalkSkipChildren, nil
		case gast.KindParagraph, gast.KindHeading, gast.KindTextBlock:
			return gast.WalkSkipChildren, nil // inline content: no code blocks
		}
		return gast.WalkContinue, nil
	})
	return blocks
}
