package mdstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"parley/themes"
)

// glamourPriority is the priority glamour.NewTermRenderer gives its ANSI
// node renderer; mirrored so the pipeline below is glamour's own.
const glamourPriority = 1000

// cacheKey identifies what a rendering depends on besides the source: the
// width and the style (by content, so two renderers built from equal
// styles share caches).
type cacheKey struct {
	width int
	style uint64
}

// Renderer renders Markdown into terminal lines for one width and one
// glamour style. It is glamour's TermRenderer pipeline (goldmark with GFM and
// definition lists, glamour's ANSI node renderer) driven directly, so that a
// message can be rendered block by block with exactly the output glamour
// gives for the whole message.
//
// A Renderer is not safe for concurrent use: glamour's node renderer keeps
// state while it renders. Use one per goroutine.
type Renderer struct {
	width int
	key   cacheKey

	// body renders top-level blocks: the document's framing (block prefix,
	// prefix, suffix, block suffix) is removed so that blocks can be joined;
	// margins and colours stay, so every line is what the whole document
	// would have. first is used for the document's first block when the
	// style has a document prefix (it belongs inside the first block's
	// margin); otherwise first == body.
	body, first goldmark.Markdown

	bodyStyle, firstStyle ansi.StyleConfig
	hasFirst              bool

	head, foot string // rendered document framing, joined around the blocks
	indent     string // the document's left margin as written before each line
	codeIndent int    // a code block's indent (its style's indent and margin)

	renders int // glamour renders done, for tests and Stats
}

// NewRenderer returns a renderer that wraps text at width cells (glamour's
// word wrap: every line is at most width cells wide) in the given glamour
// style. Widths below 8 are raised to 8.
func NewRenderer(width int, style ansi.StyleConfig) (*Renderer, error) {
	if width < minWidth {
		width = minWidth
	}
	js, err := json.Marshal(style)
	if err != nil {
		return nil, fmt.Errorf("mdstream: the glamour style cannot be encoded: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write(js)

	r := &Renderer{width: width, key: cacheKey{width: width, style: h.Sum64()}}

	docStyle := style.Document
	bodyStyle := style
	bodyStyle.Document.BlockPrefix = ""
	bodyStyle.Document.BlockSuffix = ""
	bodyStyle.Document.Prefix = ""
	bodyStyle.Document.Suffix = ""
	// Mark code blocks so that fixCodeWraps finds their lines (only an
	// indent can be lost).
	if cb := style.CodeBlock; cb.Indent != nil || cb.Margin != nil {
		r.codeIndent = int(deref(cb.Indent) + deref(cb.Margin)) //nolint:gosec // margins are small
	}
	if r.codeIndent > 0 {
		bodyStyle.CodeBlock.BlockPrefix += codeMark
	}
	r.bodyStyle = bodyStyle
	if docStyle.Prefix != "" {
		r.firstStyle = bodyStyle
		r.firstStyle.Document.Prefix = docStyle.Prefix
		r.hasFirst = true
	}
	r.rebuild()

	// The framing around the blocks: what the document writes before its
	// first and after its last block, outside its margin.
	headStyle := style
	headStyle.Document.Prefix = ""
	headStyle.Document.Suffix = ""
	headStyle.Document.BlockSuffix = ""
	footStyle := style
	footStyle.Document.Prefix = ""
	footStyle.Document.BlockPrefix = ""
	for _, f := range []struct {
		st  ansi.StyleConfig
		dst *string
	}{{headStyle, &r.head}, {footStyle, &r.foot}} {
		var buf bytes.Buffer
		if err := newPipeline(f.st, width).Convert(nil, &buf); err != nil {
			return nil, fmt.Errorf("mdstream: rendering the document frame failed: %w", err)
		}
		*f.dst = buf.String()
	}

	var ind uint
	if docStyle.Margin != nil {
		ind += *docStyle.Margin
	}
	if docStyle.Indent != nil {
		ind += *docStyle.Indent
	}
	tok := " "
	if docStyle.IndentToken != nil {
		tok = *docStyle.IndentToken
	}
	r.indent = strings.Repeat(tok, int(ind)) //nolint:gosec // margins are small
	return r, nil
}

// rebuild makes fresh pipelines: after a failed render glamour's block
// stack may be left half full.
func (r *Renderer) rebuild() {
	r.body = newPipeline(r.bodyStyle, r.width)
	r.first = r.body
	if r.hasFirst {
		r.first = newPipeline(r.firstStyle, r.width)
	}
}

func deref(p *uint) uint {
	if p == nil {
		return 0
	}
	return *p
}

// minWidth keeps glamour away from zero or negative wrap widths.
const minWidth = 8

// newPipeline builds what glamour.NewTermRenderer builds for these options,
// with glamour.WithChromaFormatter(themes.ChromaFormatter): code gets the
// style's exact 24-bit colours. Glamour's default formatter (terminal256)
// maps them to the nearest palette entry and breaks ties between equally
// near entries by map order, so the same code could change colour from one
// render to the next; Bubble Tea downsamples to what the terminal supports.
func newPipeline(style ansi.StyleConfig, width int) goldmark.Markdown {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	ar := ansi.NewRenderer(ansi.Options{WordWrap: width, Styles: style, ChromaFormatter: themes.ChromaFormatter})
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(ar, glamourPriority))))
	return md
}

