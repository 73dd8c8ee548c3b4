package api

import "unicode/utf8"

// appendJSONString appends the contents of s as encoding/json writes them
// inside a string's quotes (HTML escaping on, as json.Marshal does): '"',
// '\\', control characters, '<', '>' and '&' escaped, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped. The quotes are the caller's, so a
// long string can be written a piece at a time (see jsonCut).
// TestJSONStringMatchesEncodingJSON and FuzzJSONString hold it to
// json.Marshal byte for byte.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if jsonSafe(b) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// jsonSafe reports an ASCII byte json.Marshal writes as it is: printable,
// and none of '"', '\\', '<', '>', '&'.
func jsonSafe(b byte) bool {
	return b >= ' ' && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' && b < utf8.RuneSelf
}

// jsonCut returns where to end a piece of s that starts at from and is
// about n bytes long, so that escaping the pieces one after the other
// writes what escaping s whole writes: the cut never falls inside a valid
// UTF-8 sequence. It moves past at most three continuation bytes (a
// sequence is at most four bytes long), so a run of stray continuation
// bytes cannot make a piece grow without end.
func jsonCut(s string, from, n int) int {
	end := min(len(s), from+max(n, 1))
	for k := 0; k < utf8.UTFMax-1 && end < len(s) && !utf8.RuneStart(s[end]); k++ {
		end++
	}
	return end
}
