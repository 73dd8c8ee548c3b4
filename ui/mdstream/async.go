package mdstream

import (
	"context"
	"slices"
	"time"
)

// Frame returns the lines to show for the message at r now, doing at most
// about a frame's work on the caller's goroutine (the UI's Update):
//
//   - when the work left is small (at most syncBytes of source to render,
//     at most syncTries proposed cuts to check), it is done now, each
//     render bounded by FrameBudget (see SetFrameBudget);
//   - otherwise, or when a render overran that budget, nothing more is
//     rendered now and Frame reports that a Job is wanted. Until the Job is
//     applied, Frame returns the last lines it had for r (the message as it
//     was), or the message as plain text when it has none at this width
//     and style.
//
// While a Job is out (see Job), Frame only returns what it has. next says
// what the message needs once the lines are shown.
func (d *Doc) Frame(r *Renderer) (lines []string, next Next) {
	if d.jobOut != 0 {
		return d.shown(r), Done
	}
	if out, ok := d.Cached(r); ok {
		return out, Done
	}
	if d.slow || d.slowAt == d.stable+1 || d.work(r) > syncBytes {
		return d.shown(r), NeedJob
	}
	budget, ctx := r.guard.budget, r.guard.ctx
	r.guard.budget, r.guard.ctx = r.frameBudget, nil
	d.sync, d.deferred = true, false
	d.frameEnd = time.Now().Add(r.frameBudget)
	lines = d.lines(r, syncTries)
	d.sync, d.frameEnd = false, time.Time{}
	r.guard.budget, r.guard.ctx = budget, ctx
	switch {
	case d.slow:
		return d.shown(r), NeedJob
	case d.dirty:
		return lines, Again
	}
	return lines, Done
}

// Next is what a message needs after Frame.
type Next int

const (
	// Done: the lines are current (or a Job is out and will bring new ones).
	Done Next = iota
	// Again: Frame left some proposed cuts unchecked; call it next frame.
	Again
	// NeedJob: the rest is too much for a frame; make a Job (Doc.Job).
	NeedJob
)

// work estimates the source bytes a Lines call would render now.
func (d *Doc) work(r *Renderer) int {
	if !d.hasKey || d.key != r.key {
		return len(d.src)
	}
	n := len(d.src) - d.stable
	t := &d.tail
	switch {
	case d.sc.fenceOpen && d.sc.fenceStart == d.stable && t.fence.end > d.stable:
		// An open fence renders its new lines in chunks.
		n = len(d.src) - t.fence.end
	case !d.finished && t.valid && t.start == d.stable && !t.finished && n > d.tailLimit() && n*4 < (t.rendered-d.stable)*5:
		// A large tail shows its new text plain (see renderTail).
		n = len(d.src) - t.rendered
	}
	for i := range d.chunks {
		if !d.chunks[i].rendered {
			n += d.chunks[i].end - d.chunks[i].start
		}
	}
	return n
}

// shown is what Frame shows without rendering: the last lines at r's key,
// or the text plain.
func (d *Doc) shown(r *Renderer) []string {
	if d.out != nil && d.outKey == r.key {
		return d.out
	}
	if d.prov == nil || d.provKey != r.key || d.provLen != d.Len() {
		d.prov = append(fallbackLines(string(d.src), r.width), d.overView.render(d.over, r.width)...)
		d.provKey, d.provLen = r.key, d.Len()
	}
	return d.prov
}

// A Job renders a copy of a message on another goroutine: the work Frame
// left. Make it with Doc.Job on the goroutine that owns the Doc, Run it on
// any goroutine (it shares nothing the Doc still writes), and hand it back
// to Doc.Apply on the owner's goroutine. One Job per Doc is out at a time.
type Job struct {
	doc   *Doc
	r     *Renderer
	seq   int
	epoch int
	size  int
	err   error

	elapsed time.Duration
}

// Job returns a Job for the message at r as it is now, or nil when one is
// already out. The Doc shows what it has until the Job is applied.
func (d *Doc) Job(r *Renderer) *Job {
	if d.jobOut != 0 {
		return nil
	}
	d.jobSeq++
	d.jobOut = d.jobSeq
	return &Job{doc: d.snapshot(), r: r.Clone(), seq: d.jobSeq, epoch: d.epoch, size: len(d.src)}
}

// snapshot copies d so that the copy can render while d takes more text:
// every slice that rendering appends to or writes in place is the copy's
// own (or full, so that an append reallocates); the rest (the source up to
// now, rendered pieces, reference definitions) is never written in place
// by either.
func (d *Doc) snapshot() *Doc {
	c := *d
	c.src = slices.Clip(d.src)
	c.over = slices.Clip(d.over)
	c.overView.lines = slices.Clip(d.overView.lines)
	c.cands = slices.Clone(d.cands)
	c.chunks = slices.Clone(d.chunks)
	c.tail.pieces = slices.Clip(d.tail.pieces)
	c.tail.fence.pieces = slices.Clip(d.tail.fence.pieces)
	c.tail.extra = slices.Clip(d.tail.extra)
	c.base.out = slices.Clip(d.base.out)
	c.prov = nil
	c.sync, c.slow, c.deferred = false, false, false
	return &c
}

// Run renders, bounded by JobBudget and ctx: a render that overruns shows
// its blocks as plain text. It may run on any goroutine.
func (j *Job) Run(ctx context.Context) {
	start := time.Now()
	j.r.SetBudget(JobBudget, ctx)
	j.doc.lines(j.r, 0)
	j.err = ctx.Err()
	j.elapsed = time.Since(start)
}

// Size is the message's length when the Job was made.
func (j *Job) Size() int { return j.size }

// Elapsed is how long Run took.
func (j *Job) Elapsed() time.Duration { return j.elapsed }

// Apply takes the rendering of a Job made by d. It reports whether d has
// new lines: false for a Job that was cancelled, or made before the
// message was invalidated (a new width or style). Either way d can make
// its next Job.
func (d *Doc) Apply(j *Job) bool {
	if j == nil || j.seq != d.jobOut {
		return false
	}
	d.jobOut = 0
	if j.err != nil || j.epoch != d.epoch {
		d.dirty = true
		return false
	}
	c := j.doc
	src, over, finished := d.src, d.over, d.finished
	seq, epoch, slowAt := d.jobSeq, d.epoch, d.slowAt
	*d = *c
	d.src, d.over, d.finished = src, over, finished
	d.jobSeq, d.jobOut, d.epoch, d.slowAt = seq, 0, epoch, slowAt
	d.sync, d.slow, d.prov = false, false, nil
	// Text that came while the Job ran is rendered by the next Frame.
	d.dirty = c.dirty || len(src) != len(c.src) || len(over) != len(c.over) || finished != c.finished
	return true
}

// Forget gives up on a Job that will not be applied (its result was lost
// or is no longer wanted): d can make the next one.
func (d *Doc) Forget(j *Job) {
	if j != nil && j.seq == d.jobOut {
		d.jobOut = 0
		d.dirty = true
	}
}

// JobOut reports whether a Job made by d is out (not yet applied or
// forgotten): Frame shows what it had until then.
func (d *Doc) JobOut() bool { return d.jobOut != 0 }
