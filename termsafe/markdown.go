package termsafe

import (
	"html"
	"strings"
)

// Markdown prepares untrusted Markdown for a renderer such as glamour. It
// sanitises s like Sanitize and then replaces every numeric character
// reference that would decode to a forbidden character ("&#27;", "&#x1B;",
// "&#7", "&#4294967323;" which wraps around to 27, "&#129;" which stays
// U+0081) with that character's placeholder ("␛", "␇", "⟨U+0081⟩").
//
// Why: glamour passes text, code spans, table cells and raw HTML through
// html.UnescapeString after parsing, so a reply containing "&#27;[2J" would
// clear the screen even though the reply itself held no ESC. The
// replacement is applied everywhere, code blocks included (where glamour
// would have shown the reference literally): a placeholder there is a small
// price for not having to parse Markdown here. References that decode to
// harmless characters ("&#233;", "&#10;") are left alone. No named HTML
// entity decodes to a forbidden character ("&Tab;", "&NewLine;", "&lrm;" and
// "&rlm;" are allowed).
//
// Like Sanitize, Markdown returns s itself when nothing needs changing.
func Markdown(s string) string {
	s = Sanitize(s)
	var b strings.Builder
	last := 0 // s[:last] has been written to b
	for pos := 0; ; {
		k := strings.Index(s[pos:], "&#")
		if k < 0 {
			break
		}
		start := pos + k
		n, canonical := numericRef(s[start:])
		if n == 0 {
			pos = start + 2
			continue
		}
		if repl, bad := forbiddenRef(canonical); bad {
			if last == 0 {
				b.Grow(len(s) + 8)
			}
			b.WriteString(s[last:start])
			b.WriteString(repl)
			last = start + n
		}
		pos = start + n
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// numericRef reports the length of the numeric character reference at the
// start of s ("&#" then decimal digits, or "x"/"X" then hex digits, then an
// optional ";"), and its canonical form with the semicolon, which
// html.UnescapeString always decodes. It returns 0 if s does not start with
// one. Digits are taken greedily, as html.UnescapeString does.
func numericRef(s string) (n int, canonical string) {
	i := 2 // after "&#"
	hex := false
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		hex = true
		i++
	}
	digits := i
	for i < len(s) && isRefDigit(s[i], hex) {
		i++
	}
	if i == digits {
		return 0, ""
	}
	canonical = s[:i] + ";"
	if i < len(s) && s[i] == ';' {
		i++
	}
	return i, canonical
}

func isRefDigit(c byte, hex bool) bool {
	switch {
	case c >= '0' && c <= '9':
		return true
	case hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')):
		return true
	}
	return false
}

// forbiddenRef decodes a canonical numeric reference exactly as the
// renderer will and, if the result is a character Sanitize would replace,
// returns the replacement.
func forbiddenRef(canonical string) (string, bool) {
	decoded := html.UnescapeString(canonical)
	if decoded == canonical {
		return "", false // not decoded at all; stays literal text
	}
	if out := Sanitize(decoded); out != decoded {
		return out, true
	}
	return "", false
}
