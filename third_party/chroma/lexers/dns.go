package lexers

import (
	"regexp"
)

// TODO(moorereason): can this be factored away?
var zoneAnalyserRe = regexp.MustCompile(`(?m)^@\s+IN\s+SOA\s+`)

// analyseDNS is the dns lexer's analyser (parley: set by registerEmbedded,
// upstream by an init function).
func analyseDNS(text string) float32 {
	if zoneAnalyserRe.FindString(text) != "" {
		return 1.0
	}
	return 0.0
}
