package ui

import (
	"regexp"
	"strings"

	"parley/ui/cells"
)

// plainWords is the start of a message as one line of plain words, as a
// list row shows it: line breaks become spaces, and the Markdown marks a
// reply begins with ("# ", "**", "*", "- ", "> ", "```go", "`") are dropped,
// since a row draws no Markdown and the marks only crowd out the words.
func plainWords(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			lines[i] = "" // a fence and its language name are no words
			continue
		}
		lines[i] = trimLineMarks(l)
	}
	text := pairedMarks.Replace(strings.Join(lines, "\n"))
	if strings.ContainsAny(text, "*_") {
		text = emphasisOpen.ReplaceAllString(text, "${1}${2}")
		text = emphasisClose.ReplaceAllString(text, "${1}${2}")
	}
	return cells.Fold(text)
}

// pairedMarks drops the marks of strong, strikethrough and code; made once,
// as /branches reads thousands of labels (a Replacer is safe to share), and
// emphasisOpen and emphasisClose find the single * and _ of emphasis, at
// the edge of a word: "2 * 3" and snake_case keep theirs.
var (
	pairedMarks   = strings.NewReplacer("**", "", "__", "", "~~", "", "`", "")
	emphasisOpen  = regexp.MustCompile(`(^|\s)[*_]+(\S)`)
	emphasisClose = regexp.MustCompile(`(\S)[*_]+(\s|$|[.,;:!?)])`)
)

// trimLineMarks drops the marks that open a Markdown line: headings,
// quotes, list bullets and numbers (a quoted heading loses both).
func trimLineMarks(l string) string {
	for {
		t := l
		switch {
		case strings.HasPrefix(t, "#"):
			t = strings.TrimLeft(t, "#")
		case strings.HasPrefix(t, ">"):
			t = t[1:]
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
			t = t[2:]
		default:
			if n := strings.IndexAny(t, ".)"); n > 0 && n < 4 && strings.Trim(t[:n], "0123456789") == "" && strings.HasPrefix(t[n+1:], " ") {
				t = t[n+1:]
			}
		}
		t = strings.TrimSpace(t)
		if t == l {
			return l
		}
		l = t
	}
}
