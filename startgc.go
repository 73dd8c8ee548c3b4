package main

import (
	"runtime/debug"
	"time"
)

// startGCPercent is the garbage collector's target while parley starts:
// the heap may grow to five times what is live, not twice.
const startGCPercent = 400

// startGCSpan is how long the start's target holds: the chat's first frame
// is out well within it.
const startGCSpan = time.Second

// lighterGCAtStart raises the collector's target for the first span of
// the process and then puts back what it was (GOGC's, or 100). The start
// allocates what the chat keeps (styles, the screen's cell buffers, the
// history's statements): a collection then frees next to nothing, and on
// two cores its worker took one from the first frame (BENCHMARKS.md,
// "Start-up without bluemonday and goldmark's patterns"). restored is
// closed once the target is back.
func lighterGCAtStart(span time.Duration) (restored <-chan struct{}) {
	done := make(chan struct{})
	old := debug.SetGCPercent(startGCPercent)
	if old < 0 {
		// GOGC=off: the user turned collection off; leave it so.
		debug.SetGCPercent(old)
		close(done)
		return done
	}
	time.AfterFunc(span, func() {
		debug.SetGCPercent(old)
		close(done)
	})
	return done
}
