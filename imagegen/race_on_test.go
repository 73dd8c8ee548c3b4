//go:build race

package imagegen

// raceDetector says the tests run under -race, which makes Go's image
// codecs about ten times slower: the heaviest image tests shrink or skip.
const raceDetector = true
