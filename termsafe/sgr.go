package termsafe

import "unicode/utf8"

// KeepSGR is for the output of a trusted renderer (glamour, lipgloss) whose
// input was made safe with Markdown or Sanitize. It keeps SGR sequences
// (ESC [ digits, ';' or ':' … m: colours and attributes) and removes every
// other escape sequence whole: CSI sequences other than SGR, OSC (glamour v2
// wraps every link and image in an OSC 8 hyperlink and has no option to stop
// it; the URL stays visible as text), DCS, SOS, PM, APC, and two- and
// three-byte ESC sequences. An ESC that does not start a complete sequence
// becomes ␛, and every other character is treated as Sanitize treats it, so
// the result obeys the same guarantees as Sanitize except that it may
// contain SGR sequences. s is returned as is, without allocating, when
// nothing needs changing.
func KeepSGR(s string) string {
	var b []byte // nil until the first change
	last := 0    // s[last:i] is pending, unchanged text
	flush := func(i int) {
		if b == nil {
			b = make([]byte, 0, len(s))
		}
		b = append(b, s[last:i]...)
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if c == esc {
			n, keep := escSequence(s[i:])
			switch {
			case n == 0: // not a complete sequence: show the ESC
				flush(i)
				b = append(b, "\u241b"...)
				i++
				last = i
			case keep:
				i += n
			default:
				flush(i)
				i += n
				last = i
			}
			continue
		}
		// Anything else: Sanitize's rules for the run up to the next ESC.
		j := i + 1
		for j < len(s) && s[j] != esc {
			j++
		}
		run := s[i:j]
		if k := cleanPrefix(run); k < len(run) {
			flush(i + k)
			out, _ := sanitize(run[k:], true, nil)
			b = append(b, out...)
			last = j
		}
		i = j
	}
	if b == nil {
		return s
	}
	b = append(b, s[last:]...)
	return string(b)
}

// escSequence measures the escape sequence at the start of s (s[0] is ESC).
// It returns its length and whether it is an SGR sequence to keep, or n == 0
// if s does not start with a complete sequence.
func escSequence(s string) (n int, keep bool) {
	if len(s) < 2 {
		return 0, false
	}
	switch c := s[1]; {
	case c == '[':
		return csiSequence(s)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return stringSequence(s), false
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
		i := 2
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			return i + 1, false
		}
		return 0, false
	case c >= 0x30 && c <= 0x7e: // ESC c, ESC 7, ESC =, …
		return 2, false
	}
	return 0, false
}

// csiSequence measures ESC [ params intermediates final.
func csiSequence(s string) (n int, keep bool) {
	i := 2
	sgrParams := true
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		if c := s[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			sgrParams = false // private markers such as '?' or '<'
		}
		i++
	}
	inter := i
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i >= len(s) || s[i] < 0x40 || s[i] > 0x7e {
		return 0, false
	}
	return i + 1, s[i] == 'm' && sgrParams && i == inter
}

// stringSequence measures an OSC, DCS, SOS, PM or APC string up to and
// including its terminator (BEL, ESC \ or the C1 ST U+009C), or returns 0
// if it is not terminated. An ESC not followed by '\' ends the string
// without a terminator, as terminals treat it (it cancels the string).
func stringSequence(s string) int {
	for i := 2; i < len(s); {
		switch c := s[i]; {
		case c == 0x07:
			return i + 1
		case c == esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		case c < utf8.RuneSelf:
			i++
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
	}
	return 0
}
