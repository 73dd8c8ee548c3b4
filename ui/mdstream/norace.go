//go:build !race

package mdstream

// raceSlowdown: see race.go.
const raceSlowdown = 1
