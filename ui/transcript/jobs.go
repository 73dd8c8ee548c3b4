package transcript

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/ui/mdstream"
)

// Background renders. A render that would take longer than a frame does
// not happen on the Update goroutine: a streaming reply whose unfinished
// tail is large (mdstream.Doc.Frame says so), or a finished message longer
// than syncRenderBytes, or any render that overran mdstream.FrameBudget,
// shows what it has (its last lines, or its text plain) and waits for a
// job. Tick returns the command that runs the next job; its result comes
// back as a RenderedMsg, which the root hands to HandleMsg.
//
// One job runs at a time (the machine has few cores and the UI needs one),
// the streaming reply's first. After a job, the next waits as long as the
// last one took, so a reply that is expensive to render (hostile Markdown
// streaming forever) costs at most half a core. A job is cancelled when
// what it renders is no longer wanted (a new width or style, the message
// removed); a result that arrives for an older state of its message is
// dropped.

// jobWatchdog gives up on a job whose result never came back: a new one
// can then start.
const jobWatchdog = 2*mdstream.JobBudget + time.Second

// jobLost gives up sooner on a job whose command never started: a root that
// dropped the command Tick returned (Bubble Tea starts a command at once).
const jobLost = 250 * time.Millisecond

// job is one background render: a streaming reply's document (doc), or a
// finished message's whole text (text, rendered with r).
type job struct {
	seq int
	id  int // the message

	from *Transcript // where the result goes back (run only carries it)

	doc *mdstream.Job

	text        string
	base        int // code blocks before the message
	r           *mdstream.Renderer
	w, gen, ver int // what the item was when the job was made
	lines       []string
	codes       int  // code blocks the render numbered
	rendered    bool // it rendered as Markdown (not plain text)

	ctx     context.Context
	cancel  context.CancelFunc
	started time.Time
	elapsed time.Duration
	err     error // the context's error when the render ended
	// running is set by the command when it starts: the only thing run
	// writes that Update reads before the result arrives.
	running atomic.Bool
}

// lost reports whether the running job should be given up.
func (j *job) lost(now time.Time) bool {
	age := now.Sub(j.started)
	return age >= jobWatchdog || (age >= jobLost && !j.running.Load())
}

// RenderedMsg carries the result of a background render to Update. The
// root passes it to HandleMsg.
type RenderedMsg struct {
	owner *Transcript
	job   *job
}

// run is the job's command. It touches nothing of the transcript: the
// document and the renderer are the job's own copies.
func (j *job) run() tea.Msg {
	j.running.Store(true)
	start := time.Now()
	if j.doc != nil {
		j.doc.Run(j.ctx)
	} else {
		j.r.SetBudget(mdstream.JobBudget, j.ctx)
		lines, codes, ok := j.r.RenderFrom(j.text, j.base) // past its budget: plain text, final
		j.lines = trimBlank(lines)
		j.codes, j.rendered = codes, ok
	}
	j.elapsed = time.Since(start)
	j.err = j.ctx.Err()
	return RenderedMsg{owner: j.from, job: j}
}

// Tick runs once per frame: it re-renders the tail of a streaming reply
// that changed since the last tick, renders some stale messages off screen
// (bounded in time), and returns the command of the next background
// render, if one is due (nil otherwise). The root runs that command; its
// RenderedMsg comes back through HandleMsg.
func (t *Transcript) Tick() tea.Cmd {
	t.tick()
	return t.dispatch()
}

// HandleMsg takes the result of a background render and reports whether
// msg was one (the root passes every message it does not handle itself,
// or at least every RenderedMsg). The window may change; the root keeps
// ticking while NeedsTick says so.
func (t *Transcript) HandleMsg(msg tea.Msg) bool {
	m, ok := msg.(RenderedMsg)
	if !ok || m.owner != t {
		return false
	}
	j := m.job
	if t.inflight == j {
		t.inflight = nil
		t.nextJob = t.now().Add(j.elapsed)
	}
	j.cancel()
	i, ok := t.index[j.id]
	if !ok {
		return true
	}
	it := t.items[i]
	if j.doc != nil {
		if it.live != nil && it.live.doc != nil {
			it.live.doc.Apply(j.doc)
			it.live.dirty = true
			t.refreshLive(it)
			t.ensureWindow()
		}
		return true
	}
	if !it.pending || it.live != nil || it.w != j.w || it.gen != j.gen || it.ver != j.ver || j.err != nil {
		return true
	}
	old := t.hs.get(i)
	it.body = t.fitReply(it.body[:0], j.lines, it.done())
	t.setPending(it, false)
	if j.rendered {
		t.exactCodes(it, j.codes)
	}
	t.setHeight(i, old, true)
	if it.height() > old {
		t.grew(i)
	}
	t.ensureWindow()
	return true
}

// setPending marks an item as waiting for a job (or not), keeping count.
func (t *Transcript) setPending(it *item, p bool) {
	if it.pending == p {
		return
	}
	it.pending = p
	if p {
		t.pendingN++
	} else {
		t.pendingN--
	}
}

// jobWanted reports whether a job waits to be dispatched.
func (t *Transcript) jobWanted() bool {
	if t.pendingN > 0 {
		return true
	}
	for _, it := range t.streams {
		if it.live.wantJob {
			return true
		}
	}
	return false
}

// dispatch starts the next job when none runs and the last one's pause is
// over.
func (t *Transcript) dispatch() tea.Cmd {
	now := t.now()
	if t.inflight != nil {
		if !t.inflight.lost(now) {
			return nil
		}
		t.dropInflight()
	}
	if now.Before(t.nextJob) {
		return nil
	}
	j := t.nextJobToRun()
	if j == nil {
		return nil
	}
	t.jobSeq++
	j.seq, j.from, j.started = t.jobSeq, t, now
	j.ctx, j.cancel = context.WithCancel(context.Background())
	t.inflight = j
	return j.run
}

// dropInflight cancels the running job and forgets it (its result, if
// it comes, is dropped; a document it was rendering can make another).
func (t *Transcript) dropInflight() {
	j := t.inflight
	if j == nil {
		return
	}
	j.cancel()
	t.inflight = nil
	if i, ok := t.index[j.id]; ok && j.doc != nil {
		if l := t.items[i].live; l != nil && l.doc != nil {
			l.doc.Forget(j.doc)
			l.dirty = true
		}
	}
}

// nextJobToRun picks what to render: a streaming reply first, then a
// finished message in the window, then any other.
func (t *Transcript) nextJobToRun() *job {
	for k := len(t.streams) - 1; k >= 0; k-- {
		it := t.streams[k]
		if !it.live.wantJob || it.live.doc == nil {
			continue
		}
		it.live.wantJob = false
		if dj := it.live.doc.Job(t.engine().r); dj != nil {
			return &job{id: it.id(), doc: dj}
		}
	}
	if t.pendingN == 0 {
		return nil
	}
	pick := -1
	top := t.top()
	i, _ := t.hs.find(top)
	for y := t.hs.prefix(i); i < len(t.items) && y < top+t.h; i++ {
		if t.items[i].pending {
			pick = i
			break
		}
		y += t.hs.get(i)
	}
	if pick < 0 {
		for i, it := range t.items {
			if it.pending {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		return nil
	}
	it := t.items[pick]
	return &job{id: it.id(), text: t.lay(it.text), base: it.base, r: t.engine().r.Clone(), w: it.w, gen: it.gen, ver: it.ver}
}
