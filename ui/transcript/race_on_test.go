//go:build race

package transcript

// raceOn: the race detector slows glamour down about tenfold, so the
// hostile-input bounds are wider under it.
const raceOn = true
