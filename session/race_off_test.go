//go:build !race

package session

// raceEnabled: see race_on_test.go.
const raceEnabled = false
