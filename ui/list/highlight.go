package list

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/rivo/uniseg"
)

// Highlight draws text in base with the runes marked in hits (from Score
// or Rank) in hit. A grapheme counts as matched when any of its runes did,
// so a combining mark or an emoji sequence is never split by a style.
// text must already be safe for a terminal (cells.OneLine).
func Highlight(text string, hits []bool, base, hit lipgloss.Style) string {
	if len(hits) == 0 {
		return base.Render(text)
	}
	var b, run strings.Builder
	runHit := false
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if runHit {
			b.WriteString(hit.Render(run.String()))
		} else {
			b.WriteString(base.Render(run.String()))
		}
		run.Reset()
	}
	if isASCII(text) { // one byte, one rune, one grapheme
		for i := 0; i < len(text); i++ {
			isHit := i < len(hits) && hits[i]
			if isHit != runHit {
				flush()
				runHit = isHit
			}
			run.WriteByte(text[i])
		}
		flush()
		return b.String()
	}
	ri := 0
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		rs := g.Runes()
		isHit := false
		for k := range rs {
			if ri+k < len(hits) && hits[ri+k] {
				isHit = true
			}
		}
		ri += len(rs)
		if isHit != runHit {
			flush()
			runHit = isHit
		}
		run.WriteString(g.Str())
	}
	flush()
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
