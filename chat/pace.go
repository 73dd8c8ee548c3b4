package chat

import "time"

// A reader that pauses before each network read so that the deltas a
// gateway sends meanwhile are read together wakes the process once per
// pause. Its owner shows what it gathered once a frame, so the best pause
// ends just before the owner's next take: the text read then is on screen
// at once, and the reader wakes once a frame instead of several times
// (each wake-up of a thread costs more CPU than the events it reads;
// BENCHMARKS.md, "One wake-up a frame").
const (
	// takeLead is how long before the predicted take the pause ends:
	// room for the reader to wake and decode a frame's events (a fraction
	// of a millisecond; a loaded machine wakes it late by a few).
	takeLead = 15 * time.Millisecond
	// minPause is the shortest pause: when the predicted read time is
	// closer than this, the reader aims at the take after it.
	minPause = 5 * time.Millisecond
	// minEvery and maxEvery bound the interval the takes are predicted
	// with: a take out of turn (a reply stopped) must not make the reader
	// spin, and an owner that stopped taking must not make it sleep long
	// while the socket fills.
	minEvery = 20 * time.Millisecond
	maxEvery = 250 * time.Millisecond
)

// untilTake is how long a reader pauses at now: until takeLead before the
// owner's next take, predicted from its last take (taken) and the
// interval before it (every), or gap when the owner has not taken twice
// yet.
func untilTake(gap time.Duration, taken time.Time, every time.Duration, now time.Time) time.Duration {
	if every <= 0 || taken.IsZero() {
		return gap
	}
	every = min(max(every, minEvery), maxEvery)
	d := taken.Add(every - takeLead).Sub(now)
	if d < minPause {
		// The read time passed (the reader waited for the network, or
		// the owner is late): aim at a later take on the same grid.
		d += (minPause - d + every - 1) / every * every
	}
	return d
}