// Width is the wrap width the renderer was built for.
func (r *Renderer) Width() int { return r.width }

// Renders counts the glamour renders this renderer has done.
func (r *Renderer) Renders() int { return r.renders }

// Render renders a whole Markdown document in one go, with the same line
// cleaning as Doc.Lines: the reference a streamed Doc matches.
func (r *Renderer) Render(md string) []string {
	out, _, err := r.renderRaw([]byte(md), r.first, true, nil)
	if err != nil {
		r.rebuild()
		return fallbackLines(md, r.width)
	}
	p := piece{}
	p.set(r.head, r.width)
	b := piece{}
	b.set(out, r.width)
	f := piece{}
	f.set(r.foot, r.width)
	var j joiner
	j.init(r)
	j.add(&p)
	j.add(&b)
	j.add(&f)
	return j.finish()
}

// renderRaw parses src and renders it with md. Unless first, an empty
// block is put before the content so that glamour renders the first block
// as it does any block that follows another (headings and paragraphs start
// with a blank line then). refs resolves link references defined outside
// src; it may be nil. It reports whether src produced any block.
func (r *Renderer) renderRaw(src []byte, md goldmark.Markdown, first bool, refs *refContext) (string, bool, error) {
	var ctx parser.Context
	if refs != nil {
		refs.reset()
		ctx = refs
	} else {
		ctx = parser.NewContext()
	}
	src = unmarkSource(src)
	doc := md.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	nodes := doc.HasChildren()
	if !first && nodes {
		doc.InsertBefore(doc, doc.FirstChild(), gast.NewTextBlock())
	}
	var buf bytes.Buffer
	r.renders++
	if err := renderSafely(md, &buf, src, doc); err != nil {
		return "", nodes, err
	}
	out := buf.String()
	if r.codeIndent > 0 {
		out = fixCodeWraps(out, codeLineCounts(doc), r.codeIndent)
	}
	return out, nodes, nil
}

// errRenderPanic reports a panic inside glamour or chroma.
var errRenderPanic = errors.New("mdstream: the Markdown renderer failed")

// renderSafely runs the renderer and turns a panic inside it into an error:
// model output must never take the program down.
func renderSafely(md goldmark.Markdown, buf *bytes.Buffer, src []byte, doc gast.Node) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", errRenderPanic, p)
		}
	}()
	if err := md.Renderer().Render(buf, src, doc); err != nil {
		return fmt.Errorf("mdstream: rendering Markdown failed: %w", err)
	}
	return nil
}

// fallbackLines shows Markdown as plain wrapped text when rendering failed,
// so that no text is ever lost.
func fallbackLines(md string, width int) []string {
	var out []string
	for _, l := range strings.Split(md, "\n") {
		out = append(out, cleanLine(l, width)...)
	}
	return out
}
