package signals

import (
	"os"
	"os/signal"
)

// JobControl is the full-screen chat's side of stopping and continuing the
// process, from AttachTUI to its detach.
//
// The chat stops the process with SIGSTOP, never by re-raising SIGTSTP:
// once a Go program has caught SIGTSTP, the runtime keeps its handler
// installed even after signal.Reset, and a SIGTSTP it no longer delivers
// is dropped, so it could never stop the process again (Bubble Tea's
// tea.Suspend relies on exactly that and would hang waiting for SIGCONT).
type JobControl struct {
	// Stops delivers a SIGTSTP sent from outside the terminal (kill -TSTP;
	// in raw mode ctrl+z is a key, not a signal): the chat then stops as
	// on ctrl+z.
	Stops <-chan struct{}
	// Continued delivers SIGCONT: the chat redraws, since whatever ran
	// while the process was stopped may have written over its screen.
	Continued <-chan struct{}

	o *Owner
}

// CanStop reports whether stopping can work: a shell with job control
// would continue the process. In an orphaned process group (the session
// leader's, as when parley is a terminal's own command or was started by a
// shell without job control) nothing would, and the kernel discards
// SIGTSTP there; so does a process started with SIGTSTP ignored.
func (j *JobControl) CanStop() bool {
	return j != nil && j.o != nil && tstp != nil && j.o.opts.CanStop()
}

// Stop stops the process's job, as the terminal's suspend key would, and
// returns once it has been continued (fg). The chat must have released the
// terminal first. It does nothing when CanStop is false.
func (j *JobControl) Stop() {
	if j.CanStop() {
		stopJob()
	}
}

// AttachTUI tells the owner that the chat is taking the terminal: from now
// until detach, a forced exit restores the terminal first, and SIGTSTP and
// SIGCONT are caught and delivered to the chat. Call detach as soon as the
// chat has returned the terminal (a forced exit after that would write its
// reset sequence over the shell's screen): it puts the tty modes back as
// they were at start; calling it again does nothing more.
func (o *Owner) AttachTUI() (jc *JobControl, detach func()) {
	stops := make(chan struct{}, 1)
	conts := make(chan struct{}, 1)
	o.mu.Lock()
	o.attached = true
	o.stops, o.conts = stops, conts
	o.mu.Unlock()
	jc = &JobControl{Stops: stops, Continued: conts, o: o}
	if jc.CanStop() {
		signal.Notify(o.jobs, tstp, cont)
	}
	return jc, func() {
		signal.Stop(o.jobs)
		o.mu.Lock()
		was := o.attached
		o.attached = false
		o.stops, o.conts = nil, nil
		o.mu.Unlock()
		if t := o.opts.Terminal; was && t != nil && t.Restore != nil {
			// The tty modes as at start: a chat that failed to start can
			// return with the terminal raw (Bubble Tea returns an error
			// from its start without restoring it), and after a chat that
			// restored them this changes nothing. It writes nothing to
			// the screen.
			_ = t.Restore()
		}
	}
}

// job hands SIGTSTP and SIGCONT to the chat. A signal that arrives after
// the chat has gone is dropped; one that arrives while the chat is still
// busy with the previous one is merged with it.
func (o *Owner) job(s os.Signal) {
	o.mu.Lock()
	stops, conts := o.stops, o.conts
	o.mu.Unlock()
	if stops == nil {
		return
	}
	switch s {
	case tstp:
		notify(stops)
	case cont:
		notify(conts)
	}
}

func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
