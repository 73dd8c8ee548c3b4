package termsafe

import "unicode/utf8"

// Sanitize returns s with every control character made visible and inert
// (see the package documentation for the exact rules). If s is already
// clean it is returned unchanged, without allocating.
func Sanitize(s string) string {
	out, _ := sanitize(s, true, nil)
	return out
}

// IsClean reports whether Sanitize(s) == s.
func IsClean(s string) bool {
	return cleanPrefix(s) == len(s)
}

const (
	esc = 0x1b
	del = 0x7f
)

// needsWork marks the ASCII bytes that cannot be copied as they are: C0
// controls other than tab and newline, and DEL. It is never written.
var needsWork = func() (t [128]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = c != '\t' && c != '\n'
	}
	t[del] = true
	return t
}()

// cleanPrefix returns the length of the longest prefix of s that Sanitize
// would copy unchanged and that ends on a boundary where a decision is final.
func cleanPrefix(s string) int {
	i := 0
	for i < len(s) {
		// Eight ASCII bytes with no control and no DEL at a time: the common
		// case for answer text.
		if i+8 <= len(s) && asciiClean8(load64(s, i)) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if needsWork[c] {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || isC1(r) || isBidi(r) {
			return i
		}
		i += size
	}
	return i
}

// load64 reads s[i:i+8] as a little-endian word; the compiler combines the
// byte loads into one.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// asciiClean8 reports whether the eight bytes in w are all printable ASCII
// (0x20–0x7E), tab or newline. Each test below is exact per byte: setting
// the high bit of every byte before subtracting stops borrows from crossing
// byte boundaries.
func asciiClean8(w uint64) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	if w&high != 0 {
		return false
	}
	lt20 := ^((w | high) - ones*0x20) & high // byte < 0x20
	if lt20 == 0 {
		x := w ^ (ones * del)
		return ^((x|high)-ones)&high == 0 // no byte == 0x7F
	}
	tab, nl := w^(ones*'\t'), w^(ones*'\n')
	isTab := ^((tab | high) - ones) & high
	isNL := ^((nl | high) - ones) & high
	x := w ^ (ones * del)
	isDel := ^((x | high) - ones) & high
	return lt20&^(isTab|isNL)|isDel == 0
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// sanitize is the one implementation behind every entry point. With final
// false it stops before a tail whose treatment depends on input not seen yet
// (a trailing '\r', or a trailing incomplete but so far valid UTF-8
// sequence) and reports the tail's length as held; the caller prepends the
// tail to the next input. With final true nothing is held.
func sanitize(s string, final bool, mark func(string) string) (out string, held int) {
	i := cleanPrefix(s)
	if i == len(s) {
		return s, 0
	}
	if !final {
		if h := heldTail(s[i:]); h == len(s)-i {
			return s[:i], h
		}
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !needsWork[c] {
				// Copy the run of clean bytes in one go.
				j := i + 1
				for j < len(s) && s[j] < utf8.RuneSelf && !needsWork[s[j]] {
					j++
				}
				b = append(b, s[i:j]...)
				i = j
				continue
			}
			if c == '\r' {
				if i+1 == len(s) && !final {
					return string(b), 1
				}
				if i+1 < len(s) && s[i+1] == '\n' {
					i++ // CRLF → LF: drop the CR, the LF is copied next.
					continue
				}
			}
			b = appendPlaceholder(b, controlPicture(c), mark)
			i++
			continue
		}
		if !final && !utf8.FullRuneInString(s[i:]) {
			return string(b), len(s) - i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if c <= 0x9f {
				b = appendPlaceholder(b, rawBytePicture(c), mark)
			} else {
				b = appendPlaceholder(b, placeholder{n: 3, b: [12]byte{0xef, 0xbf, 0xbd}}, mark)
			}
		case isC1(r) || isBidi(r):
			b = appendPlaceholder(b, codePointPicture(r), mark)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b), 0
}

// heldTail returns how many bytes at the end of s a non-final call must hold
// back, or 0; it is only used to avoid copying when nothing else is dirty.
func heldTail(s string) int {
	if s == "\r" {
		return 1
	}
	if len(s) < utf8.UTFMax && s[0] >= utf8.RuneSelf && !utf8.FullRuneInString(s) {
		return len(s)
	}
	return 0
}

// placeholder is a short UTF-8 string built without allocating.
type placeholder struct {
	n int
	b [12]byte
}

func appendPlaceholder(dst []byte, p placeholder, mark func(string) string) []byte {
	if mark == nil {
		return append(dst, p.b[:p.n]...)
	}
	return append(dst, mark(string(p.b[:p.n]))...)
}

// controlPicture returns the Unicode Control Picture for a C0 control or DEL:
// U+2400 + c (␀ … ␟) and U+2421 (␡).
func controlPicture(c byte) placeholder {
	r := rune(0x2400) + rune(c)
	if c == del {
		r = 0x2421
	}
	var p placeholder
	p.n = utf8.EncodeRune(p.b[:], r)
	return p
}

const hexDigits = "0123456789ABCDEF"

// Angle brackets U+27E8 and U+27E9: narrow, and unlikely in real text, so a
// bracketed code point is not mistaken for model output.
const (
	langle = "\u27e8"
	rangle = "\u27e9"
)

// codePointPicture returns "⟨U+XXXX⟩" for a C1 or bidi control (all are
// below U+10000, so four digits suffice).
func codePointPicture(r rune) placeholder {
	var p placeholder
	p.n = copy(p.b[:], langle+"U+")
	for shift := 12; shift >= 0; shift -= 4 {
		p.b[p.n] = hexDigits[(r>>shift)&0xf]
		p.n++
	}
	p.n += copy(p.b[p.n:], rangle)
	return p
}

// rawBytePicture returns "⟨0x9B⟩" for a byte that is not valid UTF-8.
func rawBytePicture(c byte) placeholder {
	var p placeholder
	p.n = copy(p.b[:], langle+"0x")
	p.b[p.n] = hexDigits[c>>4]
	p.b[p.n+1] = hexDigits[c&0xf]
	p.n += 2
	p.n += copy(p.b[p.n:], rangle)
	return p
}
