//go:build !linux

package mdstream

import "time"

// threadCPU is not measured outside Linux.
func threadCPU() time.Duration { return 0 }
