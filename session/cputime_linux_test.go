//go:build linux

package session

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process used so far, all threads
// together: the recorder's writer goroutine and the garbage collector
// count too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
