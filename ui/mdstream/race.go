//go:build race

package mdstream

// raceSlowdown: the race detector makes glamour and chroma about ten times
// slower, so a frame's budget is ten times longer in race builds (tests),
// for the same work. Release builds are never race builds.
const raceSlowdown = 10
