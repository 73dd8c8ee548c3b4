package mdstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

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

	opts    Options
	padCode bool // code spans are padded (Options.PadCode and a style with padding)
	// codePadL and codePadR are the style's padding of code spans, with
	// non-breaking spaces.
	codePadL, codePadR string
	label              string // SGR that opens a code label's style ("" for none)
	guard              *guard
	lexers             *lexerTable
	// fenceLang, when set, is the label language of the one code block
	// being rendered (an open fence is rendered as "text" while it streams).
	fenceLang    string
	hasFenceLang bool
	outLimit     int           // overrides maxOutput when > 0 (tests)
	frameBudget  time.Duration // a render's budget in Doc.Frame

	renders int // glamour renders done, for tests and Stats
}

// Options are the changes to glamour's layout a chat wants; the zero value
// renders as glamour does.
type Options struct {
	// CodeNumbers shows each code block's number in the message ("[3] go")
	// on the line above it, so that any block can be named to copy it. The
	// numbers are those of CodeBlocks.
	CodeNumbers bool
	// FitTables sizes a table to its content: glamour stretches every table
	// to the full width.
	FitTables bool
	// WholeURLs keeps a URL that fits a line on one line: glamour's word
	// wrap breaks at every hyphen.
	WholeURLs bool
	// Literal shows text that looks like HTML as it is written: "Vec<u8>",
	// "a<b>c", "<div>" and whole HTML blocks are text, laid out and wrapped
	// as text (parley's glamour shows raw HTML as written too, but as one
	// token; upstream's stripped the tags); entity references in code
	// spans and in that text stay as written.
	Literal bool
	// WholeTables shows a table whose header glamour would cut short
	// ("Descr…": lipgloss does not wrap headers) as its lines of text.
	WholeTables bool
	// PadCode pads code spans with non-breaking spaces where the style pads
	// them with spaces, on each side where the text has a space, which the
	// padding replaces: the padding then survives a line start, a span
	// between words shows one space on each side, and none is put before
	// the punctuation after it.
	PadCode bool
	// WholeWords keeps a word that fits a line on one line: glamour's
	// word wrap breaks after every hyphen, and in lists and quotes after
	// every ".", ",", ";", "+" and "|" ("wl-" / "clipboard", "docs." /
	// "example.com", a "." alone on a line).
	WholeWords bool
}

