package mdstream

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling OS thread has used (nanosecond
// clock; getrusage counts in scheduler ticks). Frame costs are reported
// both as wall time and as this, which other processes on a busy machine
// inflate much less. Callers lock the goroutine to its thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
