package conversation

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxTitle is the most characters a title made from a message keeps: the
// status bar of a wide terminal shows it whole, narrower ones cut it to
// their room, and so do the sessions list and the window title.
const maxTitle = 100

// MakeTitle derives a one-line title of at most maxTitle characters from text:
// its first non-empty line, as plain text (Markdown marks such as **, `,
// # and link syntax are left out), white space folded.
func MakeTitle(text string) string {
	line, fenced := "", false
	for l := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if t != "" && !fenced {
			line = l
			break
		}
	}
	if line == "" {
		// Only code: its first line is still better than no title.
		for l := range strings.SplitSeq(text, "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
				line = l
				break
			}
		}
	}
	line = strings.Join(strings.Fields(plainMarkdown(line)), " ")
	const max = maxTitle
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)[:max-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

var (
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdEmphasis = regexp.MustCompile("(\\*\\*|__|\\*|`+|~~)")
	mdLead     = regexp.MustCompile(`^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)`)
)

// plainMarkdown is one line of Markdown as the text a reader sees.
func plainMarkdown(s string) string {
	s = mdLead.ReplaceAllString(s, "")
	s = mdLink.ReplaceAllString(s, "$1")
	return mdEmphasis.ReplaceAllString(s, "")
}
