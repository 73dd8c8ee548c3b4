//go:build !race

package e2e

// raceBuild: the tests run without the race detector; so does the binary.
const raceBuild = false