// NewRendererWith returns a renderer that wraps text at width cells
// (glamour's word wrap: every line is at most width cells wide) in the
// given glamour style, laid out as opts says. Widths below 8 are raised to
// 8. Renders are bounded by JobBudget.
func NewRendererWith(width int, style ansi.StyleConfig, opts Options) (*Renderer, error) {
	if width < minWidth {
		width = minWidth
	}
	js, err := json.Marshal(style)
	if err != nil {
		return nil, fmt.Errorf("mdstream: the glamour style cannot be encoded: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write(js)

	_, _ = fmt.Fprintf(h, "%+v", opts)

	r := &Renderer{
		width:       width,
		key:         cacheKey{width: width, style: h.Sum64()},
		opts:        opts,
		guard:       &guard{budget: JobBudget},
		lexers:      newLexerTable(),
		frameBudget: FrameBudget,
	}

	r.setStyles(style, opts)
	r.rebuild()
	if err := r.renderFrame(style); err != nil {
		return nil, err
	}
	r.indent = documentIndent(style.Document)
	return r, nil
}

// setStyles derives the style of the blocks from the document's style
// (the document's own framing left out: it is rendered once, see
// renderFrame) and marks what the options fix after rendering: code
// blocks, tables, padded inline code.
func (r *Renderer) setStyles(style ansi.StyleConfig, opts Options) {
	bodyStyle := style
	bodyStyle.Document.BlockPrefix = ""
	bodyStyle.Document.BlockSuffix = ""
	bodyStyle.Document.Prefix = ""
	bodyStyle.Document.Suffix = ""
	// Mark code blocks so that fixCode finds their lines (only an
	// indent can be lost).
	if cb := style.CodeBlock; cb.Indent != nil || cb.Margin != nil {
		r.codeIndent = int(deref(cb.Indent) + deref(cb.Margin)) //nolint:gosec // margins are small
	}
	if r.codeIndent > 0 || opts.CodeNumbers {
		bodyStyle.CodeBlock.BlockPrefix += codeMark
	}
	if opts.CodeNumbers {
		r.label = labelSGR(style)
	}
	if opts.FitTables || opts.WholeTables {
		bodyStyle.Table.BlockPrefix = tableMark + bodyStyle.Table.BlockPrefix
		bodyStyle.Table.BlockSuffix += tableEndMark
	}
	if opts.PadCode {
		// The padding goes where the text had a space (see padCodeSpan).
		var padL, padR bool
		r.codePadL, padL = nonBreaking(bodyStyle.Code.Prefix)
		r.codePadR, padR = nonBreaking(bodyStyle.Code.Suffix)
		if r.padCode = padL || padR; r.padCode {
			bodyStyle.Code.Prefix, bodyStyle.Code.Suffix = "", ""
		}
	}
	r.bodyStyle = bodyStyle
	if style.Document.Prefix != "" {
		r.firstStyle = bodyStyle
		r.firstStyle.Document.Prefix = style.Document.Prefix
		r.hasFirst = true
	}
}

// renderFrame renders what the document writes before its first and after
// its last block, outside its margin.
func (r *Renderer) renderFrame(style ansi.StyleConfig) error {
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
		if err := newPipeline(f.st, r.width, r.guard).Convert(nil, &buf); err != nil {
			return fmt.Errorf("mdstream: rendering the document frame failed: %w", err)
		}
		*f.dst = buf.String()
	}
	return nil
}

// documentIndent is the document's margin and indent, as the text to put
// before each line.
func documentIndent(docStyle ansi.StyleBlock) string {
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
	return strings.Repeat(tok, int(ind)) //nolint:gosec // margins are small
}

// rebuild makes fresh pipelines: after a failed render glamour's block
// stack may be left half full.
func (r *Renderer) rebuild() {
	r.body = newPipeline(r.bodyStyle, r.width, r.guard)
	r.first = r.body
	if r.hasFirst {
		r.first = newPipeline(r.firstStyle, r.width, r.guard)
	}
}

// Clone returns a renderer equal to r (same key, so it renders the same
// lines) with pipelines, guard and lexer memory of its own: glamour's node
// renderer keeps state while it renders, so a render on another goroutine
// needs its own. Budget and context start as NewRendererWith sets them.
func (r *Renderer) Clone() *Renderer {
	c := *r
	c.guard = &guard{budget: JobBudget}
	c.lexers = r.lexers.clone()
	c.renders = 0
	c.rebuild()
	return &c
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
func newPipeline(style ansi.StyleConfig, width int, g *guard) goldmark.Markdown {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	ar := ansi.NewRenderer(ansi.Options{WordWrap: width, Styles: style, ChromaFormatter: themes.ChromaFormatter})
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(guardedRenderer{inner: ar, g: g}, glamourPriority))))
	return md
}

// Width is the wrap width the renderer was built for.
func (r *Renderer) Width() int { return r.width }

// Renders counts the glamour renders this renderer has done.
func (r *Renderer) Renders() int { return r.renders }

// Render renders a whole Markdown document in one go, with the same line
// cleaning as Doc.Lines: the reference a streamed Doc matches. A render
// that fails or is stopped (see SetBudget) shows the text plain.
func (r *Renderer) Render(md string) []string {
	lines, _ := r.RenderChecked(md)
	return lines
}

// RenderChecked is Render that also reports whether glamour rendered the
// text: false when the render was stopped by its budget or context, or
// failed, and the lines are the plain text.
func (r *Renderer) RenderChecked(md string) ([]string, bool) {
	lines, _, ok := r.RenderFrom(md, 0)
	return lines, ok
}

// RenderFrom is RenderChecked for a message whose code blocks are
// numbered from base+1 (Options.CodeNumbers): base blocks come before it
// in the conversation. It also returns how many code blocks it numbered
// (0 when it shows the text plain).
func (r *Renderer) RenderFrom(md string, base int) ([]string, int, bool) {
	src := []byte(md)
	end := markdownEnd(src)
	lines, codes, err := r.renderSplit(src[:end], src[end:], base)
	return lines, codes, err == nil
}

