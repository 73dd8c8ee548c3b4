package conversation

import (
	"strings"
	"unicode/utf8"
)

// MakeTitle derives a one-line title of at most 60 characters from text.
func MakeTitle(text string) string {
	line := strings.Join(strings.Fields(text), " ")
	const max = 60
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
