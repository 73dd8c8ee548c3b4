// Package mdstream renders the Markdown of a chat message incrementally
// while it streams in, so that a long message is never re-rendered whole on
// every frame.
//
// A Doc holds one message's Markdown. Append only appends; Lines renders.
// The source is cut into runs of top-level blocks that can no longer change
// (see cut.go for when a cut is accepted); each finished run is rendered
// once per Renderer and cached, and only the unfinished tail is rendered
// again, and only when it changed. The lines returned have the text of
// Renderer.Render for the whole current text (glamour's output with each
// line cleaned, see cleanLine, and wrapped code lines indented, see
// fixCode), and outside highlighted code they are the same bytes.
// While a message streams, two things differ on purpose:
//
//   - an open code fence is rendered from cached chunks of a few lines each,
//     highlighted chunk by chunk as they complete (chroma costs about 8 ms
//     per KB of code here), its last lines as plain text; a fence that
//     closes while streaming keeps its chunks. A chunk highlighted on its
//     own may colour a multi-line string or comment differently than
//     glamour does for the whole block; the text is the same. A re-render
//     (new width or style) renders the block whole, as glamour does;
//   - a partial last line that would flash as something it is not yet is
//     held back: a code fence being typed (up to three spaces, then only
//     backticks or only tildes, which glamour would show as a stray line of
//     backticks), and a table delimiter row being written (only |, -, :
//     and spaces, with a |, under a line with a |), so the
//     header does not show as a paragraph with the pipes of the delimiter
//     glued on before the table appears. Once the line is complete, or
//     after Finish, it is shown as glamour shows it.
//
// Model text is untrusted. The caller sanitises it (package termsafe) before
// Append; in addition every rendered line keeps no escape sequence but SGR
// colours and attributes: glamour writes OSC 8 hyperlinks for links and
// autolinks, and those are removed, as is anything else that could reach
// the terminal as a control sequence. Nor may its cost run away: nesting
// is flattened past a depth, every render has a deadline, a context and an
// output cap (limits.go), a table of more than 64 columns or 8,192 cells
// reaches the parser as its lines of text (tablecap.go), a message past
// MaxMarkdownBytes shows the rest plain (plain.go), an unfinished table is
// rendered again only as it grows, and Frame does at most a frame's work on
// the caller's goroutine, leaving the rest to a Job that runs elsewhere
// (async.go). Nothing is lost on the way: what cannot be rendered is shown
// as plain text, every character, word-wrapped.
//
// Options change glamour's layout where a chat needs it: numbered code
// blocks (the numbers of CodeBlocks, from a base a conversation gives,
// SetCodeBase), tables as wide as their content or as text when glamour
// would cut their headers, URLs and words not broken at hyphens or dots,
// padded code spans, text that looks like HTML shown as written (labels.go,
// tables.go, tablecap.go, words.go, literal.go, prepare.go). The zero
// Options render as glamour does, which the equivalence tests check byte
// for byte; a line glamour's word wrap leaves too wide is wrapped again at
// spaces (softwrap.go).
package mdstream

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/yuin/goldmark/parser"
)

// fenceChunkLines is how many code lines of an open fence are rendered
// together and cached.
const fenceChunkLines = 4

// minSourceCap is the first allocation for a message's source.
const minSourceCap = 1024

// Stats counts the rendering work a Doc did; tests use it to show that
// finished blocks are not rendered again.
type Stats struct {
	Blocks       int // finished runs of blocks (cached units)
	BlockRenders int // renders of finished runs
	TailRenders  int // renders of the unfinished tail (fence chunks included)
	WholeRenders int // renders of a finished message at a new renderer
	Cuts         int // accepted cuts
	Rejected     int // proposed cuts the parser refused
}

