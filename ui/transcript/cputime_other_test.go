//go:build !linux

package transcript

import "time"

// processCPU is not measured on this platform.
func processCPU() time.Duration { return 0 }

// threadCPU is not measured on this platform.
func threadCPU() time.Duration { return 0 }
