//go:build !race

package transcript

const raceOn = false
