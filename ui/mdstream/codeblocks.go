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
	walkCode(newCodeParser(), md, func(src []byte, lines *text.Segments) { blocks = append(blocks, codeText(src, lines)) })
	return blocks
}

// CountCodeBlocks is len(CodeBlocks(md)), without parsing a text whose
// code blocks its lines tell (see fenceCount): the count of every message
// of a long conversation is needed to number the blocks.
func CountCodeBlocks(md string) int {
	var c CodeCounter
	return c.Count(md)
}

// CodeCounter is CountCodeBlocks with one parser for every text it
// counts: making goldmark's parser allocates more than parsing a short
// reply does, and a transcript counts the blocks of every message it is
// given (10,000 replies: 5 MB of the 12 MB counting them allocated). The
// zero value is ready to use.
type CodeCounter struct{ p parser.Parser }

// Count is CountCodeBlocks(md).
func (c *CodeCounter) Count(md string) int {
	md = MarkdownPart(md)
	if n, ok := fenceCount(md); ok {
		return n
	}
	if c.p == nil {
		c.p = newCodeParser()
	}
	n := 0
	walkCode(c.p, md, func([]byte, *text.Segments) { n++ })
	return n
}

// fenceCount counts the code blocks of a text from its lines alone, when
// that is certain: every code block is fenced with its fence at the start
// of a line (so not inside a list item or a quote, where an unclosed fence
// ends with its container), and nothing else can hold or make one (no line
// indented four spaces or a tab, which may be indented code or a list's
// content, and no HTML block, which may hold a fence) outside the fences.
// It reports false when it cannot be sure. It copies only lines that may
// be fences: it runs over every message of a conversation.
func fenceCount(md string) (int, bool) {
	n := 0
	var open bool
	var fch byte
	var flen int
	for pos := 0; pos < len(md); {
		line := md[pos:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
			pos += nl + 1
		} else {
			pos = len(md)
		}
		line = strings.TrimSuffix(line, "\r")
		body := strings.TrimLeft(line, " ")
		if open {
			if len(line)-len(body) <= 3 && body != "" && body[0] == fch && isClosingFence([]byte(line), fch, flen) {
				open = false
			}
			continue
		}
		if strings.Trim(line, " \t") == "" {
			continue
		}
		if indentCols(line) >= 4 {
			return 0, false
		}
		switch {
		case body[0] == '<':
			return 0, false
		case body[0] == '`' || body[0] == '~':
			if ch, l, ok := fenceOpener([]byte(body)); ok {
				if len(body) != len(line) {
					return 0, false
				}
				open, fch, flen = true, ch, l
				n++
				continue
			}
		}
		if strings.IndexByte(">-*+0123456789", body[0]) >= 0 && nestedCode(body) {
			return 0, false
		}
	}
	return n, true
}

// indentCols is how many columns of blank a line starts with (a tab goes
// to the next multiple of four, as CommonMark counts it).
func indentCols[T ~string | ~[]byte](line T) int {
	col := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col
		}
	}
	return col
}

// nestedCode reports whether a line may begin a code block after block
// quote markers or list markers: a fence ("> ```", "* ```", "1. ~~~") or
// indented code (a marker, then five spaces or more, or a tab).
func nestedCode(line string) bool {
	for nested := false; ; nested = true {
		ws := len(line) - len(strings.TrimLeft(line, " \t"))
		if nested && (indentCols(line) >= 5 || strings.IndexByte(line[:ws], '\t') >= 0) {
			// Indented code, or a tab whose width depends on the column
			// the container put it at: the parser decides.
			return true
		}
		line = line[ws:]
		switch {
		case len(line) > 0 && line[0] == '>':
			line = line[1:]
			continue
		case len(line) > 0 && strings.IndexByte("-*+", line[0]) >= 0 && (len(line) == 1 || line[1] == ' ' || line[1] == '\t'):
			line = line[1:]
			continue
		}
		i := 0
		for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			line = line[i+1:]
			continue
		}
		if !nested || line == "" || line[0] != '`' && line[0] != '~' {
			return false
		}
		_, _, ok := fenceOpener([]byte(line))
		return ok
	}
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

// newCodeParser is the parser walkCode needs: goldmark's with the
// extensions the renderer uses.
func newCodeParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
}

// walkCode calls f with the lines of each code block of md's Markdown
// part, in src.
func walkCode(p parser.Parser, md string, f func(src []byte, lines *text.Segments)) {
	src, _ := plainTables([]byte(MarkdownPart(md)))
	doc := p.Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch n.Kind() {
		case gast.KindFencedCodeBlock, gast.KindCodeBlock:
			f(src, n.Lines())
			return gast.WalkSkipChildren, nil
		case gast.KindParagraph, gast.KindHeading, gast.KindTextBlock:
			return gast.WalkSkipChildren, nil // inline content: no code blocks
		}
		return gast.WalkContinue, nil
	})
}

// codeText is the code of a block's lines, each ending with a newline.
func codeText(src []byte, lines *text.Segments) string {
	var b strings.Builder
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		v := s.Value(src)
		b.Write(v)
		if len(v) == 0 || v[len(v)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
