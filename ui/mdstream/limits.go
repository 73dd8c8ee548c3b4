package mdstream

import (
	"bytes"
	"context"
	"errors"
	"time"
)

// Model output is untrusted, and glamour's cost is not linear in it: 100
// nested block quotes in 111 bytes take longer than anyone waits (time
// and output double every few levels past about 30), 400 nested list
// levels allocate gigabytes, and every code block without a language chroma
// knows by name costs milliseconds of lexer search. Three things bound a
// render (measured numbers in BENCHMARKS.md):
//
//   - what reaches glamour is bounded (prepare.go): block quote and list
//     nesting deeper than maxDepth (less at narrow widths) is flattened,
//     the lexer of every code block is resolved once per renderer;
//   - every render has a deadline and a context (guard): glamour is stopped
//     at the next node once either is over, and its output is capped
//     (maxOutput). A render that is stopped or too big shows its blocks as
//     plain text: the text is never lost;
//   - a render that would take longer than a frame does not happen on the
//     caller's goroutine: see Doc.Frame and Job.

// maxDepth is the deepest block quote and list nesting rendered as such;
// deeper blocks are shown at this depth. Twelve levels of "│ " or list
// indent take 24 columns, which still leaves room at 80.
const maxDepth = 12

// depthFor is the nesting allowed at a wrap width: a level takes two
// columns, and at narrow widths glamour's output grows fast with depth
// (every word on its own line, then every letter), so the levels may take
// at most half the width.
func depthFor(width int) int {
	return min(max(width/4, 2), maxDepth)
}

// SyncBudget bounds a render done on the caller's goroutine (Frame, and
// renderers set up with SetBudget for the UI): half a 60 Hz frame, so
// that with the parsing and line work around it a call stays within one.
// A render that overruns is finished by a Job.
const SyncBudget = 8 * time.Millisecond

// FrameBudget is SyncBudget for this build: ten times longer under the
// race detector, which slows rendering as much (see race.go).
const FrameBudget = SyncBudget * raceSlowdown

// JobBudget bounds a render in a Job (and by default every render): past
// it the blocks are shown as plain text.
const JobBudget = 2 * time.Second

// syncBytes is how much source Frame renders itself: glamour takes about
// 2-4 ms per KB of answer-like Markdown here, so 4 KB fits a frame with
// room to spare. More goes to a Job.
const syncBytes = 4 << 10

// bigTail: an unfinished run of blocks longer than this (a table or list
// of hundreds of rows, or hostile text) is rendered again only when it has
// grown by a quarter since its last rendering; the text after that shows
// plain meanwhile. Rendering it on every frame would cost the square of
// its length over the stream (400 nested list levels: 160 KB rendered
// 800 times); growing by a quarter each time costs at most five times one
// rendering of the final block.
const bigTail = 16 << 10

// bigTableTail is bigTail for an unfinished tail that is a table: every
// render lays out all its cells again (about 1 KB of parse tree and
// lipgloss work per cell), so a table is not parsed again on every frame
// once it passes a few KB.
const bigTableTail = 4 << 10

// tailLimit is bigTail or, when the unfinished tail is a table (it starts
// with a header and its delimiter row), bigTableTail. The answer is kept
// for the tail's start.
func (d *Doc) tailLimit() int {
	if d.limitAt != d.stable+1 {
		d.limitAt = d.stable + 1
		d.limit = bigTail
		if startsTable(d.src[d.stable:]) {
			d.limit = bigTableTail
		}
	}
	return d.limit
}

// startsTable reports whether src starts (after blank lines) with a
// table's header line and delimiter row.
func startsTable(src []byte) bool {
	pos := 0
	for pos < len(src) {
		line, next := lineAt(src, pos)
		if !isBlank(line) {
			break
		}
		pos = next
	}
	if pos >= len(src) {
		return false
	}
	head, next := lineAt(src, pos)
	if body, _ := tableLineBody(head); bytes.IndexByte(body, '|') < 0 || next >= len(src) {
		return false
	}
	delim, _ := lineAt(src, next)
	body, _ := tableLineBody(delim)
	_, ok := delimiterCols(body)
	return ok
}

// syncTries bounds the cuts Frame checks in one call, and it checks at
// least minTries before it stops for the frame's time; the rest wait for
// the next call (each check parses the unfinished run, at most syncBytes
// of it).
const (
	syncTries = 256
	minTries  = 4
)

// maxOutput bounds the rendered size of src bytes at a width: a render
// that writes more is shown as plain text. Real Markdown renders to 2-30
// times its size, but a short line can become a line padded to the width
// with a colour on every cell (4 bytes of "```" become 1.6 KB in glamour's
// dark style at 80 columns); the bound only stops blow-ups.
func maxOutput(src, width int) int { return 4<<20 + src*width*8 }

var (
	// errSlow: a render went past its deadline.
	errSlow = errors.New("mdstream: rendering took too long")
	// errTooBig: a render's output went past maxOutput.
	errTooBig = errors.New("mdstream: the rendering is too large")
)

// guard stops a render: glamour's node renderers are wrapped (see
// guardedRenderer) so that each node first checks the deadline and the
// context. One guard serves one Renderer and is armed for each render.
type guard struct {
	budget   time.Duration
	ctx      context.Context
	deadline time.Time
	tripped  error
}

// arm starts the clock for one render.
func (g *guard) arm() {
	g.tripped = nil
	g.deadline = time.Time{}
	if g.budget > 0 {
		g.deadline = time.Now().Add(g.budget)
	}
}

// check reports why the render must stop, if it must.
func (g *guard) check() error {
	if g.tripped != nil {
		return g.tripped
	}
	if g.ctx != nil {
		if err := g.ctx.Err(); err != nil {
			g.tripped = err
			return err
		}
	}
	if !g.deadline.IsZero() && time.Now().After(g.deadline) {
		g.tripped = errSlow
		return errSlow
	}
	return nil
}

// SetFrameBudget sets how long one render in Doc.Frame may take (default
// FrameBudget); a render past it is finished by a Job.
func (r *Renderer) SetFrameBudget(d time.Duration) { r.frameBudget = d }

// SetBudget sets how long one render of r may take (0: no limit) and a
// context that stops it (nil: none). NewRendererWith sets JobBudget; the UI
// sets FrameBudget on the renderer it uses on its own goroutine.
func (r *Renderer) SetBudget(d time.Duration, ctx context.Context) {
	r.guard.budget, r.guard.ctx = d, ctx
}

// interrupted reports whether err means the render was stopped (by its
// deadline or its context) rather than failed.
func interrupted(err error) bool {
	return errors.Is(err, errSlow) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
