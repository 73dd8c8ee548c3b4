package signals

import (
	"os"
	"os/signal"
)

// JobControl is the full-screen chat's side of stopping and continuing the
// process, from AttachTUI to its detach.
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

// Stopping is called right before the chat stops the process (it has
// released the terminal, or is about to). It reports false when stopping
// cannot work: no shell with job control would ever continue the process,
// or the kernel would discard the stop (an orphaned process group, SIGTSTP
// ignored from the start). Otherwise SIGTSTP takes its default action (the
// process stops) until the next SIGCONT, which catches it again.
func (j *JobControl) Stopping() bool {
	if j == nil || j.o == nil || tstp == nil || !j.o.opts.CanStop() {
		return false
	}
	signal.Reset(tstp)
	return true
}

// AttachTUI tells the owner that the chat is taking the terminal: from now
// until detach, a forced exit restores the terminal first, and SIGTSTP and
// SIGCONT are caught and delivered to the chat. Call detach once the chat
// has returned and restored the terminal itself.
func (o *Owner) AttachTUI() (jc *JobControl, detach func()) {
	stops := make(chan struct{}, 1)
	conts := make(chan struct{}, 1)
	o.mu.Lock()
	o.attached = true
	o.stops, o.conts = stops, conts
	o.mu.Unlock()
	if tstp != nil && o.opts.CanStop() {
		signal.Notify(o.jobs, tstp, cont)
	}
	return &JobControl{Stops: stops, Continued: conts, o: o}, func() {
		signal.Stop(o.jobs)
		o.mu.Lock()
		o.attached = false
		o.stops, o.conts = nil, nil
		o.mu.Unlock()
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
		// The stop (ours or anyone's) is over: catch SIGTSTP again.
		signal.Notify(o.jobs, tstp)
		notify(conts)
	}
}

func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