// Doc is the Markdown of one message and its rendered lines. The zero
// value is an empty, streaming message. A Doc is not safe for concurrent
// use.
type Doc struct {
	src      []byte
	finished bool
	dirty    bool
	// over is the text past MaxMarkdownBytes (from the start of a line):
	// once there is any, src takes no more text and over is shown plain.
	over     []byte
	overView plainTail

	sc      scanner
	cands   []int // proposed cuts on complete lines, ascending, > stable
	refused int   // a proposal on the partial line already refused (0: none)
	stable  int   // where the unfinished tail starts
	chunks  []chunk

	// rendering, for one renderer key
	key     cacheKey
	hasKey  bool
	base    joiner // head and the pieces of chunks[:baseN]
	baseN   int
	tail    tailState
	refs    refTable
	hasRefs bool // some run defines link references
	out     []string

	stats Stats

	// outKey is the renderer key out was made for (out may be plain text
	// shown while a Job renders, see shown).
	outKey cacheKey
	// prov is the plain text shown while a Job renders the message at a
	// key it has no lines for yet; provKey and provLen say for what.
	prov    []string
	provKey cacheKey
	provLen int

	// Frame and Job (see async.go).
	sync bool // rendering on the caller's goroutine: an overrun is not final
	// frameEnd ends a Frame's work: blocks not rendered by then show plain
	// and are rendered by the next Frame (deferred).
	frameEnd time.Time
	deferred bool
	slow     bool // a render overran its frame: the rest goes to a Job
	slowAt   int  // stable+1 when the tail overran: it goes to Jobs while it starts there
	epoch    int  // counts Invalidate calls: a Job from before one is dropped
	jobSeq   int  // Jobs made
	jobOut   int  // the Job in flight (its seq), 0 for none

	// tailLimit's answer for the tail starting at limitAt-1.
	limitAt, limit int

	// codeBase is the number of code blocks before this message: its
	// blocks are labelled from codeBase+1 (SetCodeBase). shownCodes is how
	// many the last lines label.
	codeBase, shownCodes int
}

// chunk is a finished run of top-level blocks: src[start:end].
type chunk struct {
	start, end int
	rendered   bool
	nodes      bool // it has blocks (a run of only link definitions has none)
	codes      int  // code blocks in it
	defs       []parser.Reference
	lookups    []string
	refSig     string
	pieces     []piece
}

// tailState caches the render of the unfinished tail.
type tailState struct {
	valid    bool
	start    int
	end      int // where the shown tail ends
	finished bool
	pieces   []piece
	defs     []parser.Reference
	codes    int // code blocks in it
	fence    fenceCache
	// A large unfinished tail is rendered again only when it has grown
	// by a quarter (see tailLimit): rendered is where its last rendering
	// ends, and the text after it, up to end, shows plain (extra).
	rendered int
	extra    []piece
}

// Append adds streamed text to the message. It only copies the bytes;
// the work happens in Lines. Appending to a finished Doc reopens it.
func (d *Doc) Append(delta string) {
	if delta == "" {
		return
	}
	d.finished = false
	d.dirty = true
	if len(d.over) > 0 || len(d.src)+len(delta) > MaxMarkdownBytes {
		d.appendOver(delta)
		return
	}
	if len(d.src)+len(delta) > cap(d.src) {
		// Double: append's own growth for large slices (1.25x) copies
		// each byte of a long message about four times.
		d.src = slices.Grow(d.src, max(len(delta), cap(d.src), minSourceCap))
	}
	d.src = append(d.src, delta...)
}

// appendOver appends text that takes the message past MaxMarkdownBytes.
// The first time, the Markdown part ends at the start of the last line
// that starts within the limit, as markdownEnd has it for the whole text:
// the text after it moves to over. Everything scanned, cut or rendered so
// far ends at a complete line, so at or before that point; only the tail's
// rendering changes, and Lines renders it again.
func (d *Doc) appendOver(delta string) {
	if len(d.over) == 0 {
		room := MaxMarkdownBytes - len(d.src)
		if nl := strings.LastIndexByte(delta[:min(room, len(delta))], '\n'); nl >= 0 {
			d.src = append(d.src, delta[:nl+1]...)
			delta = delta[nl+1:]
		} else {
			end := bytes.LastIndexByte(d.src, '\n') + 1
			d.over = append(d.over, d.src[end:]...)
			// A new slice: a Job's copy may still read the old one.
			d.src = slices.Clip(d.src[:end])
		}
	}
	d.over = append(d.over, delta...)
}

