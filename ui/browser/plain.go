package browser

import (
	"strings"

	"parley/ui/cells"
)

// plainPreview turns the beginning of a message (Markdown, untrusted; the
// store gives it on one line, its line breaks folded) into the text a
// reader sees: links and images show their text, and the marks of
// Markdown (headings, quotes, bullets, list numbers, fences, table rules,
// emphasis, inline code) are dropped.
func plainPreview(md string) string {
	var words []string
	for _, w := range strings.Fields(unlink(md)) {
		if blockMark(w) {
			continue
		}
		if w = stripInline(w); w != "" {
			words = append(words, w)
		}
	}
	return cells.OneLine(strings.Join(words, " "))
}

// blockMark reports whether a word is only a Markdown block mark: "#"
// to "######", ">", a bullet, a list number ("3." or "3)"), a fence
// ("```go"), or a table or rule made of "|", "-" and ":".
func blockMark(w string) bool {
	switch {
	case strings.HasPrefix(w, "```") || strings.HasPrefix(w, "~~~"):
		return true
	case len(w) <= 6 && strings.Trim(w, "#") == "":
		return true
	case w == ">" || w == "-" || w == "*" || w == "+":
		return true
	case strings.Trim(w, "|-:") == "":
		return true
	}
	n := 0
	for n < len(w) && n < 9 && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	return n > 0 && n == len(w)-1 && (w[n] == '.' || w[n] == ')')
}

// unlink writes every link and image, "[text](url)" or "![alt](url)", as
// its text.
func unlink(s string) string {
	if !strings.Contains(s, "](") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '!' && i+1 < len(s) && s[i+1] == '[' {
			if text, n := link(s[i+1:]); n > 0 {
				b.WriteString(text)
				i += 1 + n
				continue
			}
		}
		if s[i] == '[' {
			if text, n := link(s[i:]); n > 0 {
				b.WriteString(text)
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// link reads "[text](url)" at the start of s: its text and length.
func link(s string) (string, int) {
	end := strings.IndexByte(s, ']')
	if end < 0 || end+1 >= len(s) || s[end+1] != '(' {
		return "", 0
	}
	closeAt := strings.IndexByte(s[end+1:], ')')
	if closeAt < 0 {
		return "", 0
	}
	return s[1:end], end + 1 + closeAt + 1
}

// stripInline drops the emphasis and code marks of a word; a "_" inside
// a word (snake_case) is text.
func stripInline(w string) string {
	if !strings.ContainsAny(w, "*_`~") {
		return w
	}
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_' && i > 0 && i+1 < len(w) && isWordByte(w[i-1]) && isWordByte(w[i+1]):
			b.WriteByte(c)
		case c == '*' || c == '_' || c == '`' || c == '~':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
