package paste

import "time"

// statWait bounds the stats of one Parse. A local file system answers in
// microseconds; only a network mount that is away takes longer, and the
// UI must not wait for it.
const statWait = 300 * time.Millisecond

// answer is what the file system said about a paste's paths.
type answer int

const (
	// unknown: it did not answer in time.
	unknown answer = iota
	// allFiles: every path names a regular file.
	allFiles
	// notFiles: a path names nothing, a folder or a special file.
	notFiles
)

// regularFiles asks whether every path names a regular file (symbolic
// links followed), stopping at the first that does not, and waits for the
// answer until deadline. The stats run in a goroutine of their own so the
// wait can end: a stat cannot be interrupted, so on a hung mount that
// goroutine ends when the stat does, and its answer is dropped into a
// buffered channel nobody reads.
func regularFiles(paths []string, deadline time.Time, stat statFunc) answer {
	done := make(chan answer, 1)
	go func() {
		for _, p := range paths {
			if st, err := stat(p); err != nil || !st.Mode().IsRegular() {
				done <- notFiles
				return
			}
		}
		done <- allFiles
	}()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case a := <-done:
		return a
	case <-t.C:
		return unknown
	}
}
