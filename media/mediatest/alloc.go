package mediatest

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// Alloc is what a piece of code allocated on the heap.
type Alloc struct {
	// Total is every byte allocated while it ran (runtime.MemStats
	// TotalAlloc), freed or not: an upper bound of its peak.
	Total uint64
	// Peak is the most heap in use above the level before it ran, sampled
	// every millisecond; garbage not yet collected counts.
	Peak uint64
}

// Measure runs f after a garbage collection and reports its allocations.
// Tests that use it must not run in parallel with others, since the heap
// is shared.
func Measure(f func()) Alloc {
	runtime.GC()
	var before, after runtime.MemStats
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := heap()
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if h := heap(); h > base && h-base > peak {
				peak = h - base
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	close(stop)
	wg.Wait()
	if h := heap(); h > base && h-base > peak {
		peak = h - base
	}
	return Alloc{Total: after.TotalAlloc - before.TotalAlloc, Peak: peak}
}
