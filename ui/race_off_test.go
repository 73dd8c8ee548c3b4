//go:build !race

package ui

// raceOn: the race detector slows the UI down several times over, so time
// bounds are wider under it.
const raceOn = false
