//go:build race

package mdstream

// raceOn: the race detector slows glamour down about tenfold, so the
// exhaustive stream comparisons run a smaller matrix under it.
const raceOn = true
