//go:build !unix

package preview

import "time"

// cpuTime is not measured outside Unix; benchmarks report 0.
func cpuTime() time.Duration { return 0 }
