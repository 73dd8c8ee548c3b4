package slash

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// word is one argument of a command line: its text with quotes and escapes
// removed, and where it stands in the line (byte offsets), so completion can
// replace it.
type word struct {
	text       string
	start, end int
	// open is the quote character of a quote that runs to the end of the
	// line because it was never closed (0 when none).
	open byte
}

// splitWords splits the arguments of a command line into words.
//
// The rules are made for text people type, so they never fail:
//   - words are separated by white space (spaces, tabs, newlines);
//   - a double or single quote opens a quoted part only at the start of a
//     word, or after the "=" of a "--flag=" word, so apostrophes inside
//     words ("cat's") stay text; the part ends at the same quote, and a quote
//     that is never closed runs to the end of the line;
//   - inside double quotes, \" is a quote; single quotes take everything as
//     it is;
//   - outside quotes, a backslash before white space, a quote or a backslash
//     takes that character as it is (a dropped "My\ Pictures" path); any
//     other backslash is kept (a Windows path).
func splitWords(s string) []word {
	var out []word
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		w, next := readWord(s, i)
		out = append(out, w)
		i = next
	}
	return out
}

// readWord reads the word that starts at s[start] (not white space) and
// returns it with the offset just after it.
func readWord(s string, start int) (word, int) {
	var b strings.Builder
	w := word{start: start}
	i := start
	for i < len(s) {
		c := s[i]
		if (c == '"' || c == '\'') && quoteMayOpen(s, start, i, b.String()) {
			end, closed := readQuoted(s, i, &b)
			if !closed {
				w.open = c
				i = end
				break
			}
			i = end
			continue
		}
		if c == '\\' && i+1 < len(s) {
			r, size := utf8.DecodeRuneInString(s[i+1:])
			if unicode.IsSpace(r) || r == '"' || r == '\'' || r == '\\' {
				b.WriteString(s[i+1 : i+1+size])
				i += 1 + size
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			break
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	w.text, w.end = b.String(), i
	return w, i
}

// quoteMayOpen reports whether a quote at s[i] opens a quoted part: at the
// start of the word, or right after the "=" of a "--name=" word.
func quoteMayOpen(s string, start, i int, sofar string) bool {
	if i == start {
		return true
	}
	return strings.HasPrefix(sofar, "--") && strings.HasSuffix(sofar, "=") && strings.Count(sofar, "=") == 1 && s[i-1] == '='
}

// readQuoted copies the quoted part that opens at s[i] into b and returns
// the offset after its closing quote, or len(s) and false when it is never
// closed.
func readQuoted(s string, i int, b *strings.Builder) (int, bool) {
	q := s[i]
	j := i + 1
	for j < len(s) {
		c := s[j]
		switch {
		case c == q:
			return j + 1, true
		case q == '"' && c == '\\' && j+1 < len(s) && s[j+1] == '"':
			b.WriteByte('"')
			j += 2
		default:
			b.WriteByte(c)
			j++
		}
	}
	return len(s), false
}

// texts returns the texts of ws.
func texts(ws []word) []string {
	if len(ws) == 0 {
		return nil
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// quoteArg writes v so that splitWords reads it back as one word: white
// space, a quote at the start and a backslash that would otherwise escape
// the next character get a backslash. This keeps a completed directory
// ("My\ Pictures/") open for typing its file name after it.
func quoteArg(v string) string {
	if v == "" {
		return `""`
	}
	var b strings.Builder
	for i, r := range v {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('\\')
		case i == 0 && (r == '"' || r == '\''):
			b.WriteByte('\\')
		case r == '\\':
			next, _ := utf8.DecodeRuneInString(v[i+1:])
			if i+1 == len(v) || unicode.IsSpace(next) || next == '"' || next == '\'' || next == '\\' {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}
