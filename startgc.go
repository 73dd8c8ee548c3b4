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
// the process and then puts back what it was (100). The start allocates
// what the chat keeps (styles, the screen's cell buffers, the history's
// statements): a collection then frees next to nothing, and on two cores
// its worker took one from the first frame (BENCHMARKS.md, "Start-up
// without bluemonday and goldmark's patterns"). A target GOGC sets is the
// user's and left alone; one the chat set meanwhile (a long session opened
// in that span sets its own, ui's setHeapFor) is kept. restored is closed
// once the span has ended.
func lighterGCAtStart(span time.Duration, getenv func(string) string) (restored <-chan struct{}) {
	done := make(chan struct{})
	if getenv("GOGC") != "" {
		close(done)
		return done
	}
	old := debug.SetGCPercent(startGCPercent)
	time.AfterFunc(span, func() {
		if cur := debug.SetGCPercent(old); cur != startGCPercent {
			// Set by the chat meanwhile: that one stays.
			debug.SetGCPercent(cur)
		}
		close(done)
	})
	return done
}
