package media

import "runtime/debug"

// reclaimAt is the least refused data Reclaim acts on: below it the forced
// collection costs more than the memory it gives back.
const reclaimAt = 32 << 20

// Reclaim gives memory back to the system after n bytes of image data (a
// file read, a clipboard image, pixels) were refused and dropped. Go frees
// them only at its next collection, which an idle program may not reach
// for two minutes, and returns freed pages to the system lazily after
// that: a refused 300 MB clipboard image would stay in the process's
// memory meanwhile. From reclaimAt on it collects now and returns what is
// free; the caller must hold no reference to the data any more.
func Reclaim(n int64) {
	if n >= reclaimAt {
		debug.FreeOSMemory()
	}
}
