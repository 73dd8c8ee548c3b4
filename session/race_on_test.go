//go:build race

package session

// raceEnabled: the race detector slows SQLite (pure Go) about tenfold, so
// the tests that write megabytes write less under it.
const raceEnabled = true
