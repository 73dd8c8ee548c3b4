//go:build race

package e2e

// raceBuild: the tests run under the race detector, so the binary is built
// with it too.
const raceBuild = true
