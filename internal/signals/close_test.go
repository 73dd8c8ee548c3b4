package signals

import "os/signal"

// Close stops catching signals and ends the owner's goroutine and timer.
// main does not need it (the process exits), so it lives with the
// tests, which start many owners in one process.
func (o *Owner) Close() {
	signal.Stop(o.sigs)
	signal.Stop(o.jobs)
	o.mu.Lock()
	if o.watchdog != nil {
		o.watchdog.Stop()
	}
	o.mu.Unlock()
	select {
	case <-o.done:
	default:
		close(o.done)
	}
	<-o.stopped
	o.cancel(nil)
}
