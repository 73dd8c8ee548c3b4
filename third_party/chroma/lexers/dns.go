package lexers

import (
	"regexp"
)

// dnsAnalyser makes the dns lexer's analyser (parley: called by
// registerEmbedded, where upstream set it in an init function and compiled
// its pattern while the package initialised).
func dnsAnalyser() func(text string) float32 {
	zoneAnalyserRe := regexp.MustCompile(`(?m)^@\s+IN\s+SOA\s+`)
	return func(text string) float32 {
		if zoneAnalyserRe.FindString(text) != "" {
			return 1.0
		}
		return 0.0
	}
}
