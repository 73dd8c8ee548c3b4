package session

import (
	"regexp"
	"strings"
)

// Markdown syntax a preview leaves out (the text a reader of the rendered
// message sees stays): line leads (headings, quotes, list and task
// markers), fences, table rules and pipes, links and images (their text
// stays), emphasis and code marks.
var (
	previewLead  = regexp.MustCompile(`^\s*(?:#{1,6}\s+|(?:>\s*)+|(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?)`)
	previewRule  = regexp.MustCompile(`^\s*(?:[-*_]\s*){3,}$|^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	previewLink  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	previewMarks = regexp.MustCompile("\\*\\*|__|~~|`+|(?:^|\\s)[*_]+|[*_]+(?:\\s|$|[.,;:!?)])")
)

// plainPreview is the beginning of a message as plain text: Markdown
// syntax removed, on one line.
func plainPreview(md string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(md, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || previewRule.MatchString(t) {
			continue
		}
		t = previewLead.ReplaceAllString(t, "")
		t = previewLink.ReplaceAllString(t, "$1")
		t = previewMarks.ReplaceAllStringFunc(t, func(m string) string {
			// The marks go; a space or a stop next to them stays.
			return strings.Map(func(r rune) rune {
				if strings.ContainsRune("*_~`", r) {
					return -1
				}
				return r
			}, m)
		})
		if strings.HasPrefix(t, "|") {
			t = strings.Trim(strings.ReplaceAll(t, "|", " "), " ")
		}
		b.WriteString(t)
		b.WriteByte('\n')
	}
	return b.String()
}
