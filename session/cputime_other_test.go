//go:build !linux

package session

import "time"

// processCPU is not measured here; benchmarks then report 0 cpu-ns/op.
func processCPU() time.Duration { return 0 }

// bytesWritten is not measured here.
func bytesWritten() (int64, bool) { return 0, false }
