//go:build !unix

package media

import "time"

func cpuTime() time.Duration { return 0 }