// renderSplit renders src as a whole document (its code blocks numbered
// from base+1) followed by over shown plain, or shows both plain and
// returns why src could not be rendered. Past MaxMarkdownBytes a message
// is split so (markdownEnd).
func (r *Renderer) renderSplit(src, over []byte, base int) ([]string, int, error) {
	res, err := r.renderRaw(src, r.first, true, nil, base)
	if err != nil {
		r.rebuild()
		return append(fallbackLines(string(src), r.width), plainLines(over, r.width)...), 0, err
	}
	p := piece{}
	p.set(r.head, r.width)
	b := piece{}
	b.set(res.raw, r.width)
	f := piece{}
	f.set(r.foot, r.width)
	var j joiner
	j.init(r)
	j.add(&p)
	j.add(&b)
	j.addLines(plainLines(over, r.width))
	j.add(&f)
	return j.finish(), res.codes, nil
}

// rendered is the output of renderRaw.
type rendered struct {
	raw   string
	nodes bool // the source has blocks
	codes int  // code blocks in it
}

// renderRaw parses src and renders it with md. Unless first, an empty
// block is put before the content so that glamour renders the first block
// as it does any block that follows another (headings and paragraphs start
// with a blank line then). refs resolves link references defined outside
// src; it may be nil. codeBase is the number of code blocks before src in
// the message (for their labels). The parsed blocks go through prepare;
// the render is bounded by the guard and maxOutput.
func (r *Renderer) renderRaw(src []byte, md goldmark.Markdown, first bool, refs *refContext, codeBase int) (rendered, error) {
	src, plain := plainTables(unmarkSource(src))
	r.guard.arm()
	res, cut, err := r.renderParsed(src, plain, md, first, refs, codeBase)
	if err == nil && len(cut) > 0 {
		// Tables glamour would show cut short: shown as text instead, in
		// a second render (within the same budget).
		src, more := escapeAt(src, cut)
		plain = mergeEscaped(plain, cut, more)
		res, _, err = r.renderParsed(src, plain, md, first, refs, codeBase)
	}
	return res, err
}

// renderParsed is renderRaw after the source is prepared and the guard
// armed; plain are the escaped delimiter rows of tables shown as text
// (ascending offsets in src). With Options.WholeTables it also returns
// where to escape the delimiter rows of tables whose header glamour cut
// short (their rows are then left as they are).
func (r *Renderer) renderParsed(src []byte, plain []int, md goldmark.Markdown, first bool, refs *refContext, codeBase int) (rendered, []int, error) {
	var ctx parser.Context
	if refs != nil {
		refs.reset()
		ctx = refs
	} else {
		ctx = parser.NewContext()
	}
	doc := md.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	res := rendered{nodes: doc.HasChildren()}
	if !first && res.nodes {
		doc.InsertBefore(doc, doc.FirstChild(), gast.NewTextBlock())
	}
	prep, err := r.prepare(doc, src, plain)
	if err != nil {
		return res, nil, err
	}
	res.codes = len(prep.codes)
	var buf bytes.Buffer
	r.renders++
	if err := renderSafely(md, &buf, prep.ext, doc); err != nil {
		return res, nil, err
	}
	limit := maxOutput(len(src), r.width)
	if r.outLimit > 0 {
		limit = r.outLimit
	}
	if buf.Len() > limit {
		return res, nil, errTooBig
	}
	out := buf.String()
	if prep.lookalikes {
		out = restoreBreaks(out)
	} else if prep.nbHyphens {
		out = strings.ReplaceAll(out, nbHyphen, "-")
	}
	if r.opts.WholeTables && len(prep.tables) > 0 {
		if cut := cutTables(out, prep.tables); len(cut) > 0 {
			return res, cut, nil
		}
	}
	out = r.fixCode(out, prep.codes, codeBase)
	if r.opts.FitTables {
		out = fitTables(out)
	} else if r.opts.WholeTables {
		out = unmarkTables(out)
	}
	res.raw = out
	return res, nil, nil
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
	return plainLines([]byte(md), width)
}
