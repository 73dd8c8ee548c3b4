package media

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// latinExtra spells the Latin letters that have no decomposition into an
// ASCII letter plus accents ("" for any other rune).
func latinExtra(r rune) string {
	switch r {
	case 'ß':
		return "ss"
	case 'æ':
		return "ae"
	case 'œ':
		return "oe"
	case 'ø':
		return "o"
	case 'ł':
		return "l"
	case 'đ', 'ð':
		return "d"
	case 'þ':
		return "th"
	case 'ı':
		return "i"
	}
	return ""
}

// slugMax is the longest slug SaveImages puts into a file name.
const slugMax = 40

// Slug makes a file-name fragment of a prompt: lowercase ASCII letters and
// digits, words joined by '-', at most 40 characters cut at a word boundary.
// Accents are dropped from Latin letters ("Café" → "cafe"); other scripts are
// dropped entirely (no transliteration), and a prompt with nothing left
// becomes "image".
func Slug(prompt string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range norm.NFKD.String(prompt) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			w.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			w.WriteRune(r + 'a' - 'A')
		case latinExtra(unicode.ToLower(r)) != "":
			w.WriteString(latinExtra(unicode.ToLower(r)))
		case unicode.Is(unicode.Mn, r), r == '\'', r == '’':
			// combining accents and apostrophes vanish inside a word
		case r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsNumber(r)):
			// a letter of another script: dropped, not a word break
		default:
			flush()
		}
	}
	flush()
	var b strings.Builder
	for _, word := range words {
		extra := len(word)
		if b.Len() > 0 {
			extra++
		}
		if b.Len()+extra > slugMax {
			if b.Len() == 0 {
				b.WriteString(word[:slugMax])
			}
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(word)
	}
	if b.Len() == 0 {
		return "image"
	}
	return b.String()
}
