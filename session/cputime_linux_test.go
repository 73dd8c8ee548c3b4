//go:build linux

package session

import (
	"os"
	"strconv"
	"strings"
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

// bytesWritten returns the bytes this process handed to write system
// calls so far (wchar of /proc/self/io), files and pipes alike: what the
// database wrote, WAL and checkpoints included. ok is false where the
// kernel does not say.
func bytesWritten() (n int64, ok bool) {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, found := strings.CutPrefix(line, "wchar: "); found {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