// Finish marks the message complete: the tail is rendered as the finished
// blocks are (highlighted code, no held-back table line).
func (d *Doc) Finish() {
	if !d.finished {
		d.finished = true
		d.dirty = true
	}
}

// Finished reports whether Finish was called since the last Append.
func (d *Doc) Finished() bool { return d.finished }

// Source returns the Markdown appended so far.
func (d *Doc) Source() string { return string(d.src) + string(d.over) }

// Len is the length of the Markdown source in bytes.
func (d *Doc) Len() int { return len(d.src) + len(d.over) }

// Stats returns the work counters.
func (d *Doc) Stats() Stats { return d.stats }

// SetCodeBase numbers the message's code blocks from n+1 (Options.
// CodeNumbers): n is the number of code blocks before it in a conversation.
// A change renders the message again.
func (d *Doc) SetCodeBase(n int) {
	if n != d.codeBase {
		d.codeBase = n
		d.Invalidate()
		d.dirty = true
	}
}

// CodeBlocks is the number of code blocks in the message as last rendered
// (Lines or Frame): the blocks labelled from SetCodeBase's n+1. It is
// current once the lines are.
func (d *Doc) CodeBlocks() int { return d.shownCodes }

// Invalidate drops every cached rendering (the block structure, which does
// not depend on the renderer, is kept). The next Lines renders everything.
func (d *Doc) Invalidate() {
	d.epoch++
	d.hasKey = false
	d.out = nil
	d.tail = tailState{}
	for i := range d.chunks {
		d.chunks[i].rendered = false
		d.chunks[i].pieces = nil
	}
	d.base = joiner{}
	d.baseN = 0
}

// Cached returns the lines of the last Lines call if they are still current
// for r, without rendering anything.
func (d *Doc) Cached(r *Renderer) ([]string, bool) {
	if d.hasKey && d.key == r.key && !d.dirty && d.out != nil {
		return d.out, true
	}
	return nil, false
}

// Lines renders the message for r and returns its lines: ANSI-styled, each
// at most r.Width() cells wide, the first and last usually blank (glamour's
// document margin). Only what changed since the last call is rendered.
// The slice is shared: do not modify it; a later call returns a new one
// when anything changed.
//
// Lines does all the work on the caller's goroutine, however long it
// takes (each glamour render bounded by r's budget); a UI calls Frame.
func (d *Doc) Lines(r *Renderer) []string {
	return d.lines(r, 0)
}

// lines is Lines checking at most tries proposed cuts (0: all).
func (d *Doc) lines(r *Renderer, tries int) []string {
	if out, ok := d.Cached(r); ok {
		return out
	}
	if !d.hasKey || d.key != r.key {
		d.Invalidate()
		d.key, d.hasKey = r.key, true
		if d.finished {
			// A finished message at a new width or style: one glamour
			// render of the whole text costs about half of rendering its
			// blocks one by one, and is glamour's output by definition.
			// The blocks are rendered again only if it is appended to.
			out, codes, err := r.renderSplit(d.src, d.over, d.codeBase)
			d.shownCodes = codes
			d.stats.WholeRenders++
			d.out, d.outKey = out, r.key
			if err != nil && !d.failed(r, err) {
				d.hasKey = false // a Job renders it
				return d.out
			}
			d.dirty = false
			return d.out
		}
	}
	d.advance(r.body.Parser(), tries)
	d.renderChunks(r)
	d.renderTail(r)
	if d.hasRefs {
		d.refreshRefs(r)
	}
	d.compose(r)
	d.shownCodes = d.codesBefore(len(d.chunks)) - d.codeBase
	if d.tail.valid {
		d.shownCodes += d.tail.codes
	}
	d.outKey = r.key
	// Proposals left unchecked (see advance) are checked next time; what
	// overran its budget is rendered again (by a Job, see Frame).
	d.dirty = len(d.cands) > 0 || d.slow || d.deferred
	return d.out
}
