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

// jobs runs the background renders of the list's items, one at a time.
type jobs struct {
	list  *List
	reply *replyView // its streams' documents come first
	c     *canvas    // the engine a job clones
	owner *Transcript

	seq      int
	inflight *job
	next     time.Time // no job starts before this (half a core at most)
	pending  int       // items waiting for a job
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

// setPending marks an item as waiting for a job (or not), keeping count.
func (js *jobs) setPending(it *item, p bool) {
	if it.pending == p {
		return
	}
	it.pending = p
	if p {
		js.pending++
	} else {
		js.pending--
	}
}

// wanted reports whether a job waits to be dispatched.
func (js *jobs) wanted() bool {
	if js.pending > 0 {
		return true
	}
	for _, it := range js.reply.streams {
		if it.live.wantJob {
			return true
		}
	}
	return false
}

// dispatch starts the next job when none runs and the last one's pause is
// over.
func (js *jobs) dispatch() tea.Cmd {
	now := js.c.now()
	if js.inflight != nil {
		if !js.inflight.lost(now) {
			return nil
		}
		js.drop()
	}
	if now.Before(js.next) {
		return nil
	}
	j := js.pick()
	if j == nil {
		return nil
	}
	js.seq++
	j.seq, j.from, j.started = js.seq, js.owner, now
	j.ctx, j.cancel = context.WithCancel(context.Background())
	js.inflight = j
	return j.run
}

// drop cancels the running job and forgets it (its result, if
// it comes, is dropped; a document it was rendering can make another).
func (js *jobs) drop() {
	j := js.inflight
	if j == nil {
		return
	}
	j.cancel()
	js.inflight = nil
	if _, it, ok := js.list.at(j.id); ok && j.doc != nil {
		if l := it.live; l != nil && l.doc != nil {
			l.doc.Forget(j.doc)
			l.dirty = true
		}
	}
}

// pick picks what to render: a streaming reply first, then a
// finished message in the window, then any other.
func (js *jobs) pick() *job {
	for k := len(js.reply.streams) - 1; k >= 0; k-- {
		it := js.reply.streams[k]
		if !it.live.wantJob || it.live.doc == nil {
			continue
		}
		it.live.wantJob = false
		if dj := it.live.doc.Job(js.c.engine().r); dj != nil {
			return &job{id: it.id(), doc: dj}
		}
	}
	if js.pending == 0 {
		return nil
	}
	l := js.list
	pick := -1
	top := l.top()
	i, _ := l.hs.find(top)
	for y := l.hs.prefix(i); i < len(l.items) && y < top+l.h; i++ {
		if l.items[i].pending {
			pick = i
			break
		}
		y += l.hs.get(i)
	}
	if pick < 0 {
		for i, it := range l.items {
			if it.pending {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		return nil
	}
	it := l.items[pick]
	return &job{id: it.id(), text: js.c.lay(it.d.text), base: it.base, r: js.c.engine().r.Clone(), w: it.d.w, gen: it.d.gen, ver: it.ver}
}
