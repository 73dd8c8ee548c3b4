//go:build linux

package transcript

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// processCPU returns the CPU time this process used so far (all threads:
// the garbage collector's background work counts too).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPU returns the CPU time of the calling thread; with the goroutine
// locked to its thread, the difference of two calls is the CPU the work in
// between took, whatever else the machine was running.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
