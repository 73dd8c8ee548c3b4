//go:build !race

package mdstream

const raceOn = false
